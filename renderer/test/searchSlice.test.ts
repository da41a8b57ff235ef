import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { OperationOutput, SearchResult } from '../../core/src/contract/index.js';
import { SEARCH_DEBOUNCE_MS, SEARCH_SETTLE_MS } from '../src/store/searchSlice.js';
import { createReverieStore } from '../src/store/store.js';
import { createFakeClient, deferred } from './fakeClient.js';

type SearchOutput = OperationOutput<'memory.search'>;

const hit = (path: string): SearchResult => ({
  id: `chunk:${path}`,
  path,
  source: 'memory',
  startLine: 3,
  endLine: 5,
  snippet: 'text',
  score: 1,
  matchedBy: ['keyword'],
});

describe('search slice', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('debounces typing and drops answers to stale queries', async () => {
    const pending = new Map<string, ReturnType<typeof deferred<SearchOutput>>>();
    const client = createFakeClient({
      'memory.search': ({ query }) => {
        const d = deferred<SearchOutput>();
        pending.set(query, d);
        return d.promise;
      },
    });
    const store = createReverieStore(client, { confirm: () => true });
    const search = () => store.getState().search;

    search().setQuery('q');
    search().setQuery('qu');
    await vi.advanceTimersByTimeAsync(SEARCH_DEBOUNCE_MS + 1);
    expect([...pending.keys()]).toEqual(['qu']); // one request for the burst

    search().setQuery('quince');
    await vi.advanceTimersByTimeAsync(SEARCH_DEBOUNCE_MS + 1);
    pending.get('quince')!.resolve({ results: [hit('memory/new.md')], tookMs: 1 });
    await vi.advanceTimersByTimeAsync(0);
    pending.get('qu')!.resolve({ results: [hit('memory/old.md')], tookMs: 1 });
    await vi.advanceTimersByTimeAsync(0);

    expect(search().results.map((r) => r.path)).toEqual(['memory/new.md']);
    expect(search().resultsQuery).toBe('quince');
  });

  it('opens a result in the Memory view with its line range', async () => {
    const client = createFakeClient({
      'memory.search': async () => ({ results: [hit('memory/a.md')], tookMs: 1 }),
      'files.read': async ({ path }) => ({ path, text: 'x', sha256: 'a'.repeat(64), mtimeMs: 0, size: 1 }),
    });
    const store = createReverieStore(client, { confirm: () => true });
    store.getState().search.setQuery('a');
    await vi.advanceTimersByTimeAsync(SEARCH_DEBOUNCE_MS + 1);
    store.getState().search.openResult(0);
    await vi.advanceTimersByTimeAsync(0);
    const { app, memory } = store.getState();
    expect(app.view).toBe('memory');
    expect(memory.openPath).toBe('memory/a.md');
    expect(memory.highlight).toEqual({ startLine: 3, endLine: 5 });
    expect(memory.readMode).toBe('source');
  });

  it('Enter before the debounce fires searches the typed query and opens its first result', async () => {
    const client = createFakeClient({
      'memory.search': async ({ query }) => ({ results: [hit(`memory/${query}.md`)], tookMs: 1 }),
      'files.read': async ({ path }) => ({ path, text: 'x', sha256: 'a'.repeat(64), mtimeMs: 0, size: 1 }),
    });
    const store = createReverieStore(client, { confirm: () => true });
    store.getState().search.setQuery('quince');
    await store.getState().search.submit();
    expect(store.getState().memory.openPath).toBe('memory/quince.md');
  });

  it('records one recall per settled query: type-ahead searches are not recalls; a pause, Enter or an opened result settles it once', async () => {
    const calls: Array<{ query: string; recall: boolean }> = [];
    const client = createFakeClient({
      'memory.search': async ({ query, recall }) => {
        calls.push({ query, recall: recall ?? true });
        return { results: [hit('memory/tests.md')], tookMs: 1 };
      },
      'files.read': async ({ path }) => ({ path, text: 'x', sha256: 'a'.repeat(64), mtimeMs: 0, size: 1 }),
    });
    const store = createReverieStore(client, { confirm: () => true });
    const search = () => store.getState().search;
    const typed = 'how should tests be written';
    // A slow typist: every keystroke outlives the debounce, so each one searches.
    for (let i = 1; i <= typed.length; i++) {
      search().setQuery(typed.slice(0, i));
      await vi.advanceTimersByTimeAsync(SEARCH_DEBOUNCE_MS + 80);
    }
    expect(calls.filter((c) => !c.recall).length).toBe(typed.length);
    expect(calls.filter((c) => c.recall)).toEqual([]);
    await vi.advanceTimersByTimeAsync(SEARCH_SETTLE_MS);
    expect(calls.filter((c) => c.recall)).toEqual([{ query: typed, recall: true }]);

    search().openResult(0); // already settled: not recorded again
    await vi.advanceTimersByTimeAsync(SEARCH_SETTLE_MS * 2);
    expect(calls.filter((c) => c.recall).length).toBe(1);

    search().setQuery('vitest or jest');
    await search().submit(); // Enter opens the first result, which settles the query at once
    expect(calls.filter((c) => c.recall).map((c) => c.query)).toEqual([typed, 'vitest or jest']);
  });
});
