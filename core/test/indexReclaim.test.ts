import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { openIndexDatabase } from '../src/index/database.js';
import { reclaimFreePages } from '../src/index/reclaimSpace.js';

let dir: string | undefined;
afterEach(() => {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

/** An index at the current schema whose old graph evidence (48 MB of it) was dropped by an upgrade, as migration 0005 left existing indexes. */
function upgradedIndex(): string {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'reverie-reclaim-'));
  const file = path.join(dir, 'index.sqlite');
  openIndexDatabase(file, { reclaim: false }).db.close();
  const raw = new Database(file);
  raw.exec(`CREATE TABLE graph_evidence (id INTEGER PRIMARY KEY, path TEXT NOT NULL, payload BLOB NOT NULL);
    WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 12000)
    INSERT INTO graph_evidence (path, payload) SELECT 'memory/2026-01-' || (i % 28) || '.md', randomblob(4000) FROM n;`);
  raw.pragma('wal_checkpoint(TRUNCATE)');
  raw.exec('DROP TABLE graph_evidence');
  raw.pragma('wal_checkpoint(TRUNCATE)');
  raw.close();
  return file;
}

describe('index space after an upgrade', () => {
  it('gives the pages of a dropped table back to the disk once, when the index is opened, and says so', () => {
    const file = upgradedIndex();
    const before = fs.statSync(file).size;
    expect(before).toBeGreaterThan(45 * 1024 * 1024);

    const opened = openIndexDatabase(file);
    expect(opened.notice).toMatch(/was compacted from \d+ MB to \d+ MB/);
    expect(opened.db.pragma('freelist_count', { simple: true })).toBe(0);
    expect(opened.db.prepare("SELECT count(*) FROM sqlite_master WHERE name = 'chunks'").pluck().get()).toBe(1);
    opened.db.close();
    expect(fs.statSync(file).size).toBeLessThan(before / 4);

    // Nothing left to give back: the next open does not compact again.
    const again = openIndexDatabase(file);
    expect(again.notice).toBeNull();
    again.db.close();
  });

  it('skips compacting when the disk is short of space, says what it needs, and tries again at the next start', () => {
    const file = upgradedIndex();
    const before = fs.statSync(file).size;
    const db = new Database(file);
    const outcome = reclaimFreePages(db, file, undefined, () => 10 * 1024 * 1024);
    db.close();
    expect(outcome).toMatchObject({ kind: 'skipped', reason: expect.stringMatching(/needs about \d+ MB free on the disk and there is 10 MB/) });
    expect(fs.statSync(file).size).toBe(before);
    const next = openIndexDatabase(file);
    expect(next.notice).toMatch(/was compacted/);
    next.db.close();
  });

  it('leaves an index with little free space alone', () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'reverie-reclaim-'));
    const file = path.join(dir, 'index.sqlite');
    const opened = openIndexDatabase(file);
    expect(opened.notice).toBeNull();
    expect(reclaimFreePages(opened.db, file)).toEqual({ kind: 'not-needed' });
    opened.db.close();
  });
});
