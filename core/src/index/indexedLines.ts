import type Database from 'better-sqlite3';

/**
 * The indexed text of a document rebuilt line by line from its chunks (transcripts exist only
 * as indexed text). A chunk holding pieces of one very long line does not map 1:1 and is skipped.
 */
export function indexedLines(indexDb: Database.Database, path: string): string[] {
  const lines: string[] = [];
  const rows = indexDb.prepare('SELECT start_line, end_line, text FROM chunks WHERE path = ? ORDER BY start_line').all(path) as Array<{
    start_line: number;
    end_line: number;
    text: string;
  }>;
  for (const row of rows) {
    const parts = row.text.split('\n');
    if (parts.length !== row.end_line - row.start_line + 1) continue;
    parts.forEach((line, i) => {
      lines[row.start_line - 1 + i] ??= line;
    });
  }
  return Array.from(lines, (l) => l ?? '');
}
