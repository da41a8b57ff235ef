import type { Migration } from './types.js';
import { processLogger } from '../../platform/log/processLog.js';

const log = processLogger('index/migrations');

/**
 * Provenance columns, transcripts as a third source (`sessions`), Reverie's per-line write
 * provenance, and tombstones for forgotten sources. SQLite cannot change CHECK constraints in
 * place, and everything here is derived from the Markdown and the transcripts, so the
 * file/chunk tables (and every generation's vectors, which point at chunk ids) are rebuilt
 * empty: the next sync re-indexes, and unchanged text is re-embedded from the cache.
 */
export const migration0003: Migration = {
  version: 3,
  name: 'provenance-and-sessions',
  up(db) {
    const generationTables = db
      .prepare("SELECT name, type FROM sqlite_master WHERE name GLOB 'vectors_*' OR name GLOB 'vec_*' OR name GLOB 'chunks_delete_*'")
      .all() as Array<{ name: string; type: string }>;
    for (const { name, type } of generationTables) {
      if (type === 'trigger') db.exec(`DROP TRIGGER IF EXISTS ${name}`);
    }
    for (const { name, type } of generationTables) {
      // vec0 shadow tables go with their virtual table; plain float tables are dropped directly.
      if (type === 'table' && name.startsWith('vectors_')) db.exec(`DROP TABLE IF EXISTS ${name}`);
    }
    for (const { name, type } of generationTables) {
      if (type === 'table' && name.startsWith('vec_') && !/_(chunks|rowids|info|vector_chunks\d+|auxiliary|metadata\w*)$/.test(name)) {
        try {
          db.exec(`DROP TABLE IF EXISTS ${name}`);
        } catch (error) {
          // Without sqlite-vec loaded the index is moved aside before migrating (see database.ts).
          log.debug('An old vector table could not be dropped', { table: name, error });
        }
      }
    }
    db.exec(`
      DELETE FROM vector_generations;
      DROP TRIGGER IF EXISTS chunks_after_insert;
      DROP TRIGGER IF EXISTS chunks_after_delete;
      DROP TABLE IF EXISTS chunks_vocab;
      DROP TABLE IF EXISTS chunks_fts;
      DROP TABLE IF EXISTS chunks;
      DROP TABLE IF EXISTS files;
      DELETE FROM meta WHERE key IN ('chunker', 'last_sync_at');

      CREATE TABLE files (
        path         TEXT PRIMARY KEY,
        abs_path     TEXT NOT NULL,
        source       TEXT NOT NULL CHECK (source IN ('memory', 'dreams', 'sessions')),
        sha256       TEXT,
        mtime_ms     REAL NOT NULL,
        size         INTEGER NOT NULL,
        status       TEXT NOT NULL CHECK (status IN ('indexed', 'skipped', 'failed')),
        reason       TEXT,
        indexed_at   INTEGER NOT NULL
      ) STRICT;

      CREATE TABLE chunks (
        id           INTEGER PRIMARY KEY,
        path         TEXT NOT NULL REFERENCES files(path) ON DELETE CASCADE,
        source       TEXT NOT NULL CHECK (source IN ('memory', 'dreams', 'sessions')),
        start_line   INTEGER NOT NULL CHECK (start_line >= 1),
        end_line     INTEGER NOT NULL CHECK (end_line >= start_line),
        text         TEXT NOT NULL,
        hash         TEXT NOT NULL,
        -- Provenance, written by code: the least trusted class of the chunk's lines.
        origin       TEXT NOT NULL DEFAULT 'owner' CHECK (origin IN ('owner', 'agent', 'untrusted', 'system')),
        session_kind TEXT CHECK (session_kind IS NULL OR session_kind IN ('interactive', 'cron', 'heartbeat', 'subagent', 'unknown')),
        observed_at  TEXT
      ) STRICT;
      CREATE INDEX chunks_by_path ON chunks(path, start_line);

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

      -- One row per ingested transcript (files.path = 'sessions/<tool>/<session id>').
      CREATE TABLE transcripts (
        path          TEXT PRIMARY KEY REFERENCES files(path) ON DELETE CASCADE,
        tool          TEXT NOT NULL CHECK (tool IN ('codex', 'claude-code', 'openclaw')),
        session_id    TEXT NOT NULL,
        session_kind  TEXT NOT NULL CHECK (session_kind IN ('interactive', 'cron', 'heartbeat', 'subagent', 'unknown')),
        original_path TEXT NOT NULL,
        cwd           TEXT,
        started_at    TEXT,
        resume_state  TEXT NOT NULL,
        stats         TEXT NOT NULL,
        lines         INTEGER NOT NULL DEFAULT 0
      ) STRICT;
      CREATE INDEX transcripts_by_session ON transcripts(session_id);

      -- Line map: each line of a transcript's indexed text back to its JSONL source line.
      CREATE TABLE transcript_lines (
        path        TEXT NOT NULL REFERENCES transcripts(path) ON DELETE CASCADE,
        line        INTEGER NOT NULL,
        source_line INTEGER NOT NULL,
        role        TEXT NOT NULL CHECK (role IN ('user', 'assistant')),
        origin      TEXT NOT NULL CHECK (origin IN ('owner', 'agent', 'untrusted', 'system')),
        timestamp   TEXT,
        PRIMARY KEY (path, line)
      ) STRICT, WITHOUT ROWID;

      -- Reverie's own writes into workspace files, per line (normalised line hash).
      CREATE TABLE line_provenance (
        path       TEXT NOT NULL,
        line_hash  TEXT NOT NULL,
        origin     TEXT NOT NULL CHECK (origin IN ('owner', 'agent', 'untrusted', 'system')),
        via        TEXT NOT NULL CHECK (via IN ('agent', 'import', 'dreaming')),
        actor      TEXT,
        detail     TEXT,
        written_at TEXT NOT NULL,
        PRIMARY KEY (path, line_hash)
      ) STRICT, WITHOUT ROWID;

      -- Forgotten sources stay forgotten: ingestion and sync skip them.
      CREATE TABLE tombstones (
        kind       TEXT NOT NULL CHECK (kind IN ('session', 'path')),
        key        TEXT NOT NULL,
        created_at TEXT NOT NULL,
        PRIMARY KEY (kind, key)
      ) STRICT, WITHOUT ROWID;
    `);
  },
};
