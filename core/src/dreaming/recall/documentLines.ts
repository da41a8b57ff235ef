import fs from 'node:fs';
import path from 'node:path';
import type Database from 'better-sqlite3';
import { indexedLines } from '../../index/indexedLines.js';
import { parseMarkdownEntries, type MarkdownEntry } from '../../workspace/markdownEntries.js';

export interface IndexedDocument {
  path: string;
  source: 'memory' | 'dreams' | 'sessions';
  lines: string[];
  entries: MarkdownEntry[];
}

/**
 * The current text of an indexed document, as entries. Workspace files are read from disk
 * (the source of truth); transcripts exist only as indexed text, rebuilt from their chunks.
 */
export class DocumentReader {
  private readonly cache = new Map<string, IndexedDocument | null>();

  constructor(
    private readonly indexDb: Database.Database,
    private readonly workspaceRoot: string,
  ) {}

  read(docPath: string): IndexedDocument | null {
    if (this.cache.has(docPath)) return this.cache.get(docPath)!;
    const doc = this.load(docPath);
    this.cache.set(docPath, doc);
    return doc;
  }

  private load(docPath: string): IndexedDocument | null {
    const file = this.indexDb.prepare('SELECT source, abs_path FROM files WHERE path = ? AND status = ?').get(docPath, 'indexed') as
      | { source: IndexedDocument['source']; abs_path: string }
      | undefined;
    if (!file) return null;
    let text: string | null = null;
    if (file.source === 'sessions') text = indexedLines(this.indexDb, docPath).join('\n');
    else {
      try {
        text = fs.readFileSync(file.abs_path || path.join(this.workspaceRoot, docPath), 'utf8');
      } catch {
        text = null;
      }
    }
    if (text === null) return null;
    const lines = text.split(/\r?\n/);
    return { path: docPath, source: file.source, lines, entries: parseMarkdownEntries(text) };
  }
}
