import { describe, expect, it } from 'vitest';
import type { ModelInfo, OperationOutput, StatusOutput } from '../../core/src/contract/index.js';
import { MemoryClientError } from '../src/client/clientError.js';
import { groupModelsByRole } from '../src/store/modelsSlice.js';
import { createReverieStore } from '../src/store/store.js';
import { downloadSummary, embeddedSummary } from '../src/views/settings/progressText.js';
import { createFakeClient, deferred } from './fakeClient.js';
import { statusOutput } from './statusFixtures.js';

const DEFAULT_URI = 'hf:ggml-org/embeddinggemma-300m-qat-q8_0-GGUF/embeddinggemma-300m-qat-Q8_0.gguf';

const model = (file: string, overrides: Partial<ModelInfo> = {}): ModelInfo => ({
  id: `model:${file.slice(0, 8)}`,
  file,
  role: 'embedding',
  source: `hf:someone/${file}`,
  sha256: 'c'.repeat(64),
  size: 300_000_000,
  addedAt: '2026-03-01T10:00:00.000Z',
  active: false,
  ...overrides,
});

const status = (embedding: Partial<StatusOutput['embedding']> = {}): StatusOutput =>
  statusOutput({ files: 1, chunks: 10, indexed: 1 }, { embedded: 10, total: 10, ...embedding });

type ModelsList = OperationOutput<'models.list'>;

const REPORT = { files: 1, chunks: 8, added: 1, updated: 0, removed: 0, unchanged: 0, skipped: 0, failed: 0, durationMs: 1, problems: [], notices: [] };

/** A fake engine with an in-memory model registry. */
function modelsEngine(models: ModelInfo[] = []) {
  let installed = [...models];
  const calls: string[] = [];
  const list = (): ModelsList => ({
    models: installed,
    active: { embedding: installed.find((m) => m.active && m.role === 'embedding')?.id ?? null, chat: null },
    defaultEmbeddingUri: DEFAULT_URI,
  });
  const pulls: Array<ReturnType<typeof deferred<ModelInfo>>> = [];
  const client = createFakeClient({
    'models.list': async () => list(),
    status: async () => status(),
    'models.pull': ({ uri, role }) => {
      calls.push(`pull ${uri} ${role}`);
      const d = deferred<ModelInfo>();
      pulls.push(d);
      return d.promise;
    },
    'models.use': async ({ model: id }) => {
      calls.push(`use ${id}`);
      installed = installed.map((m) => ({ ...m, active: m.id === id ? true : m.role === installed.find((x) => x.id === id)?.role ? false : m.active }));
      return { active: list().active };
    },
    'models.remove': async ({ model: id }) => {
      calls.push(`remove ${id}`);
      installed = installed.filter((m) => m.id !== id);
      return { removed: id };
    },
  });
  const questions: string[] = [];
  let answer = true;
  const store = createReverieStore(client, {
    confirm: (q) => {
      questions.push(q);
      return answer;
    },
  });
  return {
    store,
    client,
    calls,
    pulls,
    questions,
    answer: (a: boolean) => void (answer = a),
    add: (m: ModelInfo) => void (installed = [...installed, m]),
    models: () => store.getState().models,
  };
}

