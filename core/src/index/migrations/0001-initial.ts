import type { Migration } from './types.js';

export const migration0001: Migration = {
  version: 1,
  name: 'initial',
  up(db) {
    db.exec(`
      CREATE TABLE meta (
        key   TEXT PRIMARY KEY,
        value TEXT NOT NULL
      ) STRICT;

      CREATE TABLE files (
        path       TEXT PRIMARY KEY,
        abs_path   TEXT NOT NULL,
        source     TEXT NOT NULL CHECK (source IN ('memory', 'dreams')),
        sha256     TEXT,
        mtime_ms   REAL NOT NULL,
        size       INTEGER NOT NULL,
        status     TEXT NOT NULL CHECK (status IN ('indexed', 'skipped', 'failed')),
        reason     TEXT,
        indexed_at INTEGER NOT NULL
      ) STRICT;

      CREATE TABLE chunks (
        id         INTEGER PRIMARY KEY,
        path       TEXT NOT NULL REFERENCES files(path) ON DELETE CASCADE,
        source     TEXT NOT NULL CHECK (source IN ('memory', 'dreams')),
        start_line INTEGER NOT NULL CHECK (start_line >= 1),
        end_line   INTEGER NOT NULL CHECK (end_line >= start_line),
        text       TEXT NOT NULL,
        hash       TEXT NOT NULL
      ) STRICT;
      CREATE INDEX chunks_by_path ON chunks(path, start_line);

      -- External-content FTS5 table over chunk text; porter stemming so "moved" finds "move".
      CREATE VIRTUAL TABLE chunks_fts USING fts5(
        text,
        content = 'chunks',
        content_rowid = 'id',
        tokenize = 'porter unicode61 remove_diacritics 2'
      );
      CREATE VIRTUAL TABLE chunks_vocab USING fts5vocab(chunks_fts, 'row');

      CREATE TRIGGER chunks_after_insert AFTER INSERT ON chunks BEGIN
        INSERT INTO chunks_fts(rowid, text) VALUES (new.id, new.text);
      END;
      CREATE TRIGGER chunks_after_delete AFTER DELETE ON chunks BEGIN
        INSERT INTO chunks_fts(chunks_fts, rowid, text) VALUES ('delete', old.id, old.text);
      END;
    `);
  },
};
