import type { Migration } from '../../index/migrations/types.js';

/**
 * The contradictions queue: two entries about the same thing that disagree and cannot be
 * ordered by their notes' dates wait here for the person. One row per pair (by both texts);
 * the decision is kept so the next sweep follows it.
 */
export const dreamMigration0003: Migration = {
  version: 3,
  name: 'conflicts',
  up(db) {
    db.exec(`
      CREATE TABLE conflicts (
        id          TEXT PRIMARY KEY,
        a_json      TEXT NOT NULL,
        b_json      TEXT NOT NULL,
        reason      TEXT NOT NULL,
        run_id      TEXT NOT NULL,
        detected_at TEXT NOT NULL,
        status      TEXT NOT NULL DEFAULT 'open',
        resolved_at TEXT
      ) STRICT;
      CREATE INDEX conflicts_by_status ON conflicts(status, detected_at);
    `);
  },
};
