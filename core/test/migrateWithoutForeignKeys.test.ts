import { describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { migrate, type Migration } from '../src/platform/sqliteSchema.js';

const parentAndChild: Migration = {
  version: 1,
  name: 'parent-and-child',
  up(db) {
    db.exec(`
      CREATE TABLE parent (id INTEGER PRIMARY KEY, name TEXT NOT NULL) STRICT;
      CREATE TABLE child (id INTEGER PRIMARY KEY, parent_id INTEGER NOT NULL REFERENCES parent(id) ON DELETE CASCADE) STRICT;
      INSERT INTO parent (id, name) VALUES (1, 'a'), (2, 'b');
      INSERT INTO child (parent_id) VALUES (1), (2), (2);
    `);
  },
};

/** SQLite's rebuild of a referenced table: a new one filled from the old takes its place. */
const rebuildParent = (keep: string): Migration => ({
  version: 2,
  name: 'rebuild-parent',
  withoutForeignKeys: true,
  up(db) {
    db.exec(`
      CREATE TABLE parent_new (id INTEGER PRIMARY KEY, name TEXT) STRICT;
      INSERT INTO parent_new SELECT id, nullif(name, 'a') FROM parent WHERE ${keep};
      DROP TABLE parent;
      ALTER TABLE parent_new RENAME TO parent;
    `);
  },
});

function openDb(): Database.Database {
  const db = new Database(':memory:');
  db.pragma('foreign_keys = ON');
  migrate(db, [parentAndChild]);
  return db;
}

describe('migrate: a migration without foreign keys', () => {
  it('rebuilds a referenced table without deleting its children, and turns the keys back on', () => {
    const db = openDb();
    migrate(db, [parentAndChild, rebuildParent('1')]);
    expect(db.pragma('user_version', { simple: true })).toBe(2);
    expect(db.prepare('SELECT count(*) FROM child').pluck().get()).toBe(3);
    expect(db.prepare('SELECT name FROM parent ORDER BY id').pluck().all()).toEqual([null, 'b']);
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    // The children still point at the parent by name: a cascade reaches them from the new table.
    db.prepare('DELETE FROM parent WHERE id = 2').run();
    expect(db.prepare('SELECT count(*) FROM child').pluck().get()).toBe(1);
  });

  it('rolls back a rebuild that leaves children pointing at nothing', () => {
    const db = openDb();
    expect(() => migrate(db, [parentAndChild, rebuildParent('id = 1')])).toThrow(/migration 2 \(rebuild-parent\) left rows whose foreign keys point at nothing/);
    expect(db.pragma('user_version', { simple: true })).toBe(1);
    expect(db.prepare('SELECT name FROM parent ORDER BY id').pluck().all()).toEqual(['a', 'b']);
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
  });
});
