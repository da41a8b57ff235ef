import type Database from 'better-sqlite3';
import { unpackChunkText } from '../../src/index/chunkText.js';

/**
 * Puts an index's chunks back in the layout before migration 0021 (version 20): text stored as
 * TEXT, FTS5 reading it from `chunks` (external content) through insert and delete triggers.
 * The other triggers and indexes on `chunks` are kept; ids are unchanged. For tests that build
 * an older index from a current one.
 */
export function toPlainChunkText(db: Database.Database): void {
  const kept = db
    .prepare("SELECT sql FROM sqlite_master WHERE tbl_name = 'chunks' AND type IN ('index', 'trigger') AND sql IS NOT NULL AND name <> 'chunks_after_delete'")
    .pluck()
    .all() as string[];
  db.pragma('foreign_keys = OFF');
  db.transaction(() => {
    db.exec(`
      CREATE TABLE chunks_plain (
        id           INTEGER PRIMARY KEY,
        path         TEXT NOT NULL REFERENCES files(path) ON DELETE CASCADE,
        source       TEXT NOT NULL CHECK (source IN ('memory', 'dreams', 'sessions')),
        start_line   INTEGER NOT NULL CHECK (start_line >= 1),
        end_line     INTEGER NOT NULL CHECK (end_line >= start_line),
        text         TEXT NOT NULL,
        origin       TEXT NOT NULL DEFAULT 'owner' CHECK (origin IN ('owner', 'agent', 'untrusted', 'system')),
        session_kind TEXT CHECK (session_kind IS NULL OR session_kind IN ('interactive', 'cron', 'heartbeat', 'subagent', 'unknown')),
        observed_at  TEXT
      ) STRICT;
    `);
    const insert = db.prepare('INSERT INTO chunks_plain (id, path, source, start_line, end_line, text, origin, session_kind, observed_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)');
    type Row = { id: number; path: string; source: string; start_line: number; end_line: number; text: Buffer; origin: string; session_kind: string | null; observed_at: string | null };
    for (const r of db.prepare('SELECT * FROM chunks ORDER BY id').all() as Row[]) {
      insert.run(r.id, r.path, r.source, r.start_line, r.end_line, unpackChunkText(r.text), r.origin, r.session_kind, r.observed_at);
    }
    db.exec(`
      DROP TABLE chunks_vocab;
      DROP TABLE chunks_fts;
      DROP TABLE chunks;
      ALTER TABLE chunks_plain RENAME TO chunks;
      CREATE VIRTUAL TABLE chunks_fts USING fts5(
        text,
        content = 'chunks',
        content_rowid = 'id',
        tokenize = 'porter unicode61 remove_diacritics 2'
      );
      CREATE VIRTUAL TABLE chunks_vocab USING fts5vocab(chunks_fts, 'row');
      INSERT INTO chunks_fts (chunks_fts) VALUES ('rebuild');
      CREATE TRIGGER chunks_after_insert AFTER INSERT ON chunks BEGIN
        INSERT INTO chunks_fts(rowid, text) VALUES (new.id, new.text);
      END;
      CREATE TRIGGER chunks_after_delete AFTER DELETE ON chunks BEGIN
        INSERT INTO chunks_fts(chunks_fts, rowid, text) VALUES ('delete', old.id, old.text);
      END;
    `);
    for (const sql of kept) db.exec(sql);
  })();
  db.pragma('foreign_keys = ON');
}
