import type Database from 'better-sqlite3';
import type { Migration } from './types.js';

/** The CHECK constraints on tool names that migrations 0003 (transcripts) and 0005 (graph_entries) wrote. */
const TOOL_CHECK = /\s+CHECK \(tool IN \([^)]*\)\)/;

/**
 * Tool names come from the agent-tool registry (core/src/contract/tools.ts), not from the
 * schema: a tool added there must not need a migration. SQLite cannot drop a CHECK with ALTER
 * TABLE; rebuilding the tables would cascade through their children, so the stored definition
 * is edited in place, the procedure SQLite documents for removing CHECK constraints
 * (https://www.sqlite.org/lang_altertable.html, "otherwise", step 1).
 */
export const migration0008: Migration = {
  version: 8,
  name: 'tool-names-unchecked',
  up(db) {
    for (const table of ['transcripts', 'graph_entries']) dropToolCheck(db, table);
  },
};

function dropToolCheck(db: Database.Database, table: string): void {
  const row = db.prepare("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?").get(table) as { sql: string } | undefined;
  if (!row || !TOOL_CHECK.test(row.sql)) return;
  const version = db.pragma('schema_version', { simple: true }) as number;
  // better-sqlite3 opens connections in defensive mode, which forbids writing the schema table.
  db.unsafeMode(true);
  try {
    db.pragma('writable_schema = ON');
    db.prepare("UPDATE sqlite_master SET sql = ? WHERE type = 'table' AND name = ?").run(row.sql.replace(TOOL_CHECK, ''), table);
    // A new schema version makes every connection re-read the definitions.
    db.pragma(`schema_version = ${version + 1}`);
  } finally {
    db.pragma('writable_schema = OFF');
    db.unsafeMode(false);
  }
}
