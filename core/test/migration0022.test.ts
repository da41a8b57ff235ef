import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openIndexDatabase } from '../src/index/database.js';
import { FTS_AUTOMERGE } from '../src/index/migrations/0022-fts-automerge.js';
import { MIGRATIONS } from '../src/index/migrations/index.js';
import { openSqlite } from '../src/platform/sqliteDriver.js';

let base: string;
afterEach(() => fs.rmSync(base, { recursive: true, force: true }));

const automerge = (file: string): unknown => {
  const db = openSqlite(file, { readonly: true });
  try {
    return db.prepare("SELECT v FROM chunks_fts_config WHERE k = 'automerge'").pluck().get();
  } finally {
    db.close();
  }
};

describe('migration 0022 (FTS5 automerge)', () => {
  it('sets the keyword index to merge a level at 8 segments, on a new index and on one migrated from version 21', () => {
    base = fs.mkdtempSync(path.join(os.tmpdir(), 'reverie-0022-'));
    const file = path.join(base, 'index.sqlite');
    openIndexDatabase(file, { reclaim: false }).db.close();
    expect(automerge(file)).toBe(FTS_AUTOMERGE);

    // As version 21 left it: FTS5's default of 4 (its config table takes no plain writes), and an FTS row that must still answer after the upgrade.
    const old = openSqlite(file);
    old.exec("INSERT INTO chunks_fts (chunks_fts, rank) VALUES ('automerge', 4); INSERT INTO chunks_fts (rowid, text) VALUES (7, 'the heron survey of the pond')");
    old.pragma('user_version = 21');
    old.close();
    expect(automerge(file)).toBe(4);

    const { db } = openIndexDatabase(file, { reclaim: false });
    try {
      expect(db.pragma('user_version', { simple: true })).toBe(MIGRATIONS.at(-1)!.version);
      expect(db.prepare("SELECT rowid FROM chunks_fts WHERE chunks_fts MATCH 'heron'").pluck().all()).toEqual([7]);
    } finally {
      db.close();
    }
    expect(automerge(file)).toBe(FTS_AUTOMERGE);
  });
});
