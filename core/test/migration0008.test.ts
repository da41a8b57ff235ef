import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../src/index/migrations/index.js';
import { openSqlite } from '../src/platform/sqliteDriver.js';
import { migrate } from '../src/platform/sqliteSchema.js';

let dir: string;
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('migration 0008: tool names are the registry’s, not the schema’s', () => {
  it('drops the CHECK on tool names of an index made by 0001–0007, keeping every row and the links between them', () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'reverie-migration-0008-'));
    const file = path.join(dir, 'index.sqlite');
    const db = openSqlite(file);
    db.pragma('foreign_keys = ON');
    migrate(db, MIGRATIONS.filter((m) => m.version <= 7));
    expect(db.pragma('user_version', { simple: true })).toBe(7);
    db.exec(`
      INSERT INTO files (path, abs_path, source, sha256, mtime_ms, size, status, indexed_at) VALUES ('sessions/codex/a.jsonl', '/h/a.jsonl', 'sessions', 'x', 0, 1, 'indexed', 0);
      INSERT INTO transcripts (path, tool, session_id, session_kind, original_path, resume_state, stats) VALUES ('sessions/codex/a.jsonl', 'codex', 's1', 'interactive', '/h/a.jsonl', '{}', '{}');
      INSERT INTO graph_entities (id, type, label, key) VALUES (1, 'person', 'Dana', 'dana');
      INSERT INTO graph_entries (id, path, start_line, end_line, origin, tool) VALUES (1, 'memory/imports/hermes/x.md', 1, 1, 'agent', 'hermes');
      INSERT INTO graph_mentions (entity_id, entry_id, cooccurs) VALUES (1, 1, 1);
    `);
    // Before: a tool the schema does not list is refused.
    expect(() => db.prepare("INSERT INTO graph_entries (path, start_line, end_line, origin, tool) VALUES ('p', 1, 1, 'agent', 'quill')").run()).toThrow(/CHECK constraint/);

    migrate(db, MIGRATIONS.filter((m) => m.version <= 8));
    expect(db.pragma('user_version', { simple: true })).toBe(8);
    for (const table of ['transcripts', 'graph_entries']) {
      expect(db.prepare('SELECT sql FROM sqlite_master WHERE name = ?').pluck().get(table)).not.toMatch(/CHECK \(tool IN/);
    }
    // Other CHECKs stay.
    expect(db.prepare("SELECT sql FROM sqlite_master WHERE name = 'graph_entries'").pluck().get()).toMatch(/CHECK \(origin IN/);
    db.prepare("INSERT INTO graph_entries (path, start_line, end_line, origin, tool) VALUES ('p', 1, 1, 'agent', 'quill')").run();
    db.prepare("INSERT INTO files (path, abs_path, source, sha256, mtime_ms, size, status, indexed_at) VALUES ('sessions/quill/b.jsonl', '/q/b.jsonl', 'sessions', 'y', 0, 1, 'indexed', 0)").run();
    db.prepare("INSERT INTO transcripts (path, tool, session_id, session_kind, original_path, resume_state, stats) VALUES ('sessions/quill/b.jsonl', 'quill', 's2', 'interactive', '/q/b.jsonl', '{}', '{}')").run();
    expect(db.prepare('SELECT count(*) FROM transcripts').pluck().get()).toBe(2);
    expect(db.prepare('SELECT count(*) FROM graph_mentions').pluck().get()).toBe(1);
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    expect(db.pragma('foreign_key_check')).toEqual([]);
    db.close();

    // Another connection reads the new definitions, and migrating again changes nothing.
    const reopened = openSqlite(file);
    reopened.prepare("INSERT INTO graph_entries (path, start_line, end_line, origin, tool) VALUES ('p2', 1, 1, 'agent', 'another-tool')").run();
    migrate(reopened, MIGRATIONS);
    expect(reopened.pragma('integrity_check', { simple: true })).toBe('ok');
    reopened.close();
  });
});
