import fs from 'node:fs/promises';
import type Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { formatStatus } from '../src/cli/commands/statusOutput.js';
import type { MemoryService } from '../src/engine/memoryService.js';
import { classifyFileEntries, ENTRY_KINDS_VERSION } from '../src/index/entryKinds.js';
import { EntryKindsTable } from '../src/index/entryKindsTable.js';
import { dream, recallOver, testClock } from './helpers/dreaming.js';
import { createTempWorkspace, openService, type TempWorkspace } from './helpers/workspace.js';

/**
 * Entry kinds are derived after `index-ready` (index/entryKindsStep.ts). These tests hold the
 * derived pass's file reads at a gate, so "before the kinds" is a state they can look at.
 */

const NOTE_PATH = 'memory/2026-10-20.md';
const NOTE = [
  '# 2026-10-20',
  '',
  '- The staging box is ares.internal, port 8443, behind the corp VPN.',
  '- [ ] renew the TLS certificate on ares.internal (expires Oct 30!)',
  '- Why does the nightly reconciliation job spike?',
  '- Priya is on holiday Nov 2–6; Marco approves releases.',
  '- Prefer Vitest over Jest for new test suites.',
  '',
].join('\n');

/**
 * A reader of file bytes that holds the reads of the derived pass after the next `index-ready`
 * (armed at first, and by `holdNextPass`) until `release()`; the bytes are read when released.
 */
function gatedReads(): { readBytes: (absPath: string) => Promise<Buffer>; indexReady(): void; holdNextPass(): void; release(): void; waiting: () => number } {
  let armed = true;
  let held = false;
  const waiters: Array<() => void> = [];
  return {
    readBytes: async (absPath) => {
      if (held) await new Promise<void>((resolve) => waiters.push(resolve));
      return fs.readFile(absPath);
    },
    indexReady: () => {
      held = armed;
      armed = false;
    },
    holdNextPass: () => (armed = true),
    release: () => {
      held = false;
      for (const w of waiters.splice(0)) w();
    },
    waiting: () => waiters.length,
  };
}

interface Opened {
  ws: TempWorkspace;
  service: MemoryService;
  db: Database.Database;
  gate: ReturnType<typeof gatedReads>;
  clock: ReturnType<typeof testClock>;
  /** The syncs and derived passes started so far are done (the pass ran out of work, or stopped). */
  settled(): Promise<void>;
}

const opened: Opened[] = [];
afterEach(async () => {
  for (const { ws, service, gate } of opened.splice(0)) {
    gate.release();
    await service.close();
    ws.cleanup();
  }
});

/** A workspace whose first sync returns at `index-ready` with the derived pass held before it reads a file. */
async function openWithKindsHeld(files: Record<string, string>, now = new Date(2026, 9, 22, 3, 0, 0).getTime()): Promise<Opened> {
  const ws = createTempWorkspace(files);
  const gate = gatedReads();
  const clock = testClock(now);
  const service = openService(ws, { now: clock.now, readBytes: gate.readBytes });
  service.onDidEmitEvent((event) => {
    if (event.type === 'index-ready') gate.indexReady();
  });
  const index = (service as unknown as { index: { db: Database.Database; whenSyncsDone(): Promise<void> } }).index;
  const o: Opened = { ws, service, db: index.db, gate, clock, settled: () => index.whenSyncsDone() };
  opened.push(o);
  await service.sync(false, 'search');
  return o;
}

const kindsOf = (db: Database.Database, file: string) => new EntryKindsTable(db).derivedFor(file);

