import fs from 'node:fs';
import path from 'node:path';
import type Database from 'better-sqlite3';
import { indexedLineWindow, indexedLines } from '../../index/indexedLines.js';
import { parseMarkdownEntries, type MarkdownEntry } from '../../workspace/markdownEntries.js';
import { processLogger } from '../../platform/log/processLog.js';

const log = processLogger('dreaming/recall');

export interface IndexedDocument {
  path: string;
  source: 'memory' | 'dreams' | 'sessions';
  lines: string[];
  entries: MarkdownEntry[];
}

/**
 * How much parsed text the reader keeps, in characters of the files' text. A busy host's
 * searches land all over the workspace; with a cap of 256 documents most of them missed, and
 * re-reading and re-parsing notes was most of recording's cost. It is also what bounds memory:
 * parsed notes take ~7 bytes of heap per character with the stems and hashes the recorder
 * caches per entry (measured: ~100 MB for 14.5M characters of daily notes), so 8M characters
 * (~55 MB) keeps the notes searches keep returning without taking most of the engine's memory
 * budget (400 MB at 100k chunks).
 */
export const KEPT_CHARS = 8_000_000;

/** How far before a cited line a transcript window reaches for the start of its message, and after it for the rest of its entry. */
const WINDOW_BEFORE_LINES = 400;
const WINDOW_AFTER_LINES = 200;
/** A rendered message's first line (`sessions/transcriptDocument.ts`): `[2026-03-02 14:05] user: …`, the stamp when known. */
const MESSAGE_FIRST_LINE = /^(?:\[[^\]]{1,40}\] )?(?:user|assistant): /;

/** The index's row for a document: where it is and the version it was indexed at. */
interface FileRow {
  source: IndexedDocument['source'];
  abs_path: string;
  mtime_ms: number;
  size: number;
  sha256: string | null;
}

/**
 * The current text of an indexed document, as entries. Workspace files are read from disk
 * (the source of truth); transcripts exist only as indexed text, rebuilt from their chunks.
 * Parsed documents are kept while the index says their file is unchanged (size, mtime, hash),
 * so recording the recall of a busy host's searches does not re-read the same notes each time.
 */
export class DocumentReader {
  /** Least recently used first. */
  private readonly cache = new Map<string, { version: string; doc: IndexedDocument | null; chars: number }>();
  private keptChars = 0;
  private readonly fileRow: Database.Statement<[string], FileRow>;

  constructor(
    private readonly indexDb: Database.Database,
    private readonly workspaceRoot: string,
    private readonly maxChars = KEPT_CHARS,
  ) {
    this.fileRow = indexDb.prepare("SELECT source, abs_path, mtime_ms, size, sha256 FROM files WHERE path = ? AND status = 'indexed'");
  }

  /**
   * The entries of a document overlapping lines `startLine`–`endLine`. A note's come from the
   * whole file (kept, see `read`); a transcript's from a window of its indexed lines around them,
   * from the start of the message holding `startLine`: a transcript can be gigabytes, and
   * rebuilding all of it for every search that cited a few of its lines was most of a recall's
   * cost (all of a 2 GB transcript in memory for one hit). A message's first line is never in a
   * code fence, so the window parses as the whole transcript does (unless an earlier message
   * left a fence open: then the whole-text parse took the rest of the transcript for code).
   */
  entriesAround(docPath: string, startLine: number, endLine: number): MarkdownEntry[] | null {
    const file = this.fileRow.get(docPath);
    if (!file) return null;
    if (file.source !== 'sessions') {
      const doc = this.readAs(docPath, file);
      return doc ? entriesWithin(doc.entries, startLine, endLine) : null;
    }
    const from = Math.max(1, startLine - WINDOW_BEFORE_LINES);
    const lines = indexedLineWindow(this.indexDb, docPath, from, endLine + WINDOW_AFTER_LINES);
    if (lines.length === 0) return [];
    let first = Math.min(startLine - from, lines.length - 1);
    while (first > 0 && !MESSAGE_FIRST_LINE.test(lines[first]!)) first--;
    const offset = from + first - 1;
    const entries = parseMarkdownEntries(lines.slice(first).join('\n')).map((e) => ({ ...e, startLine: e.startLine + offset, endLine: e.endLine + offset }));
    return entriesWithin(entries, startLine, endLine);
  }

  read(docPath: string): IndexedDocument | null {
    const file = this.fileRow.get(docPath);
    return file ? this.readAs(docPath, file) : null;
  }

  /** `read` with the file's row already read (each search result's recall looked it up twice). */
  private readAs(docPath: string, file: FileRow): IndexedDocument | null {
    const version = `${file.size}:${file.mtime_ms}:${file.sha256 ?? ''}`;
    const kept = this.cache.get(docPath);
    if (kept && kept.version === version) {
      // Most recently used last: the oldest entry is the one evicted.
      this.cache.delete(docPath);
      this.cache.set(docPath, kept);
      return kept.doc;
    }
    if (kept) this.forget(docPath, kept.chars);
    const { doc, chars } = this.load(docPath, file);
    // A document bigger than the whole budget is read each time rather than evicting everything else.
    if (chars > this.maxChars) return doc;
    this.cache.set(docPath, { version, doc, chars });
    this.keptChars += chars;
    for (const [oldest, entry] of this.cache) {
      if (this.keptChars <= this.maxChars) break;
      this.forget(oldest, entry.chars);
    }
    return doc;
  }

  /** Characters of text the cache holds now. */
  get cachedChars(): number {
    return this.keptChars;
  }

  private forget(docPath: string, chars: number): void {
    this.cache.delete(docPath);
    this.keptChars -= chars;
  }

  private load(docPath: string, file: { source: IndexedDocument['source']; abs_path: string }): { doc: IndexedDocument | null; chars: number } {
    let text: string | null = null;
    if (file.source === 'sessions') text = indexedLines(this.indexDb, docPath).join('\n');
    else {
      try {
        text = fs.readFileSync(file.abs_path || path.join(this.workspaceRoot, docPath), 'utf8');
      } catch (error) {
        // Moved or deleted since indexing: the recall is kept without its text.
        log.debug('A recalled file could not be read', { path: docPath, error });
        text = null;
      }
    }
    if (text === null) return { doc: null, chars: 0 };
    const lines = text.split(/\r?\n/);
    return { doc: { path: docPath, source: file.source, lines, entries: parseMarkdownEntries(text) }, chars: text.length };
  }
}

/**
 * The entries overlapping lines `startLine`–`endLine`, in order. Entries are parsed in line
 * order and never overlap, so the first is found by binary search: a long transcript has
 * thousands of entries and a search result cites a few.
 */
export function entriesWithin<T extends { startLine: number; endLine: number }>(entries: readonly T[], startLine: number, endLine: number): T[] {
  let lo = 0;
  let hi = entries.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (entries[mid]!.endLine < startLine) lo = mid + 1;
    else hi = mid;
  }
  const within: T[] = [];
  for (let i = lo; i < entries.length && entries[i]!.startLine <= endLine; i++) within.push(entries[i]!);
  return within;
}
