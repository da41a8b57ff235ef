import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { sha256Hex } from '../src/platform/hash.js';
import { yieldToEventLoop } from '../src/platform/timeSlices.js';
import { openDreamDatabase } from '../src/dreaming/dreamDatabase.js';
import { localDay } from '../src/platform/localDay.js';
import { entryHash, queryHash } from '../src/dreaming/recall/entryKeys.js';
import { RecallRecorder, type RecalledEntry, type RecalledResult, type RecallTransport } from '../src/dreaming/recall/recallRecorder.js';
import { openIndexDatabase } from '../src/index/database.js';
import { IndexStore } from '../src/index/indexStore.js';
import { extractQueryTerms } from '../src/search/queryTerms.js';
import { parseMarkdownEntries } from '../src/workspace/markdownEntries.js';
import { countingTurns } from './helpers/eventLoop.js';

const AT = new Date(2026, 10, 29, 9, 30, 0).getTime();
const WORDS = (
  'ledgerd staging postgres replica invoice billing deploy hetzner canary rollback dentist lisbon garden espresso marathon ' +
  'podcast budget travel release hotfix queue worker cache token timezone cutoff vacuum metrics alert dashboard novel bought buy ' +
  'children child painting painted café naïve'
).split(' ');
const FILLER = ['the', 'a', 'to', 'with', 'about', 'for', 'and', 'on'];

interface Search {
  query: string;
  results: RecalledResult[];
  transport: RecallTransport;
  at: number;
}

/** Deterministic pseudo-random numbers (mulberry32). */
function rng(seed: number): (n: number) => number {
  let state = seed >>> 0;
  return (n) => {
    let t = (state = (state + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * n);
  };
}

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const c of cleanups.splice(0).reverse()) c();
});

/** A workspace of daily notes, indexed (file rows only: that is all the recorder reads) in a real index, and a dream store. */
function setup(notes = 40) {
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'reverie-recall-')));
  cleanups.push(() => fs.rmSync(base, { recursive: true, force: true }));
  const root = path.join(base, 'workspace');
  const r = rng(notes);
  const sentence = () =>
    Array.from({ length: 4 + r(8) }, () => (r(3) === 0 ? FILLER[r(FILLER.length)]! : WORDS[r(WORDS.length)]!)).join(' ') + '.';
  const files = new Map<string, number>();
  const write = (rel: string, text: string) => {
    const abs = path.join(root, rel);
    fs.mkdirSync(path.dirname(abs), { recursive: true });
    fs.writeFileSync(abs, text);
    files.set(rel, text.split('\n').length);
  };
  for (let d = 0; d < notes; d++) {
    const lines = [`# 2026-10-${String(d + 1).padStart(2, '0')}`, ''];
    for (const heading of ['Work', 'Evening']) {
      lines.push(`## ${heading}`, '');
      for (let i = 0; i < 6 + r(6); i++) {
        if (r(5) === 0) lines.push(sentence());
        else lines.push(`- ${sentence()}`);
        if (r(6) === 0) lines.push(`  ${sentence()}`);
        if (r(8) === 0) lines.push('');
      }
      lines.push('');
    }
    write(`memory/2026-10-${String(d + 1).padStart(2, '0')}.md`, lines.join('\n'));
  }
  write('MEMORY.md', '# Memory\n\n- Curated: never recorded.\n');
  write('DREAMS.md', '# Dreams\n\n- Reflection.\n');

  const index = openIndexDatabase(path.join(base, 'data', 'index.sqlite'), { disableVectorExtension: true }).db;
  cleanups.push(() => index.close());
  const store = new IndexStore(index);
  for (const rel of files.keys()) {
    const abs = path.join(root, rel);
    const stat = fs.statSync(abs);
    const source = rel === 'DREAMS.md' ? 'dreams' : 'memory';
    store.writeFileRowOnly({ path: rel, absPath: abs, source, sha256: sha256Hex(fs.readFileSync(abs)), mtimeMs: stat.mtimeMs, size: stat.size, status: 'indexed', reason: null });
  }

  const dreamFile = path.join(base, 'data', 'dreaming', 'ws.sqlite');
  const dreams: Database.Database[] = [];
  const openDreams = () => {
    const db = openDreamDatabase(dreamFile).db;
    dreams.push(db);
    return db;
  };
  cleanups.push(() => dreams.forEach((db) => db.open && db.close()));

  /** Searches as a search returns them: a few passages of several lines, some past a note's end or on blank lines. */
  const searches = (count: number, seed: number): Search[] => {
    const q = rng(seed);
    const paths = [...files.keys()];
    return Array.from({ length: count }, (_, i) => {
      const words = Array.from({ length: 1 + q(3) }, () => WORDS[q(WORDS.length)]!);
      if (q(3) === 0) words.unshift('what', 'about');
      const query = i % 37 === 5 ? 'what about the' : words.join(' '); // now and then only stopwords
      const results = Array.from({ length: 1 + q(8) }, () => {
        const p = paths[q(paths.length)]!;
        const start = 1 + q(files.get(p)!);
        return { path: p, source: p === 'DREAMS.md' ? ('dreams' as const) : ('memory' as const), startLine: start, endLine: start + q(12), score: q(140) / 100 - 0.2 };
      });
      // 11 minutes apart: a repeat within 10 minutes is recorded once, which is recallUse.test.ts's business.
      return { query, results, transport: (['ui', 'cli', 'agent', 'mcp'] as const)[q(4)]!, at: AT + q(3) * 86_400_000 + i * 11 * 60_000 };
    });
  };

  return { root, index, openDreams, searches };
}

