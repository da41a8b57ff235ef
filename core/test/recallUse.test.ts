import { afterEach, describe, expect, it } from 'vitest';
import type { CallContext, DreamCandidate } from '../src/contract/index.js';
import type { MemoryService } from '../src/engine/memoryService.js';
import { createTempWorkspace, openService, type TempWorkspace } from './helpers/workspace.js';
import { dream, testClock } from './helpers/dreaming.js';

const NOTES = {
  'memory/2026-11-27.md': '# 2026-11-27\n\n- The staging database is ledgerd-staging on port 5433.\n- Lunch with Marek about the tax module.\n',
};
const STAGING = 'memory/2026-11-27.md:3:3';
const AGENT: CallContext = { transport: 'mcp', agent: { id: 'a1', name: 'agent', scopes: ['read'] } };
const MINUTE = 60_000;

let ws: TempWorkspace | null = null;
let service: MemoryService | null = null;
afterEach(async () => {
  await service?.close();
  ws?.cleanup();
  service = null;
  ws = null;
});

async function setup() {
  ws = createTempWorkspace(NOTES);
  const clock = testClock(new Date(2026, 10, 28, 9, 0, 0).getTime());
  service = openService(ws, { now: clock.now });
  await service.sync(false);
  const search = async (query: string, context?: CallContext, extra: { recall?: boolean } = {}) => {
    await service!.invoke('memory.search', { query, limit: 5, ...extra }, context);
    service!.dreams.recorder.flush();
  };
  const signals = async (): Promise<DreamCandidate['signals'] | undefined> => {
    const run = await dream(service!, { dryRun: true });
    return run.candidates.find((c) => c.key === STAGING)?.signals;
  };
  return { service, clock, search, signals };
}

describe('recall signals that mean use', () => {
  it('the same query from the same caller within 10 minutes is one recall; later, or from another caller, it counts again', async () => {
    const { clock, search, signals } = await setup();
    const start = clock.now();
    await search('staging database port');
    clock.set(start + 2 * MINUTE);
    await search('staging database port'); // a retry: the same look
    clock.set(start + 9 * MINUTE);
    await search('staging database port');
    expect((await signals())?.recallCount).toBe(1);
    clock.set(start + 20 * MINUTE);
    await search('staging database port');
    await search('staging database port', AGENT);
    expect((await signals())?.recallCount).toBe(3);
  });

  it('a search with recall off (the window while typing) records nothing', async () => {
    const { search, signals } = await setup();
    for (const prefix of ['st', 'stag', 'staging', 'staging data', 'staging database']) await search(prefix, undefined, { recall: false });
    expect((await signals())?.recallCount ?? 0).toBe(0);
    await search('staging database');
    expect((await signals())?.recallCount).toBe(1);
  });

  it('a result the agent then reads (memory_get) or the window opens (files.read) is recorded as used, once per search; a read with no search before it is not', async () => {
    const { service, clock, search, signals } = await setup();
    const start = clock.now();
    await service.invoke('memory.get', { path: 'memory/2026-11-27.md', from: 1, lines: 5 }, AGENT); // no search yet
    await search('staging database port', AGENT);
    clock.set(start + MINUTE);
    await service.invoke('memory.get', { path: 'memory/2026-11-27.md', from: 3, lines: 1 }, AGENT);
    await service.invoke('memory.get', { path: 'memory/2026-11-27.md', from: 3, lines: 1 }, AGENT); // the same use again
    expect(await signals()).toMatchObject({ recallCount: 1, usedCount: 1 });

    // The window's own search, opened there; the agent's read long after its search is no use.
    clock.set(start + 3 * MINUTE);
    await search('which port does staging use');
    await service.invoke('files.read', { path: 'memory/2026-11-27.md' });
    clock.set(start + 30 * MINUTE);
    await service.invoke('memory.get', { path: 'memory/2026-11-27.md', from: 3, lines: 1 }, AGENT);
    expect(await signals()).toMatchObject({ recallCount: 2, usedCount: 2 });

    // Lines the search did not return (the lunch entry) are not marked used by reading them.
    const run = await dream(service, { dryRun: true });
    expect(run.candidates.find((c) => c.key === 'memory/2026-11-27.md:4:4')?.signals.usedCount ?? 0).toBe(0);
  });
});
