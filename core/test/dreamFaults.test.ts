import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import type { EngineEvent } from '../src/contract/index.js';
import type { MemoryService } from '../src/engine/memoryService.js';
import { openDreamDatabase } from '../src/dreaming/dreamDatabase.js';
import { localDay } from '../src/platform/localDay.js';
import { compactRecallSignals, KEEP_RAW_SIGNAL_DAYS, MAX_RAW_SIGNALS } from '../src/dreaming/recall/recallCompaction.js';
import { readRecallStats, type EntryRecall } from '../src/dreaming/recall/recallStats.js';
import { cliEnv, repoRoot } from './helpers/cli.js';
import { DAY_MS, dream, recallOver, testClock } from './helpers/dreaming.js';
import { createTempWorkspace, openService, type TempWorkspace } from './helpers/workspace.js';

const NOTES = {
  'MEMORY.md': '# Long-Term Memory\n\n- Keep the gateway on loopback. <!-- importance: 9 -->\n',
  'USER.md': '# User\n\n- Always answer in under ten lines unless asked for detail. <!-- observed: 2026-03-01 --> <!-- status: active -->\n',
  'memory/2026-11-27.md': '# 2026-11-27\n\n- Moved the production deploy target from fly.io to a Hetzner box named ledgerd-prod-2.\n- Invoice fonts are still missing glyphs.\n',
  'memory/2026-11-28.md': '# 2026-11-28\n\n- The staging database is ledgerd-staging on port 5433.\n- Lunch with Marek about the tax module.\n',
};

/** Three different questions on three days that all land on the production host entry. */
const PRODUCTION_RECALLS = [
  { query: 'where does production deploy now', daysAgo: 2 },
  { query: 'ledgerd-prod-2 hetzner box', daysAgo: 1 },
  { query: 'production deploy target moved from fly.io', daysAgo: 0 },
  { query: 'hetzner production host', daysAgo: 0 },
];
const PRODUCTION_KEY = 'memory/2026-11-27.md:3:3';
const ANY_RECALL = { minScore: 0, minRecallCount: 1, minUniqueQueries: 1 };

const DIARY_START = '<!-- openclaw:dreaming:diary:start -->';

let ws: TempWorkspace | null = null;
let service: MemoryService | null = null;
const cleanups: Array<() => void | Promise<void>> = [];

afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
  await service?.close();
  ws?.cleanup();
  service = null;
  ws = null;
});

async function setup(files: Record<string, string> = NOTES, clockStart = new Date(2026, 10, 29, 3, 0, 0).getTime()) {
  ws = createTempWorkspace(files);
  const clock = testClock(clockStart);
  service = openService(ws, { now: clock.now });
  await service.sync(false);
  return { ws, service, clock };
}

const abs = (rel: string) => path.join(ws!.root, rel);
const read = (rel: string) => fs.readFileSync(abs(rel), 'utf8');
const sha256 = (file: string) => createHash('sha256').update(fs.readFileSync(file)).digest('hex');
const runs = async (s: MemoryService) => (await s.invoke('dream.runs', {})).runs;

function lockFileOf(w: TempWorkspace): string {
  return path.join(w.root, '.reverie', 'locks', 'dream.lock');
}

