import type Database from 'better-sqlite3';
import { INDEXED_MEMORY_FILE } from '../index/indexStore.js';

/**
 * How far the graph has caught up with the index: memory files whose current text it has
 * extracted, of all indexed memory files (what `updateGraph` would extract next is the rest).
 * Read from the tables, so it is right after a restart or a stopped pass as well.
 */
export function graphBacklog(db: Database.Database): { done: number; total: number } {
  const row = db
    .prepare(
      `SELECT count(*) AS total, count(g.path) AS done
       FROM files f LEFT JOIN graph_files g ON g.path = f.path AND g.sha256 = f.sha256
       WHERE ${INDEXED_MEMORY_FILE}`,
    )
    .get() as { total: number; done: number };
  return row;
}
