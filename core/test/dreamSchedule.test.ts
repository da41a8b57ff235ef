import Database from 'better-sqlite3';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { EngineEvent } from '../src/contract/index.js';
import type { MemoryService } from '../src/engine/memoryService.js';
import { dreamDatabasePath } from '../src/dreaming/dreamDatabase.js';
import { DreamScheduler, lastOccurrence, nextOccurrence, type SchedulerHooks } from '../src/dreaming/schedule.js';
import { resolveExistingWorkspace } from '../src/workspace/resolveWorkspace.js';
import { DAY_MS } from './helpers/dreaming.js';
import { createTempWorkspace, openService, type TempWorkspace } from './helpers/workspace.js';

const HOUR_MS = 3_600_000;
/** Local wall-clock times: the schedule is in local time, whatever zone the machine is in. */
const local = (y: number, mo: number, d: number, h = 0, mi = 0, s = 0) => new Date(y, mo - 1, d, h, mi, s, 0);

describe('nextOccurrence / lastOccurrence', () => {
  it('next: later today, or tomorrow when the time has passed or is now (strictly after)', () => {
    expect(nextOccurrence('03:00', local(2026, 11, 29, 2, 59, 59))).toEqual(local(2026, 11, 29, 3, 0));
    expect(nextOccurrence('03:00', local(2026, 11, 29, 3, 0))).toEqual(local(2026, 11, 30, 3, 0));
    expect(nextOccurrence('03:00', local(2026, 11, 29, 3, 0, 1))).toEqual(local(2026, 11, 30, 3, 0));
    expect(nextOccurrence('23:59', local(2026, 11, 29, 12, 0))).toEqual(local(2026, 11, 29, 23, 59));
  });

  it('next: across midnight, the end of a month and the end of a year', () => {
    expect(nextOccurrence('00:15', local(2026, 11, 29, 23, 30))).toEqual(local(2026, 11, 30, 0, 15));
    expect(nextOccurrence('00:00', local(2026, 11, 30, 23, 59, 59))).toEqual(local(2026, 12, 1, 0, 0));
    expect(nextOccurrence('03:00', local(2026, 12, 31, 4, 0))).toEqual(local(2027, 1, 1, 3, 0));
  });

  it('last: at or before, so the time itself counts; else yesterday, across midnight and a year', () => {
    expect(lastOccurrence('03:00', local(2026, 11, 29, 3, 0))).toEqual(local(2026, 11, 29, 3, 0));
    expect(lastOccurrence('03:00', local(2026, 11, 29, 10, 0))).toEqual(local(2026, 11, 29, 3, 0));
    expect(lastOccurrence('23:45', local(2026, 11, 29, 0, 10))).toEqual(local(2026, 11, 28, 23, 45));
    expect(lastOccurrence('03:00', local(2027, 1, 1, 2, 0))).toEqual(local(2026, 12, 31, 3, 0));
  });

  it('the two agree: last ≤ from < next, one day apart', () => {
    for (const from of [local(2026, 11, 29, 0, 0), local(2026, 11, 29, 2, 59), local(2026, 11, 29, 3, 0), local(2026, 11, 29, 23, 59, 59)]) {
      const next = nextOccurrence('03:00', from);
      const last = lastOccurrence('03:00', from);
      expect(last.getTime()).toBeLessThanOrEqual(from.getTime());
      expect(next.getTime()).toBeGreaterThan(from.getTime());
      expect(next.getDate() - last.getDate() === 1 || next.getMonth() !== last.getMonth()).toBe(true);
      expect([next.getHours(), next.getMinutes(), last.getHours(), last.getMinutes()]).toEqual([3, 0, 3, 0]);
    }
  });
});

