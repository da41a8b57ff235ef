import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, type StatusOutput } from '../../core/src/contract/index.js';
import { MemoryClientError } from '../src/client/clientError.js';
import { createReverieStore, type ReverieStore } from '../src/store/store.js';
import { StoreContext } from '../src/store/useReverie.js';
import { SettingsView } from '../src/views/settings/SettingsView.js';
import { StatusBar } from '../src/views/shell/StatusBar.js';
import { createFakeClient } from './fakeClient.js';
import { statusOutput } from './statusFixtures.js';

const STATUS: StatusOutput = statusOutput(
  { files: 1, chunks: 5000, indexed: 1 },
  {
    vectorBackend: 'scan',
    vectorBackendProblem: 'vec0.so: cannot open shared object file',
    knn: { mode: 'off', reason: '60,000 vectors, above 50,000: without sqlite-vec, vectors re-score keyword candidates only' },
    embedded: 1200,
    total: 5000,
    running: true,
  },
);

/**
 * Server-renders a view against the store as it is now. (zustand hands React its initial state as
 * the server snapshot, so the snapshot is pointed at the current state.)
 */
const render = (store: ReverieStore, view: () => ReturnType<typeof createElement>): string =>
  renderToStaticMarkup(createElement(StoreContext.Provider, { value: { ...store, getInitialState: store.getState } }, view()));

describe('Settings view', () => {
  it('shows the models.list error in its section while the rest of the view works', async () => {
    const client = createFakeClient({
      status: async () => STATUS,
      'settings.get': async () => ({ ...DEFAULT_SETTINGS, fusion: 'rrf' }),
      'models.list': async () => {
        throw new MemoryClientError('internal', 'Model management is not wired yet.');
      },
    });
    const store = createReverieStore(client, { confirm: () => true });
    store.getState().app.setView('settings');
    await new Promise((resolve) => setTimeout(resolve, 0));

    const html = render(store, () => createElement(SettingsView));
    expect(html).toContain('data-testid="models-error"');
    expect(html).toContain('Could not list models: Model management is not wired yet.');
    // Search settings loaded and editable.
    expect(html).toMatch(/<option value="rrf" selected="">/);
    // The active embedding generation, the scan backend's problem and the running progress.
    expect(html).toMatch(/data-testid="embedding-provider">hash/);
    expect(html).toContain('data-testid="embedding-dims">384<');
    expect(html).toContain('data-backend="scan"');
    expect(html).toContain('vec0.so: cannot open shared object file');
    // How nearest vectors are found, and why not over the whole index.
    expect(html).toContain('data-mode="off"');
    expect(html).toContain('keyword candidates, re-scored by their vectors');
    expect(html).toContain('above 50,000: without sqlite-vec');
    expect(html).toMatch(/data-testid="embedding-progress" max="5000" value="1200"/);
    expect(html).toContain('1,200 / 5,000 chunks (24%)');
  });

  it('lists installed models by role with the active badge', async () => {
    const client = createFakeClient({
      status: async () => ({ ...STATUS, embedding: { ...STATUS.embedding, vectorBackend: 'sqlite-vec', vectorBackendProblem: null, running: false } }),
      'settings.get': async () => DEFAULT_SETTINGS,
      'models.list': async () => ({
        models: [
          {
            id: 'model:abc',
            file: 'embeddinggemma-300m-qat-Q8_0.gguf',
            role: 'embedding',
            source: 'hf:ggml-org/embeddinggemma-300m-qat-q8_0-GGUF/embeddinggemma-300m-qat-Q8_0.gguf',
            sha256: 'a'.repeat(64),
            size: 328_000_000,
            addedAt: '2026-03-01T10:00:00.000Z',
            active: true,
          },
        ],
        active: { embedding: 'model:abc', chat: null },
        defaultEmbeddingUri: 'hf:ggml-org/embeddinggemma-300m-qat-q8_0-GGUF/embeddinggemma-300m-qat-Q8_0.gguf',
      }),
    });
    const store = createReverieStore(client, { confirm: () => true });
    store.getState().app.setView('settings');
    await new Promise((resolve) => setTimeout(resolve, 0));

    const html = render(store, () => createElement(SettingsView));
    expect(html).not.toContain('models-error');
    expect(html).toContain('data-role="embedding"');
    expect(html).toContain('data-role="chat"');
    expect(html).toMatch(/data-testid="model-row" data-model="model:abc" data-active="true"/);
    expect(html).toContain('data-testid="model-active">active<');
    expect(html).toContain('312.8 MB');
    expect(html).toMatch(/placeholder="hf:ggml-org\/embeddinggemma/);
    expect(html).not.toContain('data-testid="embedding-progress"');
  });
});

describe('status bar', () => {
  it('shows "Embedding done/total" with a progress bar for phase embed', () => {
    const store = createReverieStore(createFakeClient({}), { confirm: () => true });
    store.getState().app.handleEvent({ type: 'index-progress', phase: 'embed', done: 1234, total: 5000, path: null });
    const html = render(store, () => createElement(StatusBar));
    expect(html).toContain('Embedding 1234/5000');
    expect(html).toMatch(/data-testid="embed-progress" max="5000" value="1234"/);
    expect(html).not.toContain('data-testid="index-progress"');
  });
});
