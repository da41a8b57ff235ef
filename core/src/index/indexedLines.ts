import type Database from 'better-sqlite3';
import { DEFAULT_CHUNKING } from './chunker.js';

interface ChunkLines {
  start_line: number;
  end_line: number;
  text: string;
}

/** A chunk spans at most this many lines: every line costs the chunker at least one token (its newline). */
const MAX_CHUNK_LINES = DEFAULT_CHUNKING.maxTokens;

/**
 * The indexed text of a document rebuilt line by line from its chunks (transcripts exist only
 * as indexed text). A chunk holding pieces of one very long line does not map 1:1 and is skipped.
 */
export function indexedLines(indexDb: Database.Database, path: string): string[] {
  const rows = indexDb.prepare<[string], ChunkLines>('SELECT start_line, end_line, chunk_text(text) AS text FROM chunks WHERE path = ? ORDER BY start_line').all(path);
  const lines = linesOf(rows, 1, Number.MAX_SAFE_INTEGER);
  return Array.from(lines, (l) => l ?? '');
}

/**
 * Lines `from`–`to` of a document's indexed text (element 0 is line `from`; a line past the end
 * is absent), read from the chunks that overlap them only: a transcript can be gigabytes, and
 * a search result or an excerpt needs a few of its lines.
 */
export function indexedLineWindow(indexDb: Database.Database, path: string, from: number, to: number): string[] {
  const rows = indexDb
    .prepare<[string, number, number, number], ChunkLines>(
      'SELECT start_line, end_line, chunk_text(text) AS text FROM chunks WHERE path = ? AND start_line BETWEEN ? AND ? AND end_line >= ? ORDER BY start_line',
    )
    .all(path, from - MAX_CHUNK_LINES, to, from);
  const lines = linesOf(rows, from, to);
  let last = lines.length;
  while (last > 0 && lines[last - 1] === undefined) last--;
  return Array.from(lines.slice(0, last), (l) => l ?? '');
}

/** Lines `from`–`to` (element 0 is `from`) filled from chunk rows in start-line order; the first chunk to cover a line gives it. */
function linesOf(rows: readonly ChunkLines[], from: number, to: number): Array<string | undefined> {
  const lines: Array<string | undefined> = [];
  for (const row of rows) {
    const parts = row.text.split('\n');
    if (parts.length !== row.end_line - row.start_line + 1) continue;
    for (let line = Math.max(row.start_line, from); line <= Math.min(row.end_line, to); line++) lines[line - from] ??= parts[line - row.start_line];
  }
  return lines;
}