/** Hooks over a fake clock (vi's fake Date), recording each sweep the way the service does (as its start time). */
function fakeHooks(options: { schedule: string | null; armedSince: number; lastSweepAt?: number | null; fail?: (call: number) => boolean }) {
  const calls: Array<{ trigger: string; at: number }> = [];
  const state = { schedule: options.schedule, lastSweepAt: options.lastSweepAt ?? null };
  const hooks: SchedulerHooks = {
    scheduleTime: () => state.schedule,
    lastSweepAt: () => state.lastSweepAt,
    armedSince: () => options.armedSince,
    now: () => Date.now(),
    runSweep: async (trigger) => {
      calls.push({ trigger, at: Date.now() });
      // A failed run is still a run: the service records it (status failed) before anything else.
      state.lastSweepAt = Date.now();
      if (options.fail?.(calls.length)) throw new Error('sweep failed');
    },
  };
  return { hooks, calls, state };
}

describe('DreamScheduler (fake clock)', () => {
  let scheduler: DreamScheduler | null = null;
  afterEach(() => {
    scheduler?.stop();
    scheduler = null;
    vi.useRealTimers();
  });

  function start(hooks: SchedulerHooks, now: Date): DreamScheduler {
    vi.useFakeTimers({ now });
    scheduler = new DreamScheduler(hooks);
    scheduler.start();
    return scheduler;
  }

  it('catches up at start when a scheduled time passed after it was armed and no sweep ran since', async () => {
    const { hooks, calls } = fakeHooks({ schedule: '03:00', armedSince: local(2026, 11, 27, 12, 0).getTime() });
    start(hooks, local(2026, 11, 29, 10, 0));
    expect(calls).toEqual([{ trigger: 'catch-up', at: local(2026, 11, 29, 10, 0).getTime() }]);
    // One catch-up, not one per missed day; then the next run is tomorrow at 03:00.
    await vi.advanceTimersByTimeAsync(16 * HOUR_MS);
    expect(calls.map((c) => c.trigger)).toEqual(['catch-up']);
    expect(scheduler!.nextRunAt()).toEqual(local(2026, 11, 30, 3, 0));
    await vi.advanceTimersByTimeAsync(HOUR_MS + 1000);
    expect(calls.map((c) => [c.trigger, new Date(c.at)])).toEqual([
      ['catch-up', local(2026, 11, 29, 10, 0)],
      ['schedule', local(2026, 11, 30, 3, 0)],
    ]);
  });

  it('no catch-up when a sweep ran after the scheduled time, or when the schedule was armed after it', async () => {
    const ran = fakeHooks({ schedule: '03:00', armedSince: local(2026, 11, 1).getTime(), lastSweepAt: local(2026, 11, 29, 3, 5).getTime() });
    start(ran.hooks, local(2026, 11, 29, 10, 0));
    await vi.advanceTimersByTimeAsync(10 * HOUR_MS);
    expect(ran.calls).toEqual([]);
    scheduler!.stop();
    vi.useRealTimers();

    const armedLater = fakeHooks({ schedule: '03:00', armedSince: local(2026, 11, 29, 5, 0).getTime() });
    start(armedLater.hooks, local(2026, 11, 29, 10, 0));
    await vi.advanceTimersByTimeAsync(10 * HOUR_MS);
    expect(armedLater.calls).toEqual([]);
    await vi.advanceTimersByTimeAsync(8 * HOUR_MS);
    expect(armedLater.calls).toEqual([{ trigger: 'schedule', at: local(2026, 11, 30, 3, 0).getTime() }]);
  });

  it('runs daily at the scheduled time through the timer, across midnight', async () => {
    const { hooks, calls } = fakeHooks({ schedule: '00:30', armedSince: local(2026, 11, 1).getTime(), lastSweepAt: local(2026, 11, 29, 0, 30).getTime() });
    start(hooks, local(2026, 11, 29, 22, 0));
    expect(scheduler!.nextRunAt()).toEqual(local(2026, 11, 30, 0, 30));
    await vi.advanceTimersByTimeAsync(2.5 * HOUR_MS - 1);
    expect(calls).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls).toEqual([{ trigger: 'schedule', at: local(2026, 11, 30, 0, 30).getTime() }]);
    await vi.advanceTimersByTimeAsync(3 * DAY_MS);
    expect(calls.map((c) => new Date(c.at))).toEqual([local(2026, 11, 30, 0, 30), local(2026, 12, 1, 0, 30), local(2026, 12, 2, 0, 30), local(2026, 12, 3, 0, 30)]);
    expect(calls.every((c) => c.trigger === 'schedule')).toBe(true);
  });

  it('schedule null: never runs, not even a catch-up, however long the host stays up', async () => {
    const { hooks, calls } = fakeHooks({ schedule: null, armedSince: local(2026, 11, 1).getTime() });
    start(hooks, local(2026, 11, 29, 10, 0));
    expect(scheduler!.nextRunAt()).toBeNull();
    await vi.advanceTimersByTimeAsync(3 * DAY_MS);
    expect(calls).toEqual([]);
    expect(vi.getTimerCount()).toBe(1); // still re-reading the setting hourly
  });

  it('the setting is re-read at least hourly: turned off while hosting, nothing more runs', async () => {
    const { hooks, calls, state } = fakeHooks({ schedule: '03:00', armedSince: local(2026, 11, 1).getTime(), lastSweepAt: local(2026, 11, 29, 3, 0).getTime() });
    start(hooks, local(2026, 11, 29, 10, 0));
    await vi.advanceTimersByTimeAsync(DAY_MS);
    expect(calls).toEqual([{ trigger: 'schedule', at: local(2026, 11, 30, 3, 0).getTime() }]);
    state.schedule = null;
    await vi.advanceTimersByTimeAsync(3 * DAY_MS);
    expect(calls).toHaveLength(1);
  });

  // A schedule turned on while hosting owes nothing for the days it was off.
  it('a schedule turned on while hosting first runs at its time, not at once for a day it was off', async () => {
    const { hooks, calls, state } = fakeHooks({ schedule: null, armedSince: local(2026, 11, 1).getTime() });
    start(hooks, local(2026, 11, 29, 10, 0));
    await vi.advanceTimersByTimeAsync(3 * DAY_MS);
    // Dec 2, 10:00: the person turns the schedule on for 12:00; no restart needed.
    state.schedule = '12:00';
    await vi.advanceTimersByTimeAsync(2 * HOUR_MS);
    expect(calls).toEqual([{ trigger: 'schedule', at: local(2026, 12, 2, 12, 0).getTime() }]);
  });

  it('a failing sweep (catch-up or scheduled) does not stop later runs', async () => {
    const { hooks, calls } = fakeHooks({ schedule: '03:00', armedSince: local(2026, 11, 1).getTime(), fail: (n) => n <= 2 });
    start(hooks, local(2026, 11, 29, 10, 0));
    await vi.advanceTimersByTimeAsync(3 * DAY_MS);
    expect(calls.map((c) => [c.trigger, new Date(c.at)])).toEqual([
      ['catch-up', local(2026, 11, 29, 10, 0)],
      ['schedule', local(2026, 11, 30, 3, 0)],
      ['schedule', local(2026, 12, 1, 3, 0)],
      ['schedule', local(2026, 12, 2, 3, 0)],
    ]);
  });

  it('a sweep that throws synchronously is also survived', async () => {
    const { hooks, calls } = fakeHooks({ schedule: '03:00', armedSince: local(2026, 11, 1).getTime(), lastSweepAt: local(2026, 11, 29, 3, 0).getTime() });
    const record = hooks.runSweep;
    let first = true;
    hooks.runSweep = (trigger) => {
      if (first) {
        first = false;
        void record(trigger);
        throw new Error('synchronous failure');
      }
      return record(trigger);
    };
    start(hooks, local(2026, 11, 29, 10, 0));
    await vi.advanceTimersByTimeAsync(2 * DAY_MS);
    expect(calls.map((c) => new Date(c.at))).toEqual([local(2026, 11, 30, 3, 0), local(2026, 12, 1, 3, 0)]);
  });

  it('stop() cancels the timer', async () => {
    const { hooks, calls } = fakeHooks({ schedule: '03:00', armedSince: local(2026, 11, 1).getTime(), lastSweepAt: local(2026, 11, 29, 3, 0).getTime() });
    start(hooks, local(2026, 11, 29, 10, 0));
    expect(vi.getTimerCount()).toBe(1);
    scheduler!.stop();
    expect(vi.getTimerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(2 * DAY_MS);
    expect(calls).toEqual([]);
  });
});

