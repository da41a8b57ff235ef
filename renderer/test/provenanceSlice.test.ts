import { describe, expect, it, vi } from 'vitest';
import type { ForgetReport, OperationInput, OperationOutput, ProvenanceChain } from '../../core/src/contract/index.js';
import { MemoryClientError } from '../src/client/clientError.js';
import { forgetTargetOf } from '../src/store/provenanceSlice.js';
import { DEFAULT_SOURCES } from '../src/store/searchSlice.js';
import { createReverieStore } from '../src/store/store.js';
import { UNDO_WINDOW_MS } from '../src/store/undoSlice.js';
import { createFakeClient, deferred } from './fakeClient.js';
import { PATH_PREVIEW, SESSION_PREVIEW, TRANSCRIPT_CHAIN, WORKSPACE_CHAIN, result } from './provenanceFixtures.js';

type ForgetInput = OperationInput<'forget'>;

const tick = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));

/** A client whose forget and search calls are recorded; `forgotten` flips once a real forget ran. */
function recordingClient(chain: ProvenanceChain, preview: ForgetReport) {
  const forgets: ForgetInput[] = [];
  const searches: string[] = [];
  let forgotten = false;
  let fileLists = 0;
  const client = createFakeClient({
    'provenance.get': async () => chain,
    forget: async (input) => {
      forgets.push(input);
      if (!input.dryRun) forgotten = true;
      return { ...preview, dryRun: input.dryRun ?? false };
    },
    'memory.search': async ({ query }) => {
      searches.push(query);
      return { results: forgotten ? [] : [result()], tookMs: 1 };
    },
    'files.list': async () => {
      fileLists++;
      return { files: [] };
    },
    'files.read': async ({ path }) => ({ path, text: 'x\n'.repeat(10), sha256: 'a'.repeat(64), mtimeMs: 0, size: 20 }),
  });
  return { client, forgets, searches, fileLists: () => fileLists };
}

describe('provenance slice: inspector', () => {
  it('opens for a reference, shows only the newest answer, and resets on close', async () => {
    const pending = new Map<string, ReturnType<typeof deferred<OperationOutput<'provenance.get'>>>>();
    const client = createFakeClient({
      'provenance.get': ({ ref }) => {
        const d = deferred<OperationOutput<'provenance.get'>>();
        pending.set(ref, d);
        return d.promise;
      },
    });
    const store = createReverieStore(client, { confirm: () => true });
    const p = () => store.getState().provenance;

    void p().open('chunk:1');
    expect(p()).toMatchObject({ isOpen: true, ref: 'chunk:1', state: 'loading', chain: null });
    const firstRequest = p().openRequest;
    void p().open('memory/2026-03-02.md:4');
    expect(p().openRequest).toBe(firstRequest + 1);

    pending.get('memory/2026-03-02.md:4')!.resolve(WORKSPACE_CHAIN);
    await tick();
    pending.get('chunk:1')!.resolve(TRANSCRIPT_CHAIN); // late answer to the older question
    await tick();
    expect(p().state).toBe('ready');
    expect(p().ref).toBe('memory/2026-03-02.md:4');
    expect(p().chain).toBe(WORKSPACE_CHAIN);

    p().close();
    expect(p()).toMatchObject({ isOpen: false, ref: null, state: 'idle', chain: null, forget: null });
  });

  it('keeps the error code, so a vanished chunk reads as "changed since the search"', async () => {
    let fail = true;
    const client = createFakeClient({
      'provenance.get': async () => {
        if (fail) throw new MemoryClientError('not-found', 'No indexed chunk chunk:99; it may have changed since the search. Search again.');
        return WORKSPACE_CHAIN;
      },
    });
    const store = createReverieStore(client, { confirm: () => true });
    const p = () => store.getState().provenance;
    await p().open('chunk:99');
    expect(p()).toMatchObject({ isOpen: true, state: 'error', errorCode: 'not-found' });
    expect(p().error).toContain('changed since the search');

    fail = false;
    await p().retry();
    expect(p()).toMatchObject({ state: 'ready', error: null, errorCode: null, chain: WORKSPACE_CHAIN });
  });

  it('opens a workspace chain in the Memory view at its lines and closes the panel', async () => {
    const { client } = recordingClient(WORKSPACE_CHAIN, PATH_PREVIEW);
    const store = createReverieStore(client, { confirm: () => true });
    await store.getState().provenance.open('chunk:7');
    await store.getState().provenance.openInMemory();
    const { app, memory, provenance } = store.getState();
    expect(provenance.isOpen).toBe(false);
    expect(app.view).toBe('memory');
    expect(memory.openPath).toBe('memory/2026-03-02.md');
    expect(memory.highlight).toEqual({ startLine: 3, endLine: 6 });
    expect(memory.readMode).toBe('source');
  });

  it('does not try to open transcript text as a file', async () => {
    const { client } = recordingClient(TRANSCRIPT_CHAIN, SESSION_PREVIEW);
    const store = createReverieStore(client, { confirm: () => true });
    await store.getState().provenance.open('chunk:3');
    await store.getState().provenance.openInMemory();
    expect(store.getState().provenance.isOpen).toBe(true);
    expect(store.getState().app.view).toBe('search');
    expect(store.getState().memory.openPath).toBeNull();
  });
});

