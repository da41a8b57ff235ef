import { afterEach, describe, expect, it } from 'vitest';
import type { MemoryService } from '../src/engine/memoryService.js';
import { SearchResultCache } from '../src/search/searchResultCache.js';
import { createTempWorkspace, openService, SAMPLE_NOTES, type TempWorkspace } from './helpers/workspace.js';

let ws: TempWorkspace | undefined;
let service: MemoryService | undefined;
afterEach(async () => {
  await service?.close();
  service = undefined;
  ws?.cleanup();
  ws = undefined;
});

const search = async (s: MemoryService, query: string) => (await s.invoke('memory.search', { query, limit: 5 })).results;

async function hosted(): Promise<MemoryService> {
  ws = createTempWorkspace({ ...SAMPLE_NOTES });
  service = openService(ws);
  await service.invoke('index.sync', {});
  await service.startHosting({ kind: 'daemon', url: null });
  expect(await service.search.whenWorkersReady(30_000)).toBe(true); // a loaded machine starts threads slowly
  return service;
}

describe('the host answers a repeated search from its cache', () => {
  it('while nothing changed, and searches again once the index changed', async () => {
    const host = await hosted();
    expect(await search(host, 'zeppelin hangar')).toEqual([]);
    const { answered, fromCache } = host.search.workers()!;
    expect(await search(host, 'zeppelin hangar')).toEqual([]);
    expect(host.search.workers()).toMatchObject({ answered, fromCache: fromCache + 1 });

    ws!.write('memory/2026-04-09.md', '# 2026-04-09\n\n- The zeppelin hangar lease ends in June.\n');
    await host.invoke('index.sync', {});
    const found = await search(host, 'zeppelin hangar');
    expect(found[0]?.path).toBe('memory/2026-04-09.md');
    expect(host.search.workers()!.answered).toBe(answered + 1);
  }, 60_000);

  it('never for other arguments, and hands each caller results of its own', async () => {
    const host = await hosted();
    const first = await search(host, 'restic backups');
    expect(first.length).toBeGreaterThan(0);
    const { answered } = host.search.workers()!;
    const fewer = (await host.invoke('memory.search', { query: 'restic backups', limit: 1 })).results;
    expect(fewer).toHaveLength(1);
    expect(host.search.workers()!.answered).toBe(answered + 1);
    const again = await search(host, 'restic backups');
    expect(again).toEqual(first);
    expect(again[0]).not.toBe(first[0]);
  }, 60_000);

  it('searches again when the settings change what a search does', async () => {
    const host = await hosted();
    await search(host, 'postgres upgrade');
    const { answered } = host.search.workers()!;
    await host.invoke('settings.set', { patch: { fusion: 'rrf' } });
    await search(host, 'postgres upgrade');
    expect(host.search.workers()!.answered).toBe(answered + 1);
  }, 60_000);
});

describe('SearchResultCache', () => {
  it('gives an answer back only under the stamp it was made under, and only while it is fresh', () => {
    const cache = new SearchResultCache<string>(10, 1_000);
    cache.set('q', 'stamp-1', 'answer', 0);
    expect(cache.get('q', 'stamp-1', 999)).toBe('answer');
    expect(cache.get('q', 'stamp-2', 10)).toBeUndefined();
    expect(cache.get('q', 'stamp-1', 1_001)).toBeUndefined();
    expect(cache.get('other', 'stamp-1', 10)).toBeUndefined();
  });
});
