import { describe, expect, it } from 'vitest';
import { splitTokenFromHash } from '../src/client/token.js';
import { formatRoute, parseRoute, type Route } from '../src/routing/route.js';
import { syncUrlWithStore, type HistoryPort } from '../src/routing/urlSync.js';
import { createReverieStore } from '../src/store/store.js';
import { createFakeClient } from './fakeClient.js';
import { typeInEditor } from './editorDraftFixture.js';

/** A browser history: entries, a cursor, and Back/Forward that notify like popstate. */
function fakeHistory(initial: string) {
  const entries = [initial];
  let at = 0;
  const listeners = new Set<() => void>();
  const go = (delta: number): void => {
    at = Math.min(entries.length - 1, Math.max(0, at + delta));
    for (const listener of listeners) listener();
  };
  const port: HistoryPort = {
    hash: () => entries[at]!,
    push(hash) {
      entries.splice(at + 1, entries.length, hash);
      at = entries.length - 1;
    },
    replace(hash) {
      entries[at] = hash;
    },
    onNavigate(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  return { port, entries: () => [...entries], back: () => go(-1), forward: () => go(1), current: () => entries[at]! };
}

const flush = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));

function windowStore() {
  const reads: string[] = [];
  const client = createFakeClient({
    'files.read': async ({ path }) => {
      reads.push(path);
      return { path, text: `# ${path}\n\nline two\nline three\n`, sha256: 'a'.repeat(64), mtimeMs: 0, size: 10 };
    },
    'files.list': async () => ({ files: [] }),
    'memory.search': async () => ({ results: [], tookMs: 1 }),
  });
  return { store: createReverieStore(client, { confirm: () => true, reloadPage: () => undefined }), reads };
}

describe('routes', () => {
  const routes: Route[] = [
    { view: 'search', query: '' },
    { view: 'search', query: 'who owns the tax module? & more' },
    { view: 'memory', path: null, lines: null },
    { view: 'memory', path: 'memory/projects/tax module.md', lines: null },
    { view: 'memory', path: 'memory/2026-03-09.md', lines: { startLine: 4, endLine: 9 } },
    { view: 'memory', path: 'MEMORY.md', lines: { startLine: 7, endLine: 7 } },
    { view: 'dreams', runId: 'dream:2026-03-09T02:00' },
    { view: 'graph', entityId: 'entity:person/dana' },
    { view: 'settings', section: 'models' },
    { view: 'settings', section: null },
    { view: 'status' },
  ];

  it.each(routes)('round-trips %j through the address bar', (route) => {
    expect(parseRoute(formatRoute(route))).toEqual(route);
  });

  it('keeps file paths readable in the address', () => {
    expect(formatRoute({ view: 'memory', path: 'memory/2026-03-09.md', lines: { startLine: 4, endLine: 9 } })).toBe('#/memory/memory/2026-03-09.md?line=4-9');
  });

  it('refuses what is not a route, and drops a malformed line range', () => {
    expect(parseRoute('')).toBeNull();
    expect(parseRoute('#')).toBeNull();
    expect(parseRoute('#/nowhere')).toBeNull();
    expect(parseRoute('#/memory/%E0%A4%A')).toBeNull();
    expect(parseRoute('#/memory/MEMORY.md?line=9-4')).toEqual({ view: 'memory', path: 'MEMORY.md', lines: null });
    expect(parseRoute('#/settings/nonsense')).toEqual({ view: 'settings', section: null });
  });
});

describe('the access token in the address', () => {
  it('takes the token out of the launch URL and out of a bookmarked route, keeping the route', () => {
    expect(splitTokenFromHash('#token=abc123')).toEqual({ token: 'abc123', rest: '' });
    expect(splitTokenFromHash('#/memory/MEMORY.md?line=3&token=abc')).toEqual({ token: 'abc', rest: '#/memory/MEMORY.md?line=3' });
    expect(splitTokenFromHash('#/status?token=abc')).toEqual({ token: 'abc', rest: '#/status' });
    expect(splitTokenFromHash('#/search?q=tax')).toEqual({ token: null, rest: '#/search?q=tax' });
  });
});

describe('address bar and window in step', () => {
  it('opens a deep link to a file and its lines', async () => {
    const { store, reads } = windowStore();
    const history = fakeHistory('#/memory/memory/2026-03-09.md?line=2-3');
    syncUrlWithStore(store, history.port);
    await flush();
    const { app, memory } = store.getState();
    expect(app.view).toBe('memory');
    expect(memory.openPath).toBe('memory/2026-03-09.md');
    expect(memory.highlight).toEqual({ startLine: 2, endLine: 3 });
    expect(reads).toEqual(['memory/2026-03-09.md']);
    expect(history.current()).toBe('#/memory/memory/2026-03-09.md?line=2-3');
  });

  it('adds one history entry per place, replaces it while a query is typed, and Back/Forward return', async () => {
    const { store } = windowStore();
    const history = fakeHistory('');
    syncUrlWithStore(store, history.port);
    await flush();
    expect(history.entries()).toEqual(['#/search']);

    store.getState().search.setQuery('tax');
    store.getState().search.setQuery('tax module');
    await flush();
    expect(history.entries()).toEqual(['#/search?q=tax%20module']);

    store.getState().app.setView('memory');
    await store.getState().memory.openFile('MEMORY.md');
    await flush();
    store.getState().app.showSettingsSection('models');
    await flush();
    expect(history.entries()).toEqual(['#/search?q=tax%20module', '#/memory/MEMORY.md', '#/settings/models']);

    history.back();
    await flush();
    expect(store.getState().app.view).toBe('memory');
    expect(store.getState().memory.openPath).toBe('MEMORY.md');
    history.back();
    await flush();
    expect(store.getState().app.view).toBe('search');
    expect(store.getState().search.query).toBe('tax module');
    history.forward();
    history.forward();
    await flush();
    expect(store.getState().app.view).toBe('settings');
    expect(store.getState().app.settingsSection).toBe('models');
    // Following the history never rewrote it.
    expect(history.entries()).toEqual(['#/search?q=tax%20module', '#/memory/MEMORY.md', '#/settings/models']);
  });

  it('keeps unsaved edits when Back would open another file and the person says no', async () => {
    const client = createFakeClient({
      'files.read': async ({ path }) => ({ path, text: 'saved', sha256: 'a'.repeat(64), mtimeMs: 0, size: 5 }),
      'files.list': async () => ({ files: [] }),
    });
    const store = createReverieStore(client, { confirm: () => false, reloadPage: () => undefined });
    const history = fakeHistory('#/memory/USER.md');
    syncUrlWithStore(store, history.port);
    await flush();
    store.getState().app.setView('memory');
    await store.getState().memory.openFile('MEMORY.md');
    store.getState().memory.startEditing();
    typeInEditor(store, 'typed, not saved');
    await flush();
    history.back();
    await flush();
    expect(store.getState().memory.openPath).toBe('MEMORY.md');
    expect(store.getState().memory.draftText()).toBe('typed, not saved');
    expect(history.current()).toBe('#/memory/MEMORY.md');
  });
});
