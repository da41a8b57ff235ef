import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { OperationInput, StatusOutput } from '../../core/src/contract/index.js';
import { MemoryClientError } from '../src/client/clientError.js';
import { connectStore, createReverieStore, type ReverieStore } from '../src/store/store.js';
import { StoreContext } from '../src/store/useReverie.js';
import { StatusBar } from '../src/views/shell/StatusBar.js';
import { StatusView } from '../src/views/status/StatusView.js';
import { createFakeClient, deferred } from './fakeClient.js';
import { statusOutput } from './statusFixtures.js';

const render = (store: ReverieStore, view: () => ReturnType<typeof createElement>): string =>
  renderToStaticMarkup(createElement(StoreContext.Provider, { value: { ...store, getInitialState: store.getState } }, view()));

/** A fake engine that keeps the paused flag and emits index-paused when it changes, like the real one. */
function pausableEngine({ paused = false, refuse = false } = {}) {
  let isPaused = paused;
  const requests: Array<OperationInput<'index.pause'>> = [];
  const client = createFakeClient({
    status: async () => statusOutput({ paused: isPaused }),
    'index.pause': async (input) => {
      requests.push(input);
      if (refuse) throw new MemoryClientError('locked', 'Another process holds the index; try again in a moment.');
      if (isPaused !== input.paused) {
        isPaused = input.paused;
        client.emit({ type: 'index-paused', paused: isPaused });
      }
      return { paused: isPaused };
    },
  });
  const store = createReverieStore(client, { confirm: () => true, reloadPage: () => undefined });
  connectStore(store, client);
  return { client, store, requests, app: () => store.getState().app, status: () => store.getState().status };
}

describe('pause and resume indexing', () => {
  it('reads the paused state from status, and says so in the status bar and the Status view', async () => {
    const { store, status, app } = pausableEngine({ paused: true });
    await status().refresh();
    expect(app().isIndexingPaused).toBe(true);
    expect(render(store, () => createElement(StatusBar))).toContain('Indexing paused');
    const html = render(store, () => createElement(StatusView));
    expect(html).toContain('Resume indexing');
    expect(html).toContain('aria-pressed="true"');
    expect(html).toContain('data-testid="indexing-paused-notice"');
  });

  it('pauses with index.pause {paused: true}, then resumes with {paused: false}', async () => {
    const { store, status, app, requests } = pausableEngine();
    await status().refresh();
    expect(app().isIndexingPaused).toBe(false);
    expect(render(store, () => createElement(StatusView))).toContain('Pause indexing');
    expect(render(store, () => createElement(StatusBar))).not.toContain('Indexing paused');

    await status().setIndexingPaused(true);
    expect(requests).toEqual([{ paused: true }]);
    expect(app().isIndexingPaused).toBe(true);
    expect(render(store, () => createElement(StatusBar))).toContain('Indexing paused');
    expect(render(store, () => createElement(StatusView))).toContain('Resume indexing');

    await status().setIndexingPaused(false);
    expect(requests).toEqual([{ paused: true }, { paused: false }]);
    expect(app().isIndexingPaused).toBe(false);
    expect(render(store, () => createElement(StatusView))).toContain('Pause indexing');
  });

  it('follows index-paused events (another window or the CLI paused it)', () => {
    const { client, app } = pausableEngine();
    client.emit({ type: 'index-paused', paused: true });
    expect(app().isIndexingPaused).toBe(true);
    client.emit({ type: 'index-paused', paused: false });
    expect(app().isIndexingPaused).toBe(false);
  });

  it('a status answer asked for before an index-paused event does not undo it', async () => {
    const answer = deferred<StatusOutput>();
    const client = createFakeClient({ status: () => answer.promise });
    const store = createReverieStore(client, { confirm: () => true, reloadPage: () => undefined });
    connectStore(store, client);
    client.emit({ type: 'index-paused', paused: true });
    answer.resolve(statusOutput({ paused: false }));
    await answer.promise;
    await Promise.resolve();
    expect(store.getState().status.state).toBe('ready');
    expect(store.getState().app.isIndexingPaused).toBe(true);
  });

  it("shows the engine's refusal and keeps the state as it was", async () => {
    const { store, status, app } = pausableEngine({ refuse: true });
    await status().refresh();
    await status().setIndexingPaused(true);
    expect(app().isIndexingPaused).toBe(false);
    expect(status().isPausing).toBe(false);
    const html = render(store, () => createElement(StatusView));
    expect(html).toContain('Could not pause indexing: Another process holds the index; try again in a moment.');
    expect(html).toContain('Pause indexing');
  });
});