/**
 * The rows the recorder wrote before it cached anything, computed from scratch: each result's
 * note read and parsed again, every entry stemmed again, entries overlapping by a full scan.
 */
function expectedRows(root: string, searches: readonly Search[]): string[] {
  const rows: string[] = [];
  for (const s of searches) {
    const kept = s.results.filter((r) => r.source !== 'dreams' && r.path !== 'MEMORY.md' && r.path !== 'USER.md');
    if (s.query.trim() === '') continue;
    const wanted = new Set(extractQueryTerms(s.query).filter((t) => !t.isStopword).flatMap((t) => [t.stem, ...t.variants]));
    for (const r of kept) {
      const entries = parseMarkdownEntries(fs.readFileSync(path.join(root, r.path), 'utf8'));
      const cited = entries.filter((e) => e.endLine >= r.startLine && e.startLine <= r.endLine);
      let answering = cited;
      if (wanted.size > 0 && cited.length > 1) {
        // The entries sharing the most query stems (ties all), as entriesAnsweringQuery.
        const shared = cited.map((e) => [...new Set(extractQueryTerms(e.body).filter((t) => !t.isStopword).map((t) => t.stem))].filter((stem) => wanted.has(stem)).length);
        const best = Math.max(...shared);
        if (best > 0) answering = cited.filter((_, i) => shared[i] === best);
      }
      for (const e of answering) {
        const hash = entryHash(e.raw);
        if (!hash) continue;
        const score = Math.max(0, Math.min(1, r.score));
        rows.push(JSON.stringify([r.path, e.startLine, e.endLine, hash, queryHash(s.query), score, s.at, localDay(s.at), s.transport]));
      }
    }
  }
  return rows.sort();
}

function storedRows(db: Database.Database): string[] {
  return (
    db.prepare('SELECT path, start_line, end_line, entry_hash, query_hash, score, recalled_at, day, transport FROM recall_signals').raw().all() as unknown[][]
  )
    .map((row) => JSON.stringify(row))
    .sort();
}

function recordAll(recorder: RecallRecorder, searches: readonly Search[]): void {
  for (const s of searches) recorder.record(s.query, s.results, s.transport, s.at);
}

