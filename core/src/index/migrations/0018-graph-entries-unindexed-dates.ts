import type { Migration } from './types.js';

/**
 * A smaller graph (issues 19 and 24): the index of graph entries by date goes (at 2,000 notes
 * 1.7 MB, 4 % of the index file). Its only reader walked a much-mentioned pair's entries in
 * date order to find the pair's new earliest date after a file was forgotten; that date is now
 * read from the less mentioned entity's entries (graph/cooccurrence.ts `settleStale`), which
 * gives the same date. Nothing is rebuilt: the graph, chunks and vectors stay as they are, and
 * the freed pages go back to the disk after the next sync (`meta` 'compact_after_upgrade',
 * index/compactAfterUpgrade.ts) when they are worth a rewrite.
 */
export const migration0018: Migration = {
  version: 18,
  name: 'graph-entries-unindexed-dates',
  up(db) {
    const hadIndex = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'index' AND name = 'graph_entries_by_observed'").get() !== undefined;
    db.exec('DROP INDEX IF EXISTS graph_entries_by_observed');
    if (hadIndex && db.prepare('SELECT 1 FROM graph_entries LIMIT 1').get()) {
      db.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES ('compact_after_upgrade', 'pending')").run();
    }
  },
};
