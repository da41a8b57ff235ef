import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { connectStore, createReverieStore, type ReverieStore } from '../src/store/store.js';
import { StoreContext } from '../src/store/useReverie.js';
import { StatusBar } from '../src/views/shell/StatusBar.js';
import { createFakeClient } from './fakeClient.js';
import { statusOutput } from './statusFixtures.js';

const render = (store: ReverieStore): string => renderToStaticMarkup(createElement(StoreContext.Provider, { value: { ...store, getInitialState: store.getState } }, createElement(StatusBar)));

/** A store connected to a fake engine whose status has been read, as the window has it after start. */
async function connectedStore(): Promise<{ client: ReturnType<typeof createFakeClient>; store: ReverieStore }> {
  const client = createFakeClient({ status: async () => statusOutput() });
  const store = createReverieStore(client, { confirm: () => true, reloadPage: () => undefined });
  connectStore(store, client);
  await store.getState().status.refresh();
  return { client, store };
}

describe('the compaction after an upgrade in the status bar', () => {
  it('says search is ready and how far the index is compacted, then goes back to the usual label', async () => {
    const { client, store } = await connectedStore();
    client.emit({ type: 'derived-progress', progress: { state: 'running', done: 10, total: 10, compaction: { doneBytes: 0, totalBytes: 40_000_000 } } });
    expect(render(store)).toContain('Search ready · compacting the index after an upgrade 0 %');
    client.emit({ type: 'derived-progress', progress: { state: 'running', done: 10, total: 10, compaction: { doneBytes: 30_000_000, totalBytes: 40_000_000 } } });
    expect(render(store)).toContain('compacting the index after an upgrade 75 %');
    client.emit({ type: 'derived-progress', progress: { state: 'done', done: 10, total: 10 } });
    expect(render(store)).not.toContain('compacting');
  });
});

describe('the derived work after search is ready, in the status bar', () => {
  it('names the entry kinds while they are behind, then the graph', async () => {
    const { client, store } = await connectedStore();
    client.emit({ type: 'derived-progress', progress: { state: 'running', done: 0, total: 40, kinds: { done: 12, total: 40 } } });
    expect(render(store)).toContain('Search ready · entry kinds 12 of 40 files');
    client.emit({ type: 'derived-progress', progress: { state: 'running', done: 5, total: 40 } });
    expect(render(store)).toContain('Search ready · graph 5 of 40 files');
  });
});
