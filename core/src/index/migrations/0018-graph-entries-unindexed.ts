import type { Migration } from './types.js';

/**
 * A smaller graph (issues 19 and 24): graph entries lose their two indexes (at 2,000 notes
 * 1.7 MB by date and 1.0 MB by path, 7 % of the index file).
 *
 * - By date: its only reader walked a much-mentioned pair's entries in date order for the
 *   pair's new earliest date after a file was forgotten; that date is now read from the less
 *   mentioned entity's entries (graph/cooccurrence.ts `settleStale`), which gives the same date.
 * - By path: a file's entries are found as the range of ids `graph_paths` now keeps for it
 *   (graph/pathEntries.ts), extended by a trigger as entries are written.
 *
 * Nothing is rebuilt: the ranges are read from the entries once, the graph, chunks and vectors
 * stay as they are, and the freed pages go back to the disk after the next sync (`meta`
 * 'compact_after_upgrade', index/compactAfterUpgrade.ts) when they are worth a rewrite.
 */
export const migration0018: Migration = {
  version: 18,
  name: 'graph-entries-unindexed',
  up(db) {
    const hadEntries = db.prepare('SELECT 1 FROM graph_entries LIMIT 1').get() !== undefined;
    const pathColumns = db.prepare("SELECT name FROM pragma_table_info('graph_paths')").pluck().all() as string[];
    if (!pathColumns.includes('first_entry')) db.exec('ALTER TABLE graph_paths ADD COLUMN first_entry INTEGER');
    if (!pathColumns.includes('last_entry')) db.exec('ALTER TABLE graph_paths ADD COLUMN last_entry INTEGER');
    db.exec(`
      UPDATE graph_paths SET first_entry = r.first, last_entry = r.last
        FROM (SELECT path_id, min(id) AS first, max(id) AS last FROM graph_entries GROUP BY path_id) AS r
        WHERE r.path_id = graph_paths.id;
      DROP TRIGGER IF EXISTS graph_entries_extend_path;
      CREATE TRIGGER graph_entries_extend_path AFTER INSERT ON graph_entries BEGIN
        UPDATE graph_paths SET first_entry = min(coalesce(first_entry, new.id), new.id), last_entry = max(coalesce(last_entry, new.id), new.id)
          WHERE id = new.path_id;
      END;
      DROP INDEX IF EXISTS graph_entries_by_observed;
      DROP INDEX IF EXISTS graph_entries_by_path;
    `);
    if (hadEntries) db.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES ('compact_after_upgrade', 'pending')").run();
  },
};