describe('dreaming faults: kill -9 during the MEMORY.md write', () => {
  it('leaves the old MEMORY.md (never torn); the next sweep takes over the stale lock, removes the temp file and fails the interrupted run', async () => {
    // Real time: the CLI child sweeps with the wall clock, so the signals must be recent on it.
    ws = createTempWorkspace(NOTES);
    service = openService(ws);
    await service.sync(false);
    for (const query of ['staging database port 5433', 'which port does ledgerd-staging use']) {
      await service.invoke('memory.search', { query, limit: 5 });
    }
    service.dreams.recorder.flush();
    await service.close();
    service = null;

    const before = fs.readFileSync(abs('MEMORY.md'));
    const args = ['dream', '--min-score', '0', '--min-recall-count', '1', '--min-unique-queries', '1', '--workspace', ws.root, '--data-dir', ws.dataDir];
    const child = spawn(process.execPath, [path.join(repoRoot, 'bin', 'reverie.js'), ...args], {
      cwd: repoRoot,
      env: cliEnv(ws.dataDir, { REVERIE_TEST_PAUSE_BEFORE_RENAME_MS: '20000' }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise<NodeJS.Signals | null>((resolve) => child.once('exit', (_code, signal) => resolve(signal)));
    cleanups.push(async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    });
    await new Promise<void>((resolve, reject) => {
      let stderr = '';
      child.stderr.on('data', (d: Buffer) => {
        stderr += d.toString();
        if (stderr.includes('reverie-test: paused before rename (MEMORY.md)\n')) resolve();
      });
      child.once('exit', (code) => reject(new Error(`reverie dream exited (${code}) before pausing:\n${stderr}`)));
    });

    // The temp file is complete (written and fsynced) but not yet renamed over MEMORY.md.
    const tempPattern = new RegExp(`^\\.MEMORY\\.md\\.${child.pid}\\.[0-9a-f]+\\.tmp$`);
    const temps = fs.readdirSync(ws.root).filter((n) => tempPattern.test(n));
    expect(temps).toHaveLength(1);
    const pending = fs.readFileSync(abs(temps[0]!), 'utf8');
    expect(pending.startsWith(before.toString('utf8'))).toBe(true);
    expect(pending).toContain('The staging database is ledgerd-staging on port 5433.');

    child.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');

    // Old content, byte for byte; the lock still names the dead process.
    expect(fs.readFileSync(abs('MEMORY.md')).equals(before)).toBe(true);
    const lockFile = lockFileOf(ws);
    const holder = JSON.parse(fs.readFileSync(lockFile, 'utf8')) as { pid: number; runId: string };
    expect(holder.pid).toBe(child.pid);
    expect(holder.runId).toMatch(/^dream:/);
    expect(fs.existsSync(abs(temps[0]!))).toBe(true);

    // The next sweep recovers.
    service = openService(ws);
    const run = await dream(service, { thresholds: ANY_RECALL });
    expect(run.status).toBe('ok');
    expect(fs.existsSync(abs(temps[0]!))).toBe(false);
    expect(fs.readdirSync(ws.root).filter((n) => n.endsWith('.tmp'))).toEqual([]);
    expect(fs.existsSync(lockFile)).toBe(false); // released after the recovering sweep
    expect(run.writes.find((w) => w.file === 'MEMORY.md')?.outcome).toBe('written');
    const after = read('MEMORY.md');
    expect(after.startsWith(before.toString('utf8'))).toBe(true);
    expect(after).toContain('- The staging database is ledgerd-staging on port 5433.');

    const listed = await runs(service);
    const interrupted = listed.find((r) => r.id === holder.runId);
    expect(interrupted).toMatchObject({ status: 'failed', reason: expect.stringMatching(/interrupted/) });
    expect(listed.find((r) => r.id === run.id)?.status).toBe('ok');
  }, 60_000);
});

describe('dreaming faults: DREAMS.md', () => {
  it('a 17 MB DREAMS.md is read up to 16 MB, never rewritten; MEMORY.md is still written', async () => {
    const line = '- An old reflection about the garden, the river and the long walk home. \n';
    const huge = '# Dream Diary\n\n' + line.repeat(Math.ceil((17 * 1024 * 1024) / line.length));
    const { service, clock } = await setup({ ...NOTES, 'DREAMS.md': huge });
    const diaryFile = abs('DREAMS.md');
    const sizeBefore = fs.statSync(diaryFile).size;
    expect(sizeBefore).toBeGreaterThan(17 * 1024 * 1024);
    const hashBefore = sha256(diaryFile);

    const diary = await service.invoke('dream.diary', {});
    expect(diary.exists).toBe(true);
    expect(diary.problems.some((p) => /16 MB/.test(p))).toBe(true);

    await recallOver(service, clock, PRODUCTION_RECALLS);
    const run = await dream(service);
    expect(run.status).toBe('ok');
    expect(run.promoted.map((p) => p.candidateKey)).toEqual([PRODUCTION_KEY]);
    expect(read('MEMORY.md')).toContain('- Moved the production deploy target');
    expect(run.writes.find((w) => w.file === 'MEMORY.md')?.outcome).toBe('written');
    const diaryWrite = run.writes.find((w) => w.file === 'DREAMS.md');
    expect(diaryWrite).toMatchObject({ outcome: 'aborted', reason: expect.stringMatching(/larger than 16 MB/) });
    expect(run.narrative).toBeTruthy(); // kept with the run instead
    expect(fs.statSync(diaryFile).size).toBe(sizeBefore);
    expect(sha256(diaryFile)).toBe(hashBefore);
  }, 30_000);

  it('a symlinked DREAMS.md is not followed: the target is untouched, the run says why, dream.diary refuses it', async () => {
    const { service, clock, ws } = await setup();
    const outside = path.join(path.dirname(ws.root), 'outside-dreams.md');
    const outsideText = '# Not the diary\n\nSomething private outside the workspace.\n';
    fs.writeFileSync(outside, outsideText);
    fs.symlinkSync(outside, abs('DREAMS.md'));

    await expect(service.invoke('dream.diary', {})).rejects.toThrow(/DREAMS\.md is a symbolic link; Reverie does not follow it/);
    // The indexer does not follow it either.
    const report = await service.sync(false);
    expect(report.problems).toContainEqual(expect.objectContaining({ path: 'DREAMS.md', status: 'skipped', reason: expect.stringMatching(/symlink/) }));

    await recallOver(service, clock, PRODUCTION_RECALLS);
    const run = await dream(service);
    expect(fs.readFileSync(outside, 'utf8')).toBe(outsideText);
    expect(fs.lstatSync(abs('DREAMS.md')).isSymbolicLink()).toBe(true);
    expect(fs.readdirSync(path.dirname(ws.root)).sort()).toEqual(['data', 'outside-dreams.md', 'workspace']);
    // Memory was written; the diary write is refused and recorded, the narrative kept with the run.
    expect(run.status).toBe('ok');
    expect(run.writes.filter((w) => w.file === 'DREAMS.md')).toEqual([expect.objectContaining({ outcome: 'aborted', reason: expect.stringMatching(/symbolic link/) })]);
    expect(run.narrative).toBeTruthy();
    expect(run.writes.find((w) => w.file === 'MEMORY.md')?.outcome).toBe('written');
    expect(read('MEMORY.md')).toContain('- Moved the production deploy target');
  });

  it('a hand-edited diary with broken markers keeps every byte through two writing sweeps and its entries are still listed', async () => {
    const handEdited = [
      '# Dream Diary',
      '',
      'I keep this file by hand sometimes. This paragraph is mine.',
      '',
      DIARY_START,
      '*November 20, 2026, 3:00 AM CET*',
      '',
      'The invoice fonts came back in the dream, glyphs still missing.',
      '',
      '---',
      '',
      '*November 21, 2026, 3:00 AM CET*',
      '',
      'Lunch with Marek kept turning into a meeting about the tax module.',
      '',
      'A second paragraph I typed under that entry, after the fact.',
      '',
      '---',
      '',
      'A stray paragraph with no date and no end marker after it.',
      '---',
      '',
    ].join('\n');
    const { service, clock } = await setup({ ...NOTES, 'DREAMS.md': handEdited });

    const beforeDiary = await service.invoke('dream.diary', {});
    const oldDates = ['November 20, 2026, 3:00 AM CET', 'November 21, 2026, 3:00 AM CET'];
    // Lenient: both dated entries, and the stray undated paragraph as an entry of its own.
    expect(beforeDiary.entries.map((e) => e.dateLine)).toEqual([...oldDates, '']);
    expect(beforeDiary.entries[2]!.body).toBe('A stray paragraph with no date and no end marker after it.');
    expect(beforeDiary.problems.join('\n')).toMatch(/start marker has no end marker/);

    await recallOver(service, clock, PRODUCTION_RECALLS);
    const first = await dream(service);
    expect(first.status).toBe('ok');
    expect(first.writes.find((w) => w.file === 'DREAMS.md')?.outcome).toBe('written');
    const afterFirst = read('DREAMS.md');
    expect(afterFirst.startsWith(handEdited)).toBe(true);
    expect(afterFirst).toContain(`<!-- reverie:dream-run ${first.id} -->`);

    clock.advanceDays(1);
    await recallOver(service, clock, [{ query: 'staging database port 5433', daysAgo: 0 }]);
    const second = await dream(service, { thresholds: ANY_RECALL });
    expect(second.writes.find((w) => w.file === 'DREAMS.md')?.outcome).toBe('written');
    const afterSecond = read('DREAMS.md');
    expect(afterSecond.startsWith(handEdited)).toBe(true);
    expect(afterSecond).toContain(`<!-- reverie:dream-run ${second.id} -->`);

    // The old entries read back exactly as before (same text, same lines), then the new ones.
    const diary = await service.invoke('dream.diary', {});
    expect(diary.entries.slice(0, 3)).toEqual(beforeDiary.entries);
    expect(diary.entries.slice(3).map((e) => e.runId)).toEqual([first.id, second.id]);
  });

  it('a hand-written history heading in the middle: new lines go in, every original line stays, in order', async () => {
    const handEdited = [
      '# Dream Diary',
      '',
      DIARY_START,
      '*November 20, 2026, 3:00 AM CET*',
      '',
      'An entry whose end marker I deleted.',
      '',
      '## Memory Consolidation History',
      '',
      'Notes I keep here by hand, not in the usual format.',
      '',
      '## My own section',
      '',
      '- hand-written bullet',
      '',
    ].join('\n');
    const { service, clock } = await setup({ ...NOTES, 'DREAMS.md': handEdited });
    await recallOver(service, clock, PRODUCTION_RECALLS);
    const run = await dream(service);
    expect(run.writes.find((w) => w.file === 'DREAMS.md')?.outcome).toBe('written');
    const after = read('DREAMS.md').split('\n');
    let at = 0;
    for (const line of handEdited.split('\n')) {
      const found = after.indexOf(line, at);
      expect(found, `original line ${JSON.stringify(line)} kept in order`).toBeGreaterThanOrEqual(at);
      at = found + 1;
    }
    expect(after.length).toBeGreaterThan(handEdited.split('\n').length);
  });
});

describe('dreaming faults: concurrent sweeps', () => {
  it('two sweeps at once in one process run one after the other; the second sees the first promotion already in memory', async () => {
    const { service, clock } = await setup();
    await recallOver(service, clock, PRODUCTION_RECALLS);
    const order: string[] = [];
    const stop = service.onDidEmitEvent((e: EngineEvent) => {
      if (e.type === 'dream-progress' && order.at(-1) !== e.runId) order.push(e.runId);
    });
    const [a, b] = await Promise.all([dream(service), dream(service)]);
    stop();
    expect(a.id).not.toBe(b.id);
    expect(order).toEqual([a.id, b.id]); // single flight: no interleaving
    expect(a.status).toBe('ok');
    expect(a.promoted.map((p) => p.candidateKey)).toEqual([PRODUCTION_KEY]);
    expect(b.status).toBe('nothing-to-do');
    expect(b.promoted).toEqual([]);
    // Promoted by the first sweep, it is no longer a candidate for the second one at all.
    expect(b.candidates.map((c) => c.key)).not.toContain(PRODUCTION_KEY);
    expect(read('MEMORY.md').match(/ledgerd-prod-2/g)).toHaveLength(1);
  });

  it('a sweep while another live process holds the lock is skipped, naming the other run; the lock is left alone', async () => {
    const { service, clock, ws } = await setup();
    await recallOver(service, clock, PRODUCTION_RECALLS);
    const lockFile = lockFileOf(ws);
    fs.mkdirSync(path.dirname(lockFile), { recursive: true });
    const holder = { pid: process.pid, runId: 'dream:held-by-another-process', startedAt: new Date().toISOString() };
    fs.writeFileSync(lockFile, JSON.stringify(holder));
    const before = read('MEMORY.md');

    const run = await dream(service);
    expect(run.status).toBe('skipped');
    expect(run.reason).toMatch(/another dreaming sweep is running/);
    expect(run.reason).toContain('dream:held-by-another-process');
    expect(run.reason).toContain(`process ${process.pid}`);
    expect(read('MEMORY.md')).toBe(before);
    expect(JSON.parse(fs.readFileSync(lockFile, 'utf8'))).toEqual(holder);

    // Once the other process is gone (its lock removed), the sweep runs.
    fs.rmSync(lockFile);
    expect((await dream(service)).status).toBe('ok');
  });
});

describe('dreaming faults: recall signals stay bounded', () => {
  let dir: string | null = null;
  afterEach(() => {
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
    dir = null;
  });

  function openStore(): Database.Database {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'reverie-signals-'));
    const { db } = openDreamDatabase(path.join(dir, 'dream.sqlite'));
    return db;
  }

  function insertSignals(db: Database.Database, rows: Array<{ path: string; hash: string; query: string; score: number; at: number }>): void {
    const insert = db.prepare(
      'INSERT INTO recall_signals (path, start_line, end_line, entry_hash, query_hash, score, recalled_at, day, transport) VALUES (?, 3, 3, ?, ?, ?, ?, ?, ?)',
    );
    db.transaction(() => {
      for (const r of rows) insert.run(r.path, r.hash, r.query, r.score, r.at, localDay(r.at), 'cli');
    })();
  }

  const summary = (stats: Map<string, EntryRecall>) =>
    [...stats.values()]
      .map((s) => ({ ref: `${s.path}#${s.entryHash}`, count: s.count, scoreSum: Math.round(s.scoreSum * 1e6) / 1e6, queries: [...s.queries].sort(), days: [...s.days].sort(), firstAt: s.firstAt, lastAt: s.lastAt }))
      .sort((a, b) => a.ref.localeCompare(b.ref));
  const rawCount = (db: Database.Database) => (db.prepare('SELECT count(*) AS n FROM recall_signals').get() as { n: number }).n;

  it('over 200k raw rows: the oldest are folded into aggregates and deleted; per-entry totals are unchanged', () => {
    const db = openStore();
    const now = new Date(2026, 10, 29, 12, 0, 0).getTime();
    const total = MAX_RAW_SIGNALS + 5_000;
    const rows = Array.from({ length: total }, (_, i) => ({
      path: `memory/2026-11-${String(1 + (i % 20)).padStart(2, '0')}.md`,
      hash: `entry${i % 40}`,
      query: `q${i % 24}`,
      score: ((i % 100) + 1) / 100,
      // Spread over the last 20 days, oldest first (ids grow with time, as the recorder writes them).
      at: now - 20 * DAY_MS + Math.floor((i * 20 * DAY_MS) / total),
    }));
    insertSignals(db, rows);
    const before = summary(readRecallStats(db));
    expect(before.reduce((n, s) => n + s.count, 0)).toBe(total);

    const folded = compactRecallSignals(db, now);
    expect(folded).toBeGreaterThan(0);
    expect(rawCount(db)).toBe(MAX_RAW_SIGNALS);
    expect((db.prepare('SELECT min(id) AS id FROM recall_signals').get() as { id: number }).id).toBe(5_001);
    const aggregates = db.prepare('SELECT count, days FROM recall_aggregates').all() as Array<{ count: number; days: string }>;
    expect(aggregates.reduce((n, a) => n + a.count, 0)).toBe(5_000);
    expect(summary(readRecallStats(db))).toEqual(before);
    db.close();
  });

  it(`rows older than ${KEEP_RAW_SIGNAL_DAYS} days are folded (twice over, accumulating); recent ones stay raw`, () => {
    const db = openStore();
    const now = new Date(2026, 10, 29, 12, 0, 0).getTime();
    const old = Array.from({ length: 1_000 }, (_, i) => ({ path: 'memory/2026-09-01.md', hash: `e${i % 5}`, query: `q${i % 7}`, score: 0.5, at: now - (40 + (i % 10)) * DAY_MS + i }));
    const recent = Array.from({ length: 30 }, (_, i) => ({ path: 'memory/2026-09-01.md', hash: `e${i % 5}`, query: `recent${i % 3}`, score: 0.9, at: now - (i % 5) * DAY_MS }));
    insertSignals(db, [...old, ...recent]);
    const before = summary(readRecallStats(db));

    compactRecallSignals(db, now);
    expect(rawCount(db)).toBe(30);
    expect(summary(readRecallStats(db))).toEqual(before);
    const agg = db.prepare("SELECT count, days, query_hashes FROM recall_aggregates WHERE entry_hash = 'e0'").get() as { count: number; days: string; query_hashes: string };
    expect(agg.count).toBe(200);
    expect(JSON.parse(agg.days)).toHaveLength(2); // i % 5 === 0 falls on 40 + {0, 5} days ago
    expect(JSON.parse(agg.query_hashes)).toHaveLength(7);

    // Forty days later the recent rows are old too: they fold into the same aggregates.
    compactRecallSignals(db, now + 40 * DAY_MS);
    expect(rawCount(db)).toBe(0);
    expect(summary(readRecallStats(db))).toEqual(before);
    db.close();
  });
});

