import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { OperationInput, WorkspaceInfo } from '../../core/src/contract/index.js';
import { MemoryClientError } from '../src/client/clientError.js';
import { connectStore, createReverieStore, type ReverieStore } from '../src/store/store.js';
import { StoreContext } from '../src/store/useReverie.js';
import { serveCommandFor } from '../src/store/welcomeSlice.js';
import { WelcomePanel } from '../src/views/welcome/WelcomePanel.js';
import { createFakeClient } from './fakeClient.js';
import { statusOutput } from './statusFixtures.js';

const render = (store: ReverieStore): string =>
  renderToStaticMarkup(createElement(StoreContext.Provider, { value: { ...store, getInitialState: store.getState } }, createElement(WelcomePanel)));

const FIRST_RUN: WorkspaceInfo = {
  root: '/home/ada/Reverie',
  firstRun: true,
  openClaw: null,
  starterDir: '/home/ada/Reverie',
  canPickFolder: false,
};

/**
 * A fake engine that chooses workspaces like the real one: relative paths and missing folders
 * (without `create`) are refused with the engine's message; `serve` needs a restart, desktop does not.
 */
function workspaceEngine(info: Partial<WorkspaceInfo> = {}, { host = 'serve' as 'serve' | 'desktop', picked = null as string | null } = {}) {
  let current: WorkspaceInfo = { ...FIRST_RUN, ...info };
  const existing = new Set([current.root, '/home/ada/.openclaw/workspace', '/home/ada/notes']);
  const opened: Array<OperationInput<'workspace.open'>> = [];
  const client = createFakeClient({
    status: async () => statusOutput(),
    'files.list': async () => ({ files: [] }),
    'import.reports': async () => ({ reports: [] }),
    'import.detect': async () => ({ sources: [] }),
    'workspace.info': async () => ({ ...current }),
    'workspace.open': async (input) => {
      opened.push(input);
      const folder = input.path ?? picked ?? current.root;
      if (!folder.startsWith('/')) throw new MemoryClientError('invalid-input', `Workspace path "${folder}" is not absolute. Give the full path of a folder.`);
      if (!existing.has(folder)) {
        if (!input.create) throw new MemoryClientError('workspace-missing', `Workspace folder ${folder} does not exist.`);
        existing.add(folder);
      }
      const changed = folder !== current.root;
      current = { ...current, firstRun: false };
      return { root: folder, changed, restartRequired: changed && host === 'serve' };
    },
  });
  let reloads = 0;
  const store = createReverieStore(client, { confirm: () => true, reloadPage: () => void reloads++ });
  connectStore(store, client);
  return { client, store, opened, reloads: () => reloads, welcome: () => store.getState().welcome };
}

async function loaded(engine: ReturnType<typeof workspaceEngine>): Promise<ReturnType<typeof workspaceEngine>> {
  await vi.waitFor(() => expect(engine.welcome().info).not.toBeNull());
  return engine;
}