describe('RecallRecorder', () => {
  it('flush() writes what recording wrote before the caches: every row, once', () => {
    const { root, index, openDreams, searches } = setup();
    const db = openDreams();
    const recorder = new RecallRecorder(db, () => index, root);
    const all = searches(150, 1);
    recordAll(recorder, all);
    const written = recorder.flush();
    const expected = expectedRows(root, all);
    expect(expected.length).toBeGreaterThan(300);
    expect(written).toBe(expected.length);
    expect(storedRows(db)).toEqual(expected);
    // Again, all notes now parsed and stemmed: the same rows again.
    recordAll(recorder, all);
    expect(recorder.flush()).toBe(expected.length);
    expect(storedRows(db)).toEqual([...expected, ...expected].sort());
    recorder.close();
  });

  it('records a search whose entries a search worker works out: the worker\'s entries when they come, its own when the worker failed', async () => {
    const { root, index, openDreams, searches } = setup();
    const db = openDreams();
    let clock = AT;
    const recorder = new RecallRecorder(db, () => index, root, () => clock);
    const all = searches(60, 9).map((s, i) => ({ ...s, at: AT + i * 11 * 60_000 })); // no repeats within 10 minutes
    const failed = all.filter((_, i) => i % 2 === 0);
    const answered = all.filter((_, i) => i % 2 === 1);
    let resolveLater!: (entries: Record<string, RecalledEntry[]>) => void;
    const later = new Promise<Record<string, RecalledEntry[]>>((resolve) => (resolveLater = resolve));
    for (const s of failed) {
      clock = s.at;
      recorder.recordWhenResolved(s.query, s.results.map((r, i) => ({ ...r, id: `chunk:${i}` })), s.transport, Promise.reject(new Error('The worker stopped.')));
    }
    // The worker's entries: one made-up entry per result, so its rows are recognisably the worker's.
    for (const s of answered) {
      clock = s.at;
      recorder.recordWhenResolved(s.query, s.results.map((r, i) => ({ ...r, id: `chunk:${i}` })), s.transport, later);
    }
    resolveLater(Object.fromEntries(Array.from({ length: 9 }, (_, i) => [`chunk:${i}`, [{ startLine: 1, endLine: 1, hash: `worker-${i}` }]])));
    await recorder.whenResolved();
    recorder.flush();
    const rows = storedRows(db);
    const fromWorker = rows.filter((r) => r.includes('"worker-'));
    expect(rows.filter((r) => !r.includes('"worker-'))).toEqual(expectedRows(root, failed));
    const recorded = (r: RecalledResult): boolean => r.source !== 'dreams' && r.path !== 'MEMORY.md' && r.path !== 'USER.md';
    expect(fromWorker.length).toBe(answered.filter((s) => s.query.trim() !== '').flatMap((s) => s.results.filter(recorded)).length);
    recorder.close();
  });

  it('drain() writes the same rows as flush() in many short transactions, turning the event loop between them', async () => {
    const { root, index, openDreams, searches } = setup();
    const db = openDreams();
    const recorder = new RecallRecorder(db, () => index, root, Date.now, 0);
    const all = searches(400, 2); // more than FLUSH_AT_PENDING: recording also schedules a drain itself
    recordAll(recorder, all);
    const { value: written, turns } = await countingTurns(recorder.drain());
    const expected = expectedRows(root, all);
    expect(written).toBe(expected.length);
    expect(storedRows(db)).toEqual(expected);
    expect(turns).toBeGreaterThan(100); // one result per transaction here: it yielded between them
    expect(recorder.flush()).toBe(0);
    recorder.close();
  });

  it('searches recorded while a drain runs, and a synchronous flush in the middle of it, are written exactly once', async () => {
    const { root, index, openDreams, searches } = setup();
    const db = openDreams();
    const recorder = new RecallRecorder(db, () => index, root, Date.now, 0);
    const all = searches(260, 3);
    recordAll(recorder, all.slice(0, 60));
    const draining = recorder.drain();
    let flushedMidway = 0;
    for (let i = 60; i < all.length; i++) {
      await yieldToEventLoop();
      recorder.record(all[i]!.query, all[i]!.results, all[i]!.transport, all[i]!.at);
      if (i === 100 || i === 200) flushedMidway += recorder.flush(); // what a sweep does
    }
    const drained = await draining;
    const rest = (await recorder.drain()) + recorder.flush();
    const expected = expectedRows(root, all);
    expect(flushedMidway).toBeGreaterThan(0);
    expect(drained).toBeGreaterThan(0);
    expect(flushedMidway + drained + rest).toBe(expected.length);
    expect(storedRows(db)).toEqual(expected);
    recorder.close();
  });

  it('close() writes everything still queued or mid-drain; the drain then stops without touching the closed store', async () => {
    const { root, index, openDreams, searches } = setup();
    const db = openDreams();
    const recorder = new RecallRecorder(db, () => index, root, Date.now, 0);
    const all = searches(120, 4);
    recordAll(recorder, all.slice(0, 100));
    const draining = recorder.drain();
    for (let i = 0; i < 20; i++) await yieldToEventLoop();
    expect(storedRows(db).length).toBeGreaterThan(0); // mid-drain
    recordAll(recorder, all.slice(100));
    recorder.close();
    db.close(); // as DreamService does right after
    await expect(draining).resolves.toBeGreaterThan(0);
    recorder.record('after close', all[0]!.results, 'ui'); // ignored, never throws
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(storedRows(openDreams())).toEqual(expectedRows(root, all));
  });

  it('drains on its own a moment after searches are recorded', async () => {
    const { root, index, openDreams, searches } = setup(8);
    const db = openDreams();
    const recorder = new RecallRecorder(db, () => index, root);
    const all = searches(20, 5);
    recordAll(recorder, all);
    expect(storedRows(db)).toEqual([]);
    const expected = expectedRows(root, all);
    for (let waited = 0; waited < 3000 && storedRows(db).length < expected.length; waited += 50) await new Promise((r) => setTimeout(r, 50));
    expect(storedRows(db)).toEqual(expected);
    recorder.close();
  });

  it('a failing write never reaches the search: recording goes on, the timer drain fails quietly, flush() still throws', async () => {
    const { root, index, openDreams, searches } = setup(8);
    const db = openDreams();
    let broken = true;
    const closedIndex = openIndexDatabase(path.join(root, '..', 'data', 'other.sqlite'), { disableVectorExtension: true }).db;
    closedIndex.close();
    const recorder = new RecallRecorder(db, () => (broken ? closedIndex : index), root, Date.now, 0);
    const all = searches(230, 6);
    expect(() => recordAll(recorder, all.slice(0, 210))).not.toThrow(); // ≥ 200 queued: drains on the next turn, and fails
    for (let i = 0; i < 20; i++) await yieldToEventLoop();
    expect(storedRows(db)).toEqual([]);
    recordAll(recorder, all.slice(210, 220));
    expect(() => recorder.flush()).toThrow();
    broken = false;
    recordAll(recorder, all.slice(220));
    await recorder.drain();
    expect(storedRows(db)).toEqual(expectedRows(root, all.slice(220)));
    recorder.close();
  });

  it('every 50th batch, drained or flushed, compacts signals older than 30 days', async () => {
    const { root, index, openDreams, searches } = setup(8);
    const db = openDreams();
    const old = db.prepare(
      "INSERT INTO recall_signals (path, start_line, end_line, entry_hash, query_hash, score, recalled_at, day, transport) VALUES ('memory/2026-10-01.md', 3, 3, ?, 'q', 0.5, ?, '2026-08-01', 'ui')",
    );
    const insertOld = (n: number) => db.transaction(() => Array.from({ length: n }, (_, i) => old.run(`e${i % 9}`, AT - 60 * 86_400_000 + i)))();
    const oldRows = () => (db.prepare('SELECT count(*) AS n FROM recall_signals WHERE recalled_at < ?').get(AT - 30 * 86_400_000) as { n: number }).n;
    const recorder = new RecallRecorder(db, () => index, root, () => AT, 0);
    const all = searches(200, 8).filter((s) => s.results.some((r) => r.source === 'memory' && r.path !== 'MEMORY.md')); // each one batch
    expect(all.length).toBeGreaterThanOrEqual(100);
    const total = () =>
      (db.prepare('SELECT (SELECT count(*) FROM recall_signals) + (SELECT coalesce(sum(count), 0) FROM recall_aggregates) AS n').get() as { n: number }).n;
    insertOld(600);
    let written = 0;
    for (let i = 0; i < 49; i++) {
      recordAll(recorder, [all[i]!]);
      written += await recorder.drain();
    }
    expect(oldRows()).toBe(600);
    recordAll(recorder, [all[49]!]);
    written += await recorder.drain(); // the 50th batch
    expect(oldRows()).toBe(0);
    expect((db.prepare('SELECT sum(count) AS n FROM recall_aggregates').get() as { n: number }).n).toBe(600);
    insertOld(300); // after the recorder's rows: those are folded too (ids before the cutoff)
    for (let i = 50; i < 100; i++) {
      recordAll(recorder, [all[i]!]);
      written += recorder.flush();
    }
    expect(oldRows()).toBe(0);
    expect((db.prepare('SELECT sum(count) AS n FROM recall_aggregates').get() as { n: number }).n).toBeGreaterThan(900);
    expect(total()).toBe(900 + written);
    recorder.close();
  });

  it('one drain at a time; searches recorded during a drain that then fails are drained later on their own', async () => {
    const { root, index, openDreams, searches } = setup(8);
    const db = openDreams();
    let broken = false;
    const closedIndex = openIndexDatabase(path.join(root, '..', 'data', 'other.sqlite'), { disableVectorExtension: true }).db;
    closedIndex.close();
    const recorder = new RecallRecorder(db, () => (broken ? closedIndex : index), root, Date.now, 0);
    const all = searches(60, 7);
    recordAll(recorder, all.slice(0, 50));
    const draining = recorder.drain();
    expect(recorder.drain()).toBe(draining);
    for (let i = 0; i < 10; i++) await yieldToEventLoop();
    const before = storedRows(db);
    expect(before.length).toBeGreaterThan(0);
    broken = true; // the index closes under the drain (as a rebuild can)
    recordAll(recorder, all.slice(50));
    await expect(draining).rejects.toThrow();
    broken = false;
    const late = expectedRows(root, all.slice(50));
    for (let waited = 0; waited < 3000 && storedRows(db).length < before.length + late.length; waited += 50) await new Promise((r) => setTimeout(r, 50));
    expect(storedRows(db)).toEqual([...before, ...late].sort());
    recorder.close();
  });
});
