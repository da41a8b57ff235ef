import fs from 'node:fs';
import path from 'node:path';
import { afterEach } from 'vitest';
import type { MemoryService } from '../../src/engine/memoryService.js';
import { createTempWorkspace, openService, type TempWorkspace } from './workspace.js';
import type { DreamRun, SearchResult } from '../../src/contract/index.js';

export const DAY_MS = 86_400_000;

/** A clock tests move by hand: dreaming reads it for recall times, sweeps and the schedule. */
export function testClock(start = Date.now()): { now: () => number; set(ms: number): void; advanceDays(days: number): void } {
  let current = start;
  return {
    now: () => current,
    set: (ms) => (current = ms),
    advanceDays: (days) => (current += days * DAY_MS),
  };
}

/** Real searches through the contract, each at `start - daysAgo` on the test clock. */
export async function recallOver(
  service: MemoryService,
  clock: ReturnType<typeof testClock>,
  queries: Array<{ query: string; daysAgo: number }>,
): Promise<SearchResult[][]> {
  const start = clock.now();
  const all: SearchResult[][] = [];
  for (const { query, daysAgo } of queries) {
    clock.set(start - daysAgo * DAY_MS);
    const { results } = await service.invoke('memory.search', { query, limit: 5 });
    service.dreams.recorder.flush();
    all.push(results);
  }
  clock.set(start);
  return all;
}

export async function dream(service: MemoryService, input: Record<string, unknown> = {}): Promise<DreamRun> {
  return await service.invoke('dream.run', input);
}

/**
 * Real workspaces with a service on the test clock, synced once, closed and removed after each
 * test: `const open = dreamingWorkspaces();` at the top of a file, then `await open(files, at)`.
 */
export function dreamingWorkspaces(): (files: Record<string, string>, at: number) => Promise<{ ws: TempWorkspace; service: MemoryService; clock: ReturnType<typeof testClock> }> {
  const opened: Array<{ ws: TempWorkspace; service: MemoryService }> = [];
  afterEach(async () => {
    for (const { ws, service } of opened.splice(0)) {
      await service.close();
      ws.cleanup();
    }
  });
  return async (files, at) => {
    const ws = createTempWorkspace(files);
    const clock = testClock(at);
    const service = openService(ws, { now: clock.now });
    opened.push({ ws, service });
    await service.sync(false);
    return { ws, service, clock };
  };
}

/**
 * One dreaming workspace per test, for files whose tests each open one: `setup(files)` opens it at
 * `at` (then runs `afterOpen`, e.g. a settings change), `file(rel)` is a path in it, `read(rel)` its text.
 */
export function dreamingWorkspaceEachTest(
  at: number,
  afterOpen?: (service: MemoryService) => Promise<unknown>,
): {
  setup(files: Record<string, string>): Promise<{ service: MemoryService; clock: ReturnType<typeof testClock> }>;
  file(rel: string): string;
  read(rel: string): string;
} {
  const open = dreamingWorkspaces();
  let current: TempWorkspace | null = null;
  const file = (rel: string): string => {
    if (!current) throw new Error('no workspace opened yet: call setup(files) first');
    return path.join(current.root, rel);
  };
  return {
    async setup(files) {
      const opened = await open(files, at);
      current = opened.ws;
      if (afterOpen) await afterOpen(opened.service);
      return { service: opened.service, clock: opened.clock };
    },
    file,
    read: (rel) => fs.readFileSync(file(rel), 'utf8'),
  };
}
