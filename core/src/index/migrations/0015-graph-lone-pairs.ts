import type { Migration } from './types.js';

/**
 * Lone pairs unstored (issues 19 and 24: the graph was half the index at 2,000 notes, and 74 %
 * of its mentioned_with pairs were named together in one entry only). Such a pair keeps no
 * claim or tally now (graph/lonePairs.ts reads it from the mentions). Nothing is deleted here:
 * the pairs are marked for a recount, which the next graph update runs in background slices
 * (search and graph queries answer throughout: while the mark is set they derive pair counts
 * from the mentions), storing only the pairs named together twice; the settle after it
 * collects the claims left without tallies.
 *
 * The pages this frees, and those freed by earlier upgrades (0012 rewrote the chunks and
 * dropped the entry kinds' rows; 0013 the old graph), go back to the disk once, after that
 * update: `meta` 'compact_after_upgrade' asks for it (index/compactAfterUpgrade.ts).
 */
export const migration0015: Migration = {
  version: 15,
  name: 'graph-lone-pairs',
  up(db) {
    if (db.prepare('SELECT 1 FROM graph_cooccurrence LIMIT 1').get()) {
      db.prepare("INSERT OR REPLACE INTO graph_state (key, value) VALUES ('cooccurrence', 'rebuild')").run();
    }
    // A new, empty index has nothing to give back.
    if (db.prepare('SELECT 1 FROM files LIMIT 1').get()) {
      db.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES ('compact_after_upgrade', 'pending')").run();
    }
  },
};