describe('first-run welcome', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('shows on the first run, with the workspace path, and not otherwise', async () => {
    const first = await loaded(workspaceEngine());
    expect(first.welcome().phase).toBe('choose');
    const html = render(first.store);
    expect(html).toContain('a folder of plain Markdown files');
    expect(html).toContain('/home/ada/Reverie');
    expect(html).toContain('Keep this workspace');
    expect(html).toContain('Choose another folder…');
    expect(html).not.toContain('OpenClaw');

    const later = await loaded(workspaceEngine({ firstRun: false }));
    expect(later.welcome().phase).toBe('hidden');
    expect(render(later.store)).toBe('');
  });

  it('offers the OpenClaw workspace when one was found, and opens it', async () => {
    const engine = await loaded(workspaceEngine({ openClaw: '/home/ada/.openclaw/workspace' }, { host: 'desktop' }));
    expect(render(engine.store)).toContain('Use my OpenClaw workspace (/home/ada/.openclaw/workspace)');
    await engine.welcome().openOpenClaw();
    expect(engine.opened).toEqual([{ path: '/home/ada/.openclaw/workspace', create: false }]);
    // Desktop: the engine restarts on it, and the page reloads once it runs.
    expect(engine.welcome().phase).toBe('switching');
    expect(render(engine.store)).toContain('this window reloads when it is ready');
    engine.client.emit({ type: 'engine-state', state: 'restarting', message: 'Opening the workspace you chose.' });
    engine.client.emit({ type: 'engine-state', state: 'running', message: null });
    expect(engine.reloads()).toBe(1);
  });

  it('keep: opens the same workspace (marking the welcome done), then offers imports that lead to the Imports view', async () => {
    const engine = await loaded(workspaceEngine());
    await engine.welcome().keepWorkspace();
    expect(engine.opened).toEqual([{ path: '/home/ada/Reverie', create: false }]);
    expect(engine.welcome().phase).toBe('chosen');
    const html = render(engine.store);
    expect(html).toContain('Import memory from your agents');
    expect(html).not.toContain('reverie serve --workspace');

    engine.welcome().openImports();
    expect(engine.store.getState().app.view).toBe('imports');
    expect(render(engine.store)).toBe('');
  });

  it('dismiss counts as keep and closes the welcome', async () => {
    const engine = await loaded(workspaceEngine());
    await engine.welcome().dismiss();
    expect(engine.opened).toEqual([{ path: '/home/ada/Reverie', create: false }]);
    expect(engine.welcome().phase).toBe('hidden');
    expect(render(engine.store)).toBe('');
  });

  it('without a folder picker: a typed path, refused while missing, created when asked; serve shows the exact restart command', async () => {
    const engine = await loaded(workspaceEngine());
    await engine.welcome().chooseAnotherFolder();
    expect(engine.opened).toEqual([]); // no picker call in a browser
    expect(engine.welcome().isTypingPath).toBe(true);
    let html = render(engine.store);
    expect(html).toContain('data-testid="welcome-path-input"');
    expect(html).toContain('Create it if missing');

    engine.welcome().setTypedPath('notes/new');
    await engine.welcome().openTypedPath();
    expect(engine.welcome().error).toBe('Workspace path "notes/new" is not absolute. Give the full path of a folder.');

    engine.welcome().setTypedPath('  /home/ada/Memory  ');
    await engine.welcome().openTypedPath();
    expect(engine.welcome().phase).toBe('choose');
    html = render(engine.store);
    expect(html).toContain('role="alert"');
    expect(html).toContain('Workspace folder /home/ada/Memory does not exist.');

    engine.welcome().setCreateIfMissing(true);
    await engine.welcome().openTypedPath();
    expect(engine.opened.at(-1)).toEqual({ path: '/home/ada/Memory', create: true });
    expect(engine.welcome().phase).toBe('chosen');
    expect(engine.welcome().error).toBeNull();
    html = render(engine.store);
    expect(html).toContain('reverie serve --workspace &quot;/home/ada/Memory&quot;');
    expect(serveCommandFor('/home/ada/Memory')).toBe('reverie serve --workspace "/home/ada/Memory"');
    // Imports would land in the old workspace until the restart: no import button here.
    expect(html).not.toContain('data-testid="welcome-import"');
    expect(engine.reloads()).toBe(0);
  });

  it('an empty typed path is refused before asking the engine', async () => {
    const engine = await loaded(workspaceEngine());
    await engine.welcome().chooseAnotherFolder();
    engine.welcome().setTypedPath('   ');
    await engine.welcome().openTypedPath();
    expect(engine.opened).toEqual([]);
    expect(engine.welcome().error).toContain('full path');
  });

  it('with a folder picker: asks with path null; a cancelled picker leaves the choice open', async () => {
    const cancelled = await loaded(workspaceEngine({ canPickFolder: true }, { host: 'desktop' }));
    await cancelled.welcome().chooseAnotherFolder();
    expect(cancelled.opened).toEqual([{ path: null, create: false }]);
    expect(cancelled.welcome().phase).toBe('choose');
    expect(render(cancelled.store)).toContain('No other folder was chosen; the workspace stays at /home/ada/Reverie.');

    const picked = await loaded(workspaceEngine({ canPickFolder: true }, { host: 'desktop', picked: '/home/ada/notes' }));
    await picked.welcome().chooseAnotherFolder();
    expect(picked.welcome().phase).toBe('switching');
    expect(picked.welcome().choice).toEqual({ root: '/home/ada/notes', changed: true, restartRequired: false });
  });

  it('after the desktop reload on the new workspace, the import offer is still made once', async () => {
    const session = new Map<string, string>();
    vi.stubGlobal('sessionStorage', {
      getItem: (key: string) => session.get(key) ?? null,
      setItem: (key: string, value: string) => void session.set(key, value),
      removeItem: (key: string) => void session.delete(key),
    });
    const before = await loaded(workspaceEngine({ canPickFolder: true }, { host: 'desktop', picked: '/home/ada/notes' }));
    await before.welcome().chooseAnotherFolder();
    expect(before.welcome().phase).toBe('switching');

    // The reloaded page: the engine says the welcome is done, but the choice was just made.
    const after = await loaded(workspaceEngine({ root: '/home/ada/notes', firstRun: false }, { host: 'desktop' }));
    expect(after.welcome().phase).toBe('chosen');
    expect(render(after.store)).toContain('Import memory from your agents');

    const next = await loaded(workspaceEngine({ root: '/home/ada/notes', firstRun: false }, { host: 'desktop' }));
    expect(next.welcome().phase).toBe('hidden');
  });
});
