import { describe, expect, it } from 'vitest';
import { VIEWS, isView } from '../src/store/appSlice.js';
import { connectStore, createReverieStore } from '../src/store/store.js';
import { createFakeClient } from './fakeClient.js';
import { statusOutput } from './statusFixtures.js';

function desktopWindow() {
  const client = createFakeClient({
    status: async () => statusOutput(),
    'files.list': async () => ({ files: [] }),
    'import.reports': async () => ({ reports: [] }),
    'import.detect': async () => ({ sources: [] }),
    'workspace.info': async () => ({ root: '/w', firstRun: false, openClaw: null, starterDir: '/w', canPickFolder: true }),
  });
  const store = createReverieStore(client, { confirm: () => true, reloadPage: () => undefined });
  connectStore(store, client);
  return { client, app: () => store.getState().app };
}

describe('menu and tray commands', () => {
  it('focus-search goes to Search and asks the search input for focus, every time', () => {
    const { client, app } = desktopWindow();
    app().setView('status');
    client.emit({ type: 'app-command', command: 'focus-search', view: null });
    expect(app().view).toBe('search');
    expect(app().searchFocusRequest).toBe(1);

    // Already on Search (the input lost focus to a result): focus it again.
    client.emit({ type: 'app-command', command: 'focus-search', view: null });
    expect(app().view).toBe('search');
    expect(app().searchFocusRequest).toBe(2);
  });

  it('show-view switches to the named view', () => {
    const { client, app } = desktopWindow();
    client.emit({ type: 'app-command', command: 'show-view', view: 'imports' });
    expect(app().view).toBe('imports');
    client.emit({ type: 'app-command', command: 'show-view', view: 'status' });
    expect(app().view).toBe('status');
  });

  it('show-view ignores names that are not views', () => {
    const { client, app } = desktopWindow();
    app().setView('memory');
    client.emit({ type: 'app-command', command: 'show-view', view: 'preferences' });
    client.emit({ type: 'app-command', command: 'show-view', view: null });
    client.emit({ type: 'app-command', command: 'show-view', view: 'constructor' });
    expect(app().view).toBe('memory');
    expect(app().searchFocusRequest).toBe(0);
  });

  it('knows every view of the navigation by id', () => {
    expect(VIEWS).toEqual(['search', 'memory', 'imports', 'dreams', 'graph', 'agents', 'status', 'settings']);
    expect(isView('graph')).toBe(true);
    expect(isView('Graph')).toBe(false);
  });
});
