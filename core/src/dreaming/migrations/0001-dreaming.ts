import type { Migration } from '../../index/migrations/types.js';

/**
 * Dreaming's own store, apart from the derived index: recall signals (not derivable from the
 * Markdown), when each entry was first seen, staged candidates, and the runs with the
 * person's review decisions.
 */
export const dreamMigration0001: Migration = {
  version: 1,
  name: 'dreaming',
  up(db) {
    db.exec(`
      CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) STRICT;

      -- One row per recalled entry per search (entry = a bullet or line inside a returned result).
      CREATE TABLE recall_signals (
        id          INTEGER PRIMARY KEY,
        path        TEXT NOT NULL,
        start_line  INTEGER NOT NULL,
        end_line    INTEGER NOT NULL,
        entry_hash  TEXT NOT NULL,
        query_hash  TEXT NOT NULL,
        score       REAL NOT NULL,
        recalled_at INTEGER NOT NULL,
        day         TEXT NOT NULL,
        transport   TEXT NOT NULL
      ) STRICT;
      CREATE INDEX recall_by_entry ON recall_signals(path, entry_hash);
      CREATE INDEX recall_by_time ON recall_signals(recalled_at);

      -- Old signals folded per entry, so the table stays bounded without forgetting history.
      CREATE TABLE recall_aggregates (
        path         TEXT NOT NULL,
        entry_hash   TEXT NOT NULL,
        count        INTEGER NOT NULL,
        score_sum    REAL NOT NULL,
        query_hashes TEXT NOT NULL,
        days         TEXT NOT NULL,
        first_at     INTEGER NOT NULL,
        last_at      INTEGER NOT NULL,
        PRIMARY KEY (path, entry_hash)
      ) STRICT, WITHOUT ROWID;

      -- When an entry was first seen in a note: "written" for the lookback windows.
      CREATE TABLE entry_first_seen (
        path          TEXT NOT NULL,
        entry_hash    TEXT NOT NULL,
        first_seen_at INTEGER NOT NULL,
        PRIMARY KEY (path, entry_hash)
      ) STRICT, WITHOUT ROWID;
      CREATE INDEX first_seen_by_time ON entry_first_seen(first_seen_at);
      CREATE TABLE scanned_files (path TEXT PRIMARY KEY, mtime_ms REAL NOT NULL) STRICT;

      -- Candidates carried from sweep to sweep until promoted, rejected or expired.
      CREATE TABLE staged_candidates (
        path            TEXT NOT NULL,
        entry_hash      TEXT NOT NULL,
        status          TEXT NOT NULL CHECK (status IN ('staged', 'proposed', 'promoted', 'rejected', 'rolled-back')),
        run_id          TEXT,
        first_staged_at INTEGER NOT NULL,
        last_staged_at  INTEGER NOT NULL,
        PRIMARY KEY (path, entry_hash)
      ) STRICT, WITHOUT ROWID;

      CREATE TABLE dream_runs (
        id          TEXT PRIMARY KEY,
        status      TEXT NOT NULL,
        started_at  TEXT NOT NULL,
        finished_at TEXT,
        dry_run     INTEGER NOT NULL,
        -- The list view's fields, so listing runs never parses whole records (thousands of candidates).
        summary     TEXT NOT NULL,
        record      TEXT NOT NULL
      ) STRICT;
      CREATE INDEX dream_runs_by_start ON dream_runs(started_at);
    `);
  },
};