describe('the schedule in a hosting service', () => {
  let ws: TempWorkspace | null = null;
  let service: MemoryService | null = null;
  afterEach(async () => {
    await service?.close();
    ws?.cleanup();
    service = null;
    ws = null;
  });

  it('startHosting catches up a sweep the store says was missed (armed 2 days ago, no runs)', async () => {
    ws = createTempWorkspace({
      'MEMORY.md': '# Long-Term Memory\n\n- Keep the gateway on loopback.\n',
      'memory/2026-11-28.md': '# 2026-11-28\n\n- The staging database is ledgerd-staging on port 5433.\n',
    });
    const first = openService(ws);
    await first.invoke('settings.set', { patch: { watch: false, dreaming: { schedule: '03:00' } } });
    await first.close();
    const db = new Database(dreamDatabasePath(ws.dataDir, resolveExistingWorkspace(ws.root).id));
    db.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES ('schedule_armed', ?)").run(JSON.stringify({ time: '03:00', at: Date.now() - 2 * DAY_MS }));
    db.close();

    service = openService(ws);
    await service.sync(false);
    const complete = new Promise<Extract<EngineEvent, { type: 'dream-complete' }>>((resolve) => {
      service!.onDidEmitEvent((e) => {
        if (e.type === 'dream-complete') resolve(e);
      });
    });
    await service.startHosting({ kind: 'serve', url: null });
    const event = await complete;
    const { runs, schedule } = await service.invoke('dream.runs', {});
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ id: event.runId, trigger: 'catch-up', status: event.status, dryRun: false });
    expect(['ok', 'nothing-to-do']).toContain(event.status);
    expect(schedule.enabled).toBe(true);
    const next = new Date(schedule.nextRunAt!);
    expect([next.getHours(), next.getMinutes()]).toEqual([3, 0]);
    expect(next.getTime()).toBeGreaterThan(Date.now());
    expect(next.getTime() - Date.now()).toBeLessThanOrEqual(DAY_MS);
  });

  // Dry runs write nothing, so they never stand in for an owed sweep.
  it('a dry run after a missed scheduled time does not cancel the catch-up', async () => {
    ws = createTempWorkspace({ 'MEMORY.md': '# Long-Term Memory\n' });
    const first = openService(ws);
    await first.invoke('settings.set', { patch: { watch: false, dreaming: { schedule: '03:00' } } });
    await first.invoke('dream.run', { dryRun: true });
    await first.close();
    const db = new Database(dreamDatabasePath(ws.dataDir, resolveExistingWorkspace(ws.root).id));
    db.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES ('schedule_armed', ?)").run(JSON.stringify({ time: '03:00', at: Date.now() - 2 * DAY_MS }));
    db.close();

    service = openService(ws);
    await service.startHosting({ kind: 'serve', url: null });
    // Sweeps are single-flight: this one queues behind a catch-up, if start() fired one.
    await service.invoke('dream.run', { dryRun: true });
    const { runs } = await service.invoke('dream.runs', {});
    expect(runs.map((r) => r.trigger)).toContain('catch-up');
  });

  it('startHosting with the schedule off runs nothing', async () => {
    ws = createTempWorkspace({ 'MEMORY.md': '# Long-Term Memory\n' });
    const first = openService(ws);
    await first.invoke('settings.set', { patch: { watch: false, dreaming: { schedule: null } } });
    await first.close();
    const db = new Database(dreamDatabasePath(ws.dataDir, resolveExistingWorkspace(ws.root).id));
    db.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES ('schedule_armed', ?)").run(JSON.stringify({ time: '03:00', at: Date.now() - 2 * DAY_MS }));
    db.close();

    service = openService(ws);
    await service.startHosting({ kind: 'serve', url: null });
    // The catch-up decision is synchronous in start(): had it fired, the run would already be queued.
    const { runs, schedule } = await service.invoke('dream.runs', {});
    expect(runs).toEqual([]);
    expect(schedule).toMatchObject({ enabled: false, nextRunAt: null });
    await service.close();
    service = openService(ws);
    expect((await service.invoke('dream.runs', {})).runs).toEqual([]);
  });
});