describe('dreaming faults: backfill', () => {
  const DATED = { ...NOTES, 'memory/2026-11-26.md': '# 2026-11-26\n\n- Decided to keep invoices as PDF/A from now on.\n- Coffee with Sam.\n' };

  it("writes one entry per dated note inside the diary markers in OpenClaw's format, is idempotent, and rolls back to no DREAMS.md", async () => {
    const { service } = await setup(DATED);
    expect(fs.existsSync(abs('DREAMS.md'))).toBe(false);
    const run = await dream(service, { backfill: 'memory' });
    expect(run).toMatchObject({ status: 'ok', trigger: 'backfill', backfill: { path: 'memory', days: 3 } });
    const diary = read('DREAMS.md');
    const days = ['2026-11-26', '2026-11-27', '2026-11-28'];
    const dateLines = ['November 26, 2026', 'November 27, 2026', 'November 28, 2026'];
    const inside = diary.slice(diary.indexOf('<!-- openclaw:dreaming:diary:start -->'), diary.indexOf('<!-- openclaw:dreaming:diary:end -->'));
    days.forEach((day, i) => {
      expect(inside).toContain(`*${dateLines[i]}*\n\n<!-- openclaw:dreaming:backfill-entry day=${day} source=memory/${day}.md -->\n\nWhat Happened\n1. `);
    });
    expect(diary).not.toContain('## Backfill');
    expect(diary.match(/^(What Happened|Reflections|Candidates)$/gm)).toHaveLength(9);
    expect(diary).toContain('1. Moved the production deploy target from fly.io to a Hetzner box named ledgerd-prod-2. [memory/2026-11-27.md:3]');
    expect(diary).toContain('- [likely_durable] Decided to keep invoices as PDF/A from now on. [memory/2026-11-26.md:3]');
    expect(diary).toContain('- [unclear] Coffee with Sam. [memory/2026-11-26.md:4]');
    const parsed = await service.invoke('dream.diary', {});
    expect(parsed.problems).toEqual([]);
    expect(parsed.entries.filter((e) => e.kind === 'backfill').map((e) => [e.date, e.dateLine])).toEqual(days.map((d, i) => [d, dateLines[i]]));

    const again = await dream(service, { backfill: 'memory' });
    expect(again.status).toBe('nothing-to-do');
    expect(again.reason).toMatch(/already backfilled/);
    expect(again.writes).toEqual([]);
    expect(read('DREAMS.md')).toBe(diary);

    const rolled = await service.invoke('dream.rollback', { runId: run.id });
    expect(rolled.rolledBack?.mode).toBe('restored');
    expect(fs.existsSync(abs('DREAMS.md'))).toBe(false);
  });

  it('rollback of a backfill into an existing diary gives back its previous bytes; a non-note path is a clear invalid-input error', async () => {
    const existing = '# Dream Diary\n\nHand-written: the river dream again.\n';
    const { service } = await setup({ ...DATED, 'DREAMS.md': existing });
    const run = await dream(service, { backfill: 'memory' });
    expect(run.status).toBe('ok');
    const diary = read('DREAMS.md');
    expect(diary.startsWith(existing)).toBe(true);
    expect(diary.match(/openclaw:dreaming:backfill-entry/g)).toHaveLength(3);
    await service.invoke('dream.rollback', { runId: run.id });
    expect(read('DREAMS.md')).toBe(existing);

    await expect(service.invoke('dream.run', { backfill: 'MEMORY.md' })).rejects.toMatchObject({
      code: 'invalid-input',
      message: expect.stringMatching(/MEMORY\.md is not a daily note: backfill reads files named YYYY-MM-DD\.md/),
    });
    await expect(service.invoke('dream.run', { backfill: 'memory/nope' })).rejects.toThrow(/Backfill path memory\/nope does not exist/);
    // The failed calls do not wedge the queue.
    expect((await dream(service, { backfill: 'memory' })).status).toBe('ok');
  });
});
