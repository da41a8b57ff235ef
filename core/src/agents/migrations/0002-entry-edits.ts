import type { Migration } from '../../index/migrations/types.js';

/**
 * Agents edit memory (issue 21): every change to an entry with its before and after text, the
 * person's review queue for corrections of their own lines, each agent's last look for
 * memory.recent, and what `reverie agents connect` wrote into a tool's configuration.
 */
export const agentMigration0002: Migration = {
  version: 2,
  name: 'entry-edits',
  up(db) {
    db.exec(`
      CREATE TABLE entry_history (
        id      INTEGER PRIMARY KEY,
        at      TEXT NOT NULL,
        agent   TEXT,
        action  TEXT NOT NULL CHECK (action IN ('updated', 'forgotten', 'proposed', 'accepted', 'rejected')),
        path    TEXT NOT NULL,
        line    INTEGER NOT NULL,
        before  TEXT NOT NULL,
        after   TEXT
      ) STRICT;
      CREATE INDEX entry_history_by_time ON entry_history(at);

      CREATE TABLE edit_proposals (
        id          TEXT PRIMARY KEY,
        agent       TEXT NOT NULL,
        path        TEXT NOT NULL,
        line        INTEGER NOT NULL,
        before      TEXT NOT NULL,
        after       TEXT NOT NULL,
        created_at  TEXT NOT NULL,
        status      TEXT NOT NULL CHECK (status IN ('open', 'accepted', 'rejected', 'stale')),
        decided_at  TEXT,
        note        TEXT
      ) STRICT;

      CREATE TABLE agent_looks (
        agent_id   TEXT PRIMARY KEY,
        recent_at  TEXT NOT NULL
      ) STRICT;

      CREATE TABLE tool_connections (
        tool        TEXT NOT NULL,
        file        TEXT NOT NULL,
        agent       TEXT NOT NULL,
        backup      TEXT,
        after_sha   TEXT NOT NULL,
        existed     INTEGER NOT NULL,
        at          TEXT NOT NULL,
        PRIMARY KEY (tool, file)
      ) STRICT;
    `);
  },
};
