import type { Migration } from './types.js';

/**
 * Each Markdown entry's kind (fact, preference, task, question, time-bounded…), decided when its
 * file is indexed and kept per entry, so search results, the provenance inspector and dreaming
 * read it instead of working it out again. No CHECK on the kind: the kinds are the contract's,
 * and a new one must not need a migration (as with tool names, 0008). Rows are keyed by the
 * entry's first line and carry a hash of its text, so a reader can tell a stale row from a
 * current one. Existing files get their rows at the next sync (the index notices it has none).
 */
export const migration0009: Migration = {
  version: 9,
  name: 'entry-kinds',
  up(db) {
    db.exec(`
      CREATE TABLE IF NOT EXISTS entry_kinds (
        path        TEXT NOT NULL REFERENCES files(path) ON DELETE CASCADE,
        start_line  INTEGER NOT NULL CHECK (start_line >= 1),
        end_line    INTEGER NOT NULL CHECK (end_line >= start_line),
        -- sha256 of the entry's lines as written (16 hex characters).
        text_hash   TEXT NOT NULL,
        kind        TEXT NOT NULL,
        -- For a time-bounded entry: the last day it holds (YYYY-MM-DD), when it can be read.
        valid_until TEXT,
        -- The wording that decided it ("a checkbox", "a kind annotation").
        cue         TEXT NOT NULL,
        PRIMARY KEY (path, start_line)
      ) STRICT, WITHOUT ROWID;
      DELETE FROM meta WHERE key = 'entry_kinds';
    `);
  },
};