describe('entry kinds, derived after search is ready', () => {
  it('search answers before the kinds are derived (results say nothing of kinds), and the kinds follow', async () => {
    const { service, db, gate, settled } = await openWithKindsHeld({ [NOTE_PATH]: NOTE });
    expect(gate.waiting()).toBeGreaterThan(0);
    expect(kindsOf(db, NOTE_PATH)).toBeNull();

    const before = await service.invoke('memory.search', { query: 'renew the TLS certificate', limit: 3 });
    const hit = before.results.find((r) => r.path === NOTE_PATH);
    expect(hit).toBeDefined();
    expect(hit!.entryKinds).toBeUndefined();
    expect((await service.invoke('provenance.get', { ref: `${NOTE_PATH}:4-5` })).entryKinds).toBeUndefined();
    const status = await service.invoke('status', {});
    expect(status.index.searchReady).toBe(true);
    expect(status.index.derived).toMatchObject({ state: 'running', kinds: { done: 0, total: 1 } });
    expect(formatStatus(status)).toMatch(/Search +ready · entry kinds 0\/1 files, graph 0\/1 files, in the background/);

    gate.release();
    await settled();
    expect(kindsOf(db, NOTE_PATH)?.map((k) => k.kind)).toEqual(['fact', 'task', 'question', 'time-bounded', 'preference']);
    const after = await service.invoke('memory.search', { query: 'renew the TLS certificate', limit: 3 });
    expect(after.results.find((r) => r.path === NOTE_PATH)!.entryKinds?.map((k) => k.kind)).toContain('task');
    expect((await service.invoke('provenance.get', { ref: `${NOTE_PATH}:4-5` })).entryKinds?.map((k) => k.kind)).toEqual(['task', 'question']);
    const done = await service.invoke('status', {});
    expect(done.index.derived.kinds).toBeUndefined();
  });

  it('a file without entries is derived too (an empty row), so the backlog empties', async () => {
    const { service, db, gate, settled } = await openWithKindsHeld({ [NOTE_PATH]: NOTE, 'memory/empty.md': '# Nothing yet\n' });
    expect((await service.invoke('status', {})).index.derived.kinds).toEqual({ done: 0, total: 2 });
    gate.release();
    await settled();
    expect(kindsOf(db, 'memory/empty.md')).toEqual([]);
    expect((await service.invoke('status', {})).index.derived).toMatchObject({ state: 'done' });
  });

  it('a sweep right after a first index judges every entry by the index’s kind, as it will be stored', async () => {
    const { service, db, gate, clock, settled } = await openWithKindsHeld({ [NOTE_PATH]: NOTE });
    await recallOver(service, clock, [
      { query: 'staging box ares.internal port', daysAgo: 1 },
      { query: 'renew TLS certificate ares.internal', daysAgo: 1 },
      { query: 'Priya holiday Marco approves releases', daysAgo: 1 },
      { query: 'Vitest over Jest test suites', daysAgo: 1 },
    ]);
    expect(kindsOf(db, NOTE_PATH)).toBeNull(); // still held: the sweep has no stored kinds to read
    const run = await dream(service, { dryRun: true, thresholds: { minScore: 0, minRecallCount: 1, minUniqueQueries: 1 } });
    const judged = run.candidates.filter((c) => c.key.startsWith(`${NOTE_PATH}:`));
    expect(judged.length).toBeGreaterThanOrEqual(4);
    const expected = new Map(classifyFileEntries(NOTE_PATH, NOTE).map((k) => [`${NOTE_PATH}:${k.startLine}:${k.endLine}`, k]));
    for (const c of judged) {
      expect(c.kindSource).toBe('index');
      expect({ key: c.key, kind: c.kind, cue: c.kindCue }).toEqual({ key: c.key, kind: expected.get(c.key)?.kind, cue: expected.get(c.key)?.cue });
    }

    // Once derived, a sweep reads the same kinds from the index.
    gate.release();
    await settled();
    const again = await dream(service, { dryRun: true, thresholds: { minScore: 0, minRecallCount: 1, minUniqueQueries: 1 } });
    const kindsNow = (c: (typeof judged)[number]) => [c.key, c.kind, c.kindCue, c.kindSource];
    expect(again.candidates.filter((c) => c.key.startsWith(`${NOTE_PATH}:`)).map(kindsNow)).toEqual(judged.map(kindsNow));
  });

  it('a file edited while its kinds are pending never gets kinds of text the index does not hold', async () => {
    const { ws, service, db, gate, settled } = await openWithKindsHeld({ [NOTE_PATH]: NOTE });
    const edited = '# 2026-10-20\n\n- TODO: write the Acme go-live checklist\n- Lunch with Marek about the tax module.\n';
    ws.write(NOTE_PATH, edited); // the watcher is off: the index still holds the first text
    gate.release(); // the pass reads the edited text now
    await settled();
    expect(kindsOf(db, NOTE_PATH)).toBeNull();
    expect((await service.invoke('status', {})).index.derived.kinds).toEqual({ done: 0, total: 1 });
    const hit = (await service.invoke('memory.search', { query: 'staging box ares.internal', limit: 3 })).results.find((r) => r.path === NOTE_PATH);
    expect(hit?.entryKinds).toBeUndefined();

    // The sync that reads the edit is followed by its kinds.
    await service.sync(false);
    expect(kindsOf(db, NOTE_PATH)).toEqual(classifyFileEntries(NOTE_PATH, edited));
    expect(kindsOf(db, NOTE_PATH)?.map((k) => k.kind)).toEqual(['task', 'event']);
  });

  it('an edit synced after its kinds were derived drops them until the next derived pass writes the new ones', async () => {
    const { ws, service, db, gate, settled } = await openWithKindsHeld({ [NOTE_PATH]: NOTE });
    gate.release();
    await settled();
    expect(kindsOf(db, NOTE_PATH)).toHaveLength(5);
    const edited = `${NOTE}- Ask Dana about resetting the staging database.\n`;
    ws.write(NOTE_PATH, edited);
    gate.holdNextPass();
    await service.sync(false, 'search');
    expect(kindsOf(db, NOTE_PATH)).toBeNull();
    gate.release();
    await settled();
    expect(kindsOf(db, NOTE_PATH)).toEqual(classifyFileEntries(NOTE_PATH, edited));
  });

  it('kinds made by other rules are derived again after the next sync, without re-chunking', async () => {
    const { service, db, gate, settled } = await openWithKindsHeld({ [NOTE_PATH]: NOTE });
    gate.release();
    await settled();
    const chunkIds = db.prepare('SELECT id FROM chunks ORDER BY id').pluck().all();
    const table = new EntryKindsTable(db);
    table.write(NOTE_PATH, table.of(NOTE_PATH).map((k) => ({ ...k, kind: 'event' as const, cue: 'older rules' })));
    db.prepare("UPDATE meta SET value = 'older-rules' WHERE key = 'entry_kinds'").run();

    gate.holdNextPass();
    await service.sync(false, 'search');
    // The old rules' kinds are not shown as the index's while the new ones are derived.
    expect(kindsOf(db, NOTE_PATH)).toBeNull();
    expect((await service.invoke('status', {})).index.derived.kinds).toEqual({ done: 0, total: 1 });
    gate.release();
    await settled();
    expect(kindsOf(db, NOTE_PATH)?.map((k) => k.kind)).toEqual(['fact', 'task', 'question', 'time-bounded', 'preference']);
    expect(db.prepare("SELECT value FROM meta WHERE key = 'entry_kinds'").pluck().get()).toBe(ENTRY_KINDS_VERSION);
    expect(db.prepare('SELECT id FROM chunks ORDER BY id').pluck().all()).toEqual(chunkIds);
  });
});