describe('models slice', () => {
  it('lists the installed models, grouped by role with the active one first', async () => {
    const a = model('aaaaaaaa-old.gguf', { addedAt: '2026-01-01T00:00:00.000Z' });
    const b = model('bbbbbbbb-active.gguf', { active: true, addedAt: '2025-01-01T00:00:00.000Z' });
    const c = model('cccccccc-chat.gguf', { role: 'chat' });
    const { models } = modelsEngine([a, c, b]);
    await models().load();
    expect(models().listState).toBe('ready');
    const groups = groupModelsByRole(models().list!.models);
    expect(groups.map((g) => [g.role, g.models.map((m) => m.file)])).toEqual([
      ['embedding', ['bbbbbbbb-active.gguf', 'aaaaaaaa-old.gguf']],
      ['chat', ['cccccccc-chat.gguf']],
    ]);
  });

  it('keeps the error when models.list fails (the engine side may not be wired yet)', async () => {
    const client = createFakeClient({
      'models.list': async () => {
        throw new MemoryClientError('internal', 'Model management is not wired yet.');
      },
    });
    const store = createReverieStore(client, { confirm: () => true });
    await store.getState().models.load();
    expect(store.getState().models.listState).toBe('error');
    expect(store.getState().models.listError).toBe('Model management is not wired yet.');
  });

  it('pulls the default embedding model when the URI is left empty, with live download progress', async () => {
    const engine = modelsEngine();
    const { models, pulls, calls, store } = engine;
    await models().load();
    expect(models().effectivePullUri()).toBe(DEFAULT_URI);
    const pulling = models().startPull();
    expect(models().pull?.state).toBe('running');
    expect(calls).toEqual([`pull ${DEFAULT_URI} embedding`]);

    store.getState().app.handleEvent({ type: 'model-download', uri: DEFAULT_URI, bytes: 12_000_000, total: 300_000_000, rate: 4.2 * 1024 * 1024, etaSeconds: 69, done: false });
    expect(models().download).toMatchObject({ bytes: 12_000_000, total: 300_000_000 });
    expect(downloadSummary(models().download!)).toBe('11.4 MB of 286.1 MB · 4.2 MB/s · 1 min 9 s left');

    const installed = model('dddddddd-embeddinggemma.gguf', { source: DEFAULT_URI });
    engine.add(installed);
    pulls[0]!.resolve(installed);
    await pulling;
    expect(models().pull).toMatchObject({ state: 'done', model: { file: 'dddddddd-embeddinggemma.gguf' } });
    expect(models().list?.models.map((m) => m.file)).toEqual(['dddddddd-embeddinggemma.gguf']);
    expect(models().pullUri).toBe('');
  });

  it('shows why a pull failed (e.g. offline) and allows another try', async () => {
    const client = createFakeClient({
      'models.pull': async ({ uri }) => {
        // Some bytes arrive, then the connection drops.
        store.getState().app.handleEvent({ type: 'model-download', uri, bytes: 1000, total: 5000, rate: 900, etaSeconds: 4, done: false });
        throw new MemoryClientError('internal', 'Cannot reach huggingface.co (offline?).');
      },
    });
    const store = createReverieStore(client, { confirm: () => true });
    const models = () => store.getState().models;
    models().setPullUri(' hf:someone/repo/model.gguf ');
    models().setPullRole('chat');
    await models().startPull();
    expect(models().pull).toMatchObject({ uri: 'hf:someone/repo/model.gguf', role: 'chat', state: 'error', error: 'Cannot reach huggingface.co (offline?).' });
    // The bar stops looking alive: no rate, no ETA.
    expect(models().download).toMatchObject({ bytes: 1000, rate: 0, etaSeconds: null });
    expect(models().pullUri).toBe(' hf:someone/repo/model.gguf '); // kept for the retry
  });

  it('refuses an empty URI when there is no default for the role', async () => {
    const { models, calls } = modelsEngine();
    models().setPullRole('chat');
    await models().startPull();
    expect(models().pull?.state).toBe('error');
    expect(models().pull?.error).toContain('Enter a model URI');
    expect(calls).toEqual([]);
  });

  it('uses a model, then reloads the list and the status', async () => {
    const a = model('aaaaaaaa.gguf', { active: true });
    const b = model('bbbbbbbb.gguf');
    const { models, calls, store } = modelsEngine([a, b]);
    await models().load();
    await models().use(b);
    expect(calls).toEqual(['use model:bbbbbbbb']);
    expect(models().list?.models.find((m) => m.active)?.id).toBe('model:bbbbbbbb');
    expect(models().busyModel).toBeNull();
    expect(store.getState().status.data?.embedding.provider).toBe('hash');
  });

  it('asks before removing, and does nothing when told no', async () => {
    const a = model('aaaaaaaa.gguf', { active: true });
    const engine = modelsEngine([a]);
    const { models, calls, questions } = engine;
    await models().load();
    engine.answer(false);
    await models().remove(a);
    expect(questions).toHaveLength(1);
    expect(questions[0]).toContain('aaaaaaaa.gguf');
    expect(questions[0]).toContain('active model');
    expect(calls).toEqual([]);
    engine.answer(true);
    await models().remove(a);
    expect(calls).toEqual(['remove model:aaaaaaaa']);
    expect(models().list?.models).toEqual([]);
  });

  it('shows why a Use or Remove failed', async () => {
    const a = model('aaaaaaaa.gguf');
    const client = createFakeClient({
      'models.use': async () => {
        throw new MemoryClientError('not-found', 'No installed model "model:aaaaaaaa".');
      },
    });
    const store = createReverieStore(client, { confirm: () => true });
    await store.getState().models.use(a);
    expect(store.getState().models.actionError).toBe('Could not switch to aaaaaaaa.gguf: No installed model "model:aaaaaaaa".');
    expect(store.getState().models.busyModel).toBeNull();
  });
});

