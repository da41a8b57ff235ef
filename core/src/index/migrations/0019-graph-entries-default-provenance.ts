import type { Migration } from './types.js';

/**
 * Graph entries store nothing for the usual provenance (issues 19 and 24): `origin_class` is
 * NULL for 'owner' and `source_tool` NULL for 'workspace' (at 2,000 notes every one of the
 * 80,000 entries, 14 bytes each, 1.1 MB), and `origin` and `tool` are virtual columns giving
 * the names back, so every query reads them as before. Only the writer names the stored
 * columns (graph/graphWriter.ts).
 *
 * The table is rebuilt in place, ids kept, so the graph is not extracted again: SQLite's
 * rebuild with foreign keys off (`graph_mentions` and `graph_claim_evidence` reference it), a
 * new table filled from the old, which then makes way for it.
 */
export const migration0019: Migration = {
  version: 19,
  name: 'graph-entries-default-provenance',
  withoutForeignKeys: true,
  up(db) {
    db.exec(`
      DROP TRIGGER IF EXISTS graph_entries_extend_path;
      CREATE TABLE graph_entries_0019 (
        id           INTEGER PRIMARY KEY,
        path_id      INTEGER NOT NULL,
        start_line   INTEGER NOT NULL CHECK (start_line >= 1),
        end_line     INTEGER NOT NULL CHECK (end_line >= start_line),
        -- No foreign key: chunks are rebuilt on their own schedule; a stale id only loses a link.
        chunk_id     INTEGER,
        dream_run    TEXT,
        -- The least trusted class of the entry's lines; NULL for 'owner'.
        origin_class TEXT CHECK (origin_class IN ('agent', 'untrusted', 'system')),
        -- The source tool; NULL for the workspace.
        source_tool  TEXT CHECK (source_tool <> 'workspace'),
        observed     TEXT,
        origin       TEXT GENERATED ALWAYS AS (coalesce(origin_class, 'owner')) VIRTUAL,
        tool         TEXT GENERATED ALWAYS AS (coalesce(source_tool, 'workspace')) VIRTUAL
      ) STRICT;
      INSERT INTO graph_entries_0019 (id, path_id, start_line, end_line, chunk_id, dream_run, origin_class, source_tool, observed)
        SELECT id, path_id, start_line, end_line, chunk_id, dream_run, nullif(origin, 'owner'), nullif(tool, 'workspace'), observed
        FROM graph_entries;
      DROP TABLE graph_entries;
      ALTER TABLE graph_entries_0019 RENAME TO graph_entries;
      CREATE TRIGGER graph_entries_extend_path AFTER INSERT ON graph_entries BEGIN
        UPDATE graph_paths SET first_entry = min(coalesce(first_entry, new.id), new.id), last_entry = max(coalesce(last_entry, new.id), new.id)
          WHERE id = new.path_id;
      END;
    `);
    if (db.prepare('SELECT 1 FROM graph_entries LIMIT 1').get()) {
      db.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES ('compact_after_upgrade', 'pending')").run();
    }
  },
};
