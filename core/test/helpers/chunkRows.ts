import type Database from 'better-sqlite3';
import { packChunkText } from '../../src/index/chunkText.js';

/**
 * Writes chunk rows straight into an index as its writers do (index/indexStore.ts): the text
 * stored deflated, its keyword row given to the contentless FTS5 table. Returns the chunk's id.
 */
export function insertChunkRow(
  db: Database.Database,
  row: { id?: number; path: string; source: string; startLine: number; endLine: number; text: string },
): number {
  const { lastInsertRowid } = db
    .prepare('INSERT INTO chunks (id, path, source, start_line, end_line, text, wiki_links) VALUES (?, ?, ?, ?, ?, ?, ?)')
    .run(row.id ?? null, row.path, row.source, row.startLine, row.endLine, packChunkText(row.text), row.text.includes('[[') ? 1 : 0);
  const id = Number(lastInsertRowid);
  db.prepare('INSERT INTO chunks_fts (rowid, text) VALUES (?, ?)').run(id, row.text);
  return id;
}