describe('embedding progress', () => {
  it('follows index-progress events with phase embed without leaving the ready state', () => {
    const store = createReverieStore(createFakeClient({}), { confirm: () => true });
    const app = () => store.getState().app;
    app().handleEvent({ type: 'index-ready', report: REPORT });
    app().handleEvent({ type: 'index-progress', phase: 'embed', done: 1234, total: 5000, path: null });
    expect(app()).toMatchObject({ indexState: 'ready', progress: null, embedProgress: { done: 1234, total: 5000 } });
    app().handleEvent({ type: 'index-progress', phase: 'embed', done: 5000, total: 5000, path: null });
    expect(app().embedProgress).toBeNull();
    expect(app().indexState).toBe('ready');
  });

  it('shows embedding after indexing in a sync, and clears on index-ready', () => {
    const store = createReverieStore(createFakeClient({}), { confirm: () => true });
    const app = () => store.getState().app;
    app().handleEvent({ type: 'index-progress', phase: 'index', done: 5, total: 5, path: 'a.md' });
    expect(app().indexState).toBe('indexing');
    app().handleEvent({ type: 'index-progress', phase: 'embed', done: 2, total: 8, path: null });
    expect(app()).toMatchObject({ indexState: 'indexing', progress: null, embedProgress: { done: 2, total: 8 } });
    app().handleEvent({ type: 'index-ready', report: REPORT });
    expect(app()).toMatchObject({ indexState: 'ready', embedProgress: null });
  });

  it('drops stale progress when the status says no embedding runs, unless an event came meanwhile', async () => {
    let answer = deferred<StatusOutput>();
    const client = createFakeClient({ status: () => answer.promise });
    const store = createReverieStore(client, { confirm: () => true });
    const app = () => store.getState().app;
    app().handleEvent({ type: 'index-progress', phase: 'embed', done: 2, total: 8, path: null });

    // An event lands while the status request is in flight: the older answer must not clear it.
    const first = store.getState().status.refresh();
    app().handleEvent({ type: 'index-progress', phase: 'embed', done: 3, total: 8, path: null });
    answer.resolve(status({ running: false }));
    await first;
    expect(app().embedProgress).toEqual({ done: 3, total: 8 });

    answer = deferred<StatusOutput>();
    const second = store.getState().status.refresh();
    answer.resolve(status({ running: false }));
    await second;
    expect(app().embedProgress).toBeNull();
  });
});

describe('progress text', () => {
  it('summarises downloads and embedding counts', () => {
    expect(downloadSummary({ uri: 'x', bytes: 2048, total: null, rate: 0, etaSeconds: null, done: false })).toBe('2.0 KB so far');
    expect(downloadSummary({ uri: 'x', bytes: 5 * 1024 * 1024, total: 5 * 1024 * 1024, rate: 0, etaSeconds: 0, done: true })).toBe('Downloaded 5.0 MB');
    expect(embeddedSummary(1234, 5000)).toBe('1,234 / 5,000 chunks (24%)');
    expect(embeddedSummary(0, 0)).toBe('0 / 0 chunks');
  });
});
