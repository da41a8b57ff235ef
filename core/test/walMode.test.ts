import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { useWalMode } from '../src/platform/walMode.js';

let dir: string | undefined;
afterEach(() => {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

/** Another thread holds the new database's write lock for `ms` (as a second process creating it would). */
function holdLock(file: string, ms: number): Promise<Worker> {
  const worker = new Worker(
    `const { parentPort, workerData } = require('node:worker_threads');
     const Database = require(workerData.driver);
     const db = new Database(workerData.file);
     db.exec('CREATE TABLE IF NOT EXISTS t (x); BEGIN IMMEDIATE; INSERT INTO t VALUES (1);');
     parentPort.postMessage('locked');
     setTimeout(() => { db.exec('COMMIT'); db.close(); parentPort.postMessage('released'); }, workerData.ms);`,
    { eval: true, workerData: { file, ms, driver: require.resolve('better-sqlite3') } },
  );
  return new Promise((resolve) => worker.once('message', () => resolve(worker)));
}

describe('WAL mode on a database another connection is creating', () => {
  it('waits for the lock instead of failing with "database is locked"', async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'reverie-wal-'));
    const file = path.join(dir, 'side.sqlite');
    const worker = await holdLock(file, 300);
    const db = new Database(file, { timeout: 10_000 });
    try {
      expect(() => db.pragma('journal_mode = WAL')).toThrow(/database is locked/); // what SQLite does by itself
      const started = performance.now();
      useWalMode(db);
      expect(performance.now() - started).toBeGreaterThan(100);
      expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    } finally {
      db.close();
      await worker.terminate();
    }
  });
});
