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

const KEPT_DOCUMENTS = 256;

/**
 * The current text of an indexed document, as entries. Workspace files are read from disk
 * (the source of truth); transcripts exist only as indexed text, rebuilt from their chunks.
 * Parsed documents are kept while the index says their file is unchanged (size, mtime, hash),
 * so recording the recall of a busy host's searches does not re-read the same notes each time.
 */
export class DocumentReader {
  private readonly cache = new Map<string, { version: string; doc: IndexedDocument | null }>();
  private readonly fileRow: Database.Statement<[string], { source: IndexedDocument['source']; abs_path: string; mtime_ms: number; size: number; sha256: string | null }>;

  constructor(
    private readonly indexDb: Database.Database,
    private readonly workspaceRoot: string,
  ) {
    this.fileRow = indexDb.prepare("SELECT source, abs_path, mtime_ms, size, sha256 FROM files WHERE path = ? AND status = 'indexed'");
  }

  read(docPath: string): IndexedDocument | null {
    const file = this.fileRow.get(docPath);
    if (!file) return null;
    const version = `${file.size}:${file.mtime_ms}:${file.sha256 ?? ''}`;
    const kept = this.cache.get(docPath);
    if (kept && kept.version === version) {
      // Most recently used last: the oldest entry is the one evicted.
      this.cache.delete(docPath);
      this.cache.set(docPath, kept);
      return kept.doc;
    }
    const doc = this.load(docPath, file);
    this.cache.set(docPath, { version, doc });
    if (this.cache.size > KEPT_DOCUMENTS) this.cache.delete(this.cache.keys().next().value!);
    return doc;
  }

  private load(docPath: string, file: { source: IndexedDocument['source']; abs_path: string }): IndexedDocument | null {
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
