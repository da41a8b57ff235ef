import type { Migration } from '../../index/migrations/types.js';

/** Agents and what they did: identities with hashed tokens, the access log, standing intents, stored notes. */
export const agentMigration0001: Migration = {
  version: 1,
  name: 'agents',
  up(db) {
    db.exec(`
      CREATE TABLE agents (
        id           TEXT PRIMARY KEY,
        name         TEXT NOT NULL UNIQUE,
        scopes       TEXT NOT NULL,
        token_hash   TEXT NOT NULL UNIQUE,
        created_at   TEXT NOT NULL,
        last_used_at TEXT,
        revoked_at   TEXT,
        calls        INTEGER NOT NULL DEFAULT 0
      ) STRICT;

      CREATE TABLE access_log (
        id          INTEGER PRIMARY KEY,
        at          TEXT NOT NULL,
        agent       TEXT NOT NULL,
        method      TEXT NOT NULL,
        detail      TEXT,
        results     INTEGER,
        ok          INTEGER NOT NULL,
        error       TEXT,
        duration_ms REAL NOT NULL,
        transport   TEXT NOT NULL
      ) STRICT;
      CREATE INDEX access_log_by_agent ON access_log(agent, id);

      CREATE TABLE intents (
        id             TEXT PRIMARY KEY,
        description    TEXT NOT NULL,
        keywords       TEXT NOT NULL,
        project        TEXT,
        created_by     TEXT,
        created_at     TEXT NOT NULL,
        expires_at     TEXT NOT NULL,
        fire_budget    INTEGER NOT NULL,
        fired          INTEGER NOT NULL DEFAULT 0,
        cooldown_hours REAL NOT NULL,
        last_fired_at  TEXT,
        cancelled_at   TEXT
      ) STRICT;

      -- Notes agents stored, by normalised content hash: the same note within the window is stored once.
      CREATE TABLE stored_notes (
        content_hash TEXT NOT NULL,
        path         TEXT NOT NULL,
        line         INTEGER NOT NULL,
        agent        TEXT,
        stored_at    INTEGER NOT NULL,
        PRIMARY KEY (content_hash, stored_at)
      ) STRICT, WITHOUT ROWID;
      CREATE INDEX stored_notes_by_time ON stored_notes(stored_at);
    `);
  },
};