describe('provenance slice: forget', () => {
  it('forgets a workspace file by path: dry run first, then for real, then refreshes search and files', async () => {
    const { client, forgets, searches, fileLists } = recordingClient(WORKSPACE_CHAIN, PATH_PREVIEW);
    const store = createReverieStore(client, { confirm: () => true });
    const p = () => store.getState().provenance;

    store.getState().search.setQuery('heron');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(store.getState().search.results).toHaveLength(1);

    await p().open('chunk:7');
    // Confirming without a preview does nothing.
    await p().confirmForget();
    expect(forgets).toEqual([]);

    await p().previewForget();
    expect(forgets).toEqual([{ path: 'memory/2026-03-02.md', dryRun: true }]);
    expect(p().forget).toMatchObject({ target: { kind: 'path', key: 'memory/2026-03-02.md' }, state: 'preview', preview: { dryRun: true } });

    const listsBefore = fileLists();
    const searchesBefore = searches.length;
    await p().confirmForget();
    // Held for Undo: nothing forgotten yet, the toast says what will happen.
    expect(p().forget).toMatchObject({ state: 'held' });
    expect(store.getState().undo.held?.message).toBe('Stopped indexing memory/2026-03-02.md.');
    expect(forgets).toHaveLength(1);
    await store.getState().undo.performNow();
    expect(forgets).toEqual([
      { path: 'memory/2026-03-02.md', dryRun: true },
      { path: 'memory/2026-03-02.md', dryRun: false },
    ]);
    expect(p().forget).toMatchObject({ state: 'done', report: { dryRun: false, removed: { chunks: 2, vectors: 2 } } });
    await tick();
    expect(searches.length).toBe(searchesBefore + 1);
    expect(store.getState().search.results).toEqual([]);
    expect(fileLists()).toBeGreaterThan(listsBefore);
  });

  it('Undo drops a confirmed forget before anything is removed, and the preview comes back', async () => {
    const { client, forgets } = recordingClient(WORKSPACE_CHAIN, PATH_PREVIEW);
    const store = createReverieStore(client, { confirm: () => true });
    const p = () => store.getState().provenance;
    await p().open('chunk:7');
    await p().previewForget();
    await p().confirmForget();
    expect(p().forget?.state).toBe('held');
    store.getState().undo.undo();
    expect(store.getState().undo.held).toBeNull();
    expect(p().forget).toMatchObject({ state: 'preview', error: null });
    await store.getState().undo.performNow();
    expect(forgets).toEqual([{ path: 'memory/2026-03-02.md', dryRun: true }]);
  });

  it('forgets after the undo window by itself, also when the panel was closed meanwhile', async () => {
    vi.useFakeTimers();
    try {
      const { client, forgets } = recordingClient(WORKSPACE_CHAIN, PATH_PREVIEW);
      const store = createReverieStore(client, { confirm: () => true });
      const p = () => store.getState().provenance;
      await p().open('chunk:7');
      await p().previewForget();
      await p().confirmForget();
      p().close();
      await vi.advanceTimersByTimeAsync(UNDO_WINDOW_MS - 1);
      expect(forgets).toHaveLength(1);
      await vi.advanceTimersByTimeAsync(1);
      expect(forgets.at(-1)).toEqual({ path: 'memory/2026-03-02.md', dryRun: false });
      expect(store.getState().undo.held).toBeNull();
    } finally {
      vi.useRealTimers();
    }
  });

  it('forgets transcript text by session id, and cancel drops the preview', async () => {
    const { client, forgets } = recordingClient(TRANSCRIPT_CHAIN, SESSION_PREVIEW);
    const store = createReverieStore(client, { confirm: () => true });
    const p = () => store.getState().provenance;
    await p().open('chunk:3');
    expect(forgetTargetOf(TRANSCRIPT_CHAIN)).toEqual({ kind: 'session', key: '5f1c-session' });

    await p().previewForget();
    expect(forgets).toEqual([{ session: '5f1c-session', dryRun: true }]);
    p().cancelForget();
    expect(p().forget).toBeNull();
    await p().confirmForget();
    expect(forgets).toHaveLength(1);
  });

  it('shows a failed forget inside the preview and lets the person try again', async () => {
    let attempts = 0;
    const client = createFakeClient({
      'provenance.get': async () => WORKSPACE_CHAIN,
      forget: async (input) => {
        if (!input.dryRun && attempts++ === 0) throw new MemoryClientError('locked', 'The index is busy; try again.');
        return { ...PATH_PREVIEW, dryRun: input.dryRun ?? false };
      },
      'files.list': async () => ({ files: [] }),
    });
    const store = createReverieStore(client, { confirm: () => true });
    const p = () => store.getState().provenance;
    await p().open('chunk:7');
    await p().previewForget();
    await p().confirmForget();
    await store.getState().undo.performNow();
    expect(p().forget).toMatchObject({ state: 'preview', error: 'The index is busy; try again.' });
    await p().confirmForget();
    await store.getState().undo.performNow();
    expect(p().forget).toMatchObject({ state: 'done', error: null });
  });

  it('refreshes search after a forget that finishes once the panel is closed', async () => {
    const real = deferred<ForgetReport>();
    const { client: base, searches } = recordingClient(WORKSPACE_CHAIN, PATH_PREVIEW);
    const client = { ...base, call: ((name, input) => (name === 'forget' && !(input as ForgetInput).dryRun ? real.promise : base.call(name, input))) as typeof base.call };
    const store = createReverieStore(client, { confirm: () => true });
    const p = () => store.getState().provenance;
    store.getState().search.setQuery('heron');
    await new Promise((resolve) => setTimeout(resolve, 200));
    await p().open('chunk:7');
    await p().previewForget();
    await p().confirmForget();
    const forgetting = store.getState().undo.performNow();
    p().close();
    const before = searches.length;
    real.resolve({ ...PATH_PREVIEW, dryRun: false });
    await forgetting;
    expect(p().forget).toBeNull();
    expect(searches.length).toBe(before + 1);
  });

  it('drops a dry-run answer that lands after the panel moved on', async () => {
    const dry = deferred<ForgetReport>();
    const client = createFakeClient({
      'provenance.get': async ({ ref }) => (ref === 'chunk:7' ? WORKSPACE_CHAIN : TRANSCRIPT_CHAIN),
      forget: () => dry.promise,
    });
    const store = createReverieStore(client, { confirm: () => true });
    const p = () => store.getState().provenance;
    await p().open('chunk:7');
    const previewing = p().previewForget();
    expect(p().forget?.state).toBe('previewing');
    await p().open('chunk:3');
    dry.resolve(PATH_PREVIEW);
    await previewing;
    expect(p().chain).toBe(TRANSCRIPT_CHAIN);
    expect(p().forget).toBeNull();
  });
});

describe('search slice and provenance', () => {
  it('searches memory and sessions by default, like the engine (not dreams)', () => {
    expect([...DEFAULT_SOURCES].sort()).toEqual(['memory', 'sessions']);
    const store = createReverieStore(createFakeClient({}), { confirm: () => true });
    expect([...store.getState().search.sources].sort()).toEqual(['memory', 'sessions']);
  });

  it('opens a transcript result in the inspector (it is not a workspace file)', async () => {
    const refs: string[] = [];
    const client = createFakeClient({
      'memory.search': async () => ({ results: [result({ id: 'chunk:3', path: 'sessions/claude-code/5f1c-session', source: 'sessions' })], tookMs: 1 }),
      'provenance.get': async ({ ref }) => {
        refs.push(ref);
        return TRANSCRIPT_CHAIN;
      },
    });
    const store = createReverieStore(client, { confirm: () => true });
    store.getState().search.setQuery('page');
    await store.getState().search.submit();
    await tick();
    expect(refs).toEqual(['chunk:3']);
    expect(store.getState().app.view).toBe('search');
    expect(store.getState().provenance).toMatchObject({ isOpen: true, state: 'ready', chain: TRANSCRIPT_CHAIN });
  });
});
