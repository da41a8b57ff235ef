import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { openDreamDatabase } from '../src/dreaming/dreamDatabase.js';
import { localDay } from '../src/platform/localDay.js';
import { compactRecallSignals, compactRecallSignalsInSlices, MAX_RAW_SIGNALS } from '../src/dreaming/recall/recallCompaction.js';
import { countingTurns } from './helpers/eventLoop.js';

const DAY_MS = 86_400_000;
const NOW = new Date(2026, 10, 29, 12, 0, 0).getTime();

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const c of cleanups.splice(0).reverse()) c();
});

function openStore(): Database.Database {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'reverie-recall-compact-'));
  const { db } = openDreamDatabase(path.join(dir, 'dream.sqlite'));
  cleanups.push(() => {
    db.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  return db;
}

interface Signal {
  path: string;
  hash: string;
  query: string;
  score: number;
  at: number;
}

function insert(db: Database.Database, rows: readonly Signal[]): void {
  const stmt = db.prepare(
    'INSERT INTO recall_signals (path, start_line, end_line, entry_hash, query_hash, score, recalled_at, day, transport) VALUES (?, 3, 3, ?, ?, ?, ?, ?, ?)',
  );
  db.transaction(() => {
    for (const r of rows) stmt.run(r.path, r.hash, r.query, r.score, r.at, localDay(r.at), 'agent');
  })();
}

/** Both tables; score sums rounded, as floating-point sums taken in another order differ in the last bits. */
function tables(db: Database.Database): { aggregates: unknown[]; raw: unknown[] } {
  return {
    aggregates: (db.prepare('SELECT * FROM recall_aggregates ORDER BY path, entry_hash').all() as Array<{ score_sum: number }>).map((a) => ({
      ...a,
      score_sum: Math.round(a.score_sum * 1e9) / 1e9,
    })),
    raw: db.prepare('SELECT * FROM recall_signals ORDER BY id').all(),
  };
}

/** Old rows (folded) of a few entries with more distinct queries and days than an aggregate keeps, then recent ones (kept). */
function history(count: number, offsetDays = 0): Signal[] {
  const old = Array.from({ length: count }, (_, i) => ({
    path: `memory/2026-0${1 + (i % 3)}-01.md`,
    hash: `entry${i % 7}`,
    query: `q${(i * 13) % 97}`,
    score: ((i % 10) + 1) / 10,
    at: NOW - (31 + offsetDays + (i % 127)) * DAY_MS + i,
  }));
  const recent = Array.from({ length: count / 10 }, (_, i) => ({ ...old[i]!, at: NOW - (i % 5) * DAY_MS + i }));
  return [...old, ...recent];
}

describe('compactRecallSignalsInSlices', () => {
  it('folds exactly what one compaction folds, onto existing aggregates, in many transactions', async () => {
    const [once, sliced] = [openStore(), openStore()];
    for (const db of [once, sliced]) {
      insert(db, history(900, 200));
      compactRecallSignals(db, NOW); // aggregates already there to fold onto
      insert(db, history(3_000));
    }
    compactRecallSignals(once, NOW);
    const { turns } = await countingTurns(compactRecallSignalsInSlices(sliced, NOW));
    const expected = tables(once);
    expect(expected.aggregates.length).toBe(21);
    expect(JSON.parse((expected.aggregates[0] as { query_hashes: string }).query_hashes)).toHaveLength(32); // capped
    expect(JSON.parse((expected.aggregates[0] as { days: string }).days)).toHaveLength(60); // capped
    expect(expected.raw.length).toBe(300);
    expect(tables(sliced)).toEqual(expected);
    expect(turns).toBeGreaterThanOrEqual(8); // 3,000 rows, a few hundred per transaction
  });

  it('stopped between transactions, leaves the rest for the next compaction, with the same end result', async () => {
    const [once, sliced] = [openStore(), openStore()];
    for (const db of [once, sliced]) insert(db, history(3_000));
    compactRecallSignals(once, NOW);
    let checks = 0;
    await compactRecallSignalsInSlices(sliced, NOW, { shouldStop: () => ++checks > 3 });
    const partial = tables(sliced);
    expect(partial.raw.length).toBeGreaterThan(tables(once).raw.length);
    expect(partial.raw.length).toBeLessThan(3_300);
    await compactRecallSignalsInSlices(sliced, NOW);
    expect(tables(sliced)).toEqual(tables(once));
  });

  it('folds every row up to the cutoff, whatever the count around a transaction boundary', async () => {
    for (const count of [1, 249, 250, 251, 500, 501]) {
      const [once, sliced] = [openStore(), openStore()];
      for (const db of [once, sliced]) insert(db, history(count).slice(0, count)); // old rows only
      compactRecallSignals(once, NOW);
      await compactRecallSignalsInSlices(sliced, NOW);
      expect(tables(once).raw).toEqual([]);
      expect(tables(sliced)).toEqual(tables(once));
    }
  });

  it(`over ${MAX_RAW_SIGNALS} raw rows folds the oldest overflow as one compaction does`, async () => {
    const [once, sliced] = [openStore(), openStore()];
    const rows = Array.from({ length: MAX_RAW_SIGNALS + 1_200 }, (_, i) => ({
      path: `memory/2026-11-${String(1 + (i % 20)).padStart(2, '0')}.md`,
      hash: `entry${(i * 7919) % 3_001}`,
      query: `q${i % 24}`,
      score: 0.5,
      at: NOW - 20 * DAY_MS + i * 1_000,
    }));
    for (const db of [once, sliced]) insert(db, rows);
    compactRecallSignals(once, NOW);
    await compactRecallSignalsInSlices(sliced, NOW);
    const expected = tables(once);
    expect(expected.raw.length).toBe(MAX_RAW_SIGNALS);
    expect(tables(sliced)).toEqual(expected);
  });
});
