import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { OperationName } from '../../core/src/contract/index.js';
import { connectStore, createReverieStore, type ReverieStore } from '../src/store/store.js';
import { StoreContext } from '../src/store/useReverie.js';
import { EngineBanner } from '../src/views/shell/EngineBanner.js';
import { createFakeClient } from './fakeClient.js';
import { statusOutput } from './statusFixtures.js';

const renderBanner = (store: ReverieStore): string =>
  renderToStaticMarkup(createElement(StoreContext.Provider, { value: { ...store, getInitialState: store.getState } }, createElement(EngineBanner)));

/** A desktop engine that answers status, files and imports, and records every call. */
function desktopEngine() {
  const calls: OperationName[] = [];
  let reloads = 0;
  const client = createFakeClient({
    status: async () => (calls.push('status'), statusOutput()),
    'files.list': async () => (calls.push('files.list'), { files: [] }),
    'import.reports': async () => (calls.push('import.reports'), { reports: [] }),
    'import.detect': async () => (calls.push('import.detect'), { sources: [] }),
    'workspace.info': async () => (
      calls.push('workspace.info'),
      { root: '/home/ada/Reverie', firstRun: false, openClaw: null, starterDir: '/home/ada/Reverie', canPickFolder: true }
    ),
  });
  const store = createReverieStore(client, { confirm: () => true, reloadPage: () => void reloads++ });
  connectStore(store, client);
  return { client, store, calls, reloads: () => reloads, app: () => store.getState().app };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('engine state (desktop)', () => {
  it('shows a crash banner with the message, keeps it while restarting, and clears it when the engine runs again', () => {
    const { client, store, app } = desktopEngine();
    expect(renderBanner(store)).toBe('');

    client.emit({ type: 'engine-state', state: 'crashed', message: 'The engine process exited (code 1); restarting in 1 s.' });
    expect(app().engine).toEqual({ state: 'crashed', message: 'The engine process exited (code 1); restarting in 1 s.', reason: 'crash' });
    let html = renderBanner(store);
    expect(html).toContain('role="alert"');
    expect(html).toContain('The Reverie engine stopped unexpectedly; restarting…');
    expect(html).toContain('The engine process exited (code 1); restarting in 1 s.');

    // The restarting event carries no message: the crash's reason stays on screen.
    client.emit({ type: 'engine-state', state: 'restarting', message: null });
    html = renderBanner(store);
    expect(html).toContain('data-engine-state="restarting"');
    expect(html).toContain('stopped unexpectedly');
    expect(html).toContain('exited (code 1)');

    client.emit({ type: 'engine-state', state: 'running', message: null });
    expect(app().engine.state).toBe('running');
    expect(renderBanner(store)).toBe('');
  });

  it('after a crash, asks the engine again for status and what the current view shows (no page reload)', async () => {
    const { client, store, calls, reloads } = desktopEngine();
    store.getState().app.setView('imports');
    await store.getState().memory.loadFiles();
    await settle();
    calls.length = 0;

    client.emit({ type: 'engine-state', state: 'crashed', message: 'exited' });
    client.emit({ type: 'engine-state', state: 'restarting', message: null });
    expect(calls).toEqual([]); // nothing is asked of an engine that is not there
    client.emit({ type: 'engine-state', state: 'running', message: null });
    await settle();

    expect(calls).toContain('status');
    expect(calls).toContain('files.list');
    expect(calls).toContain('import.reports');
    expect(reloads()).toBe(0);
    expect(store.getState().status.state).toBe('ready');
  });

  it('a restart without a crash is the chosen workspace opening: an info banner, then the page reloads', () => {
    const { client, store, reloads } = desktopEngine();
    client.emit({ type: 'engine-state', state: 'restarting', message: 'Opening the workspace you chose.' });
    const html = renderBanner(store);
    expect(html).toContain('banner-info');
    expect(html).toContain('Reverie is restarting on the workspace you chose…');
    expect(html).not.toContain('stopped unexpectedly');

    client.emit({ type: 'engine-state', state: 'running', message: null });
    expect(reloads()).toBe(1);
  });

  it('a running event with nothing before it (the first start) only refreshes the data', async () => {
    const { client, calls, reloads } = desktopEngine();
    await settle();
    calls.length = 0;
    client.emit({ type: 'engine-state', state: 'running', message: null });
    await settle();
    expect(reloads()).toBe(0);
    expect(calls).toContain('status');
    expect(calls).not.toContain('workspace.info'); // the welcome already knows
  });
});
