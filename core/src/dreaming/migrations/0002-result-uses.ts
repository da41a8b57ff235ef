import type { Migration } from '../../index/migrations/types.js';

/**
 * Results that were used, not merely shown: an entry a search returned and that the same caller
 * then opened (the window) or read (an agent's memory_get) within minutes. One row per entry
 * and query: using it again adds nothing.
 */
export const dreamMigration0002: Migration = {
  version: 2,
  name: 'result-uses',
  up(db) {
    db.exec(`
      CREATE TABLE recall_uses (
        path       TEXT NOT NULL,
        entry_hash TEXT NOT NULL,
        query_hash TEXT NOT NULL,
        used_at    INTEGER NOT NULL,
        day        TEXT NOT NULL,
        transport  TEXT NOT NULL,
        PRIMARY KEY (path, entry_hash, query_hash)
      ) STRICT, WITHOUT ROWID;
      CREATE INDEX recall_uses_by_time ON recall_uses(used_at);
    `);
  },
};
