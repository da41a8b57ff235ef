import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

vi.mock('electron', () => import('./electronDouble.js'));
const electron = await import('./electronDouble.js');
const { startDesktopApp } = await import('../main/desktopApp.js');
const { registerAppScheme } = await import('../main/appProtocol.js');
const { CONTENT_SECURITY_POLICY } = await import('../main/windowSecurity.js');

const ENGINE_ENTRY = path.resolve(import.meta.dirname, '../../core/src/host/engineProcess.ts');

function waitFor<T>(probe: () => T | undefined | null | false, timeoutMs = 20_000): Promise<T> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const poll = (): void => {
      const value = probe();
      if (value) return resolve(value);
      if (Date.now() - started > timeoutMs) return reject(new Error('timed out'));
      setTimeout(poll, 20);
    };
    poll();
  });
}

describe('desktop main process wiring (electron double, real engine)', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'reverie-desktop-'));
  const appRoot = path.join(dir, 'app');
  const workspace = path.join(dir, 'ws');
  const dataDir = path.join(dir, 'data');
  let desktop: Awaited<ReturnType<typeof startDesktopApp>>;
  const call = (name: unknown, input: unknown, url = 'app://reverie/index.html'): Promise<unknown> =>
    Promise.resolve(electron.ipcHandlers.get('reverie:call')!({ senderFrame: { url } }, name, input));
  const sentEvents = (): Array<{ type: string } & Record<string, unknown>> =>
    electron.FakeBrowserWindow.created[0]!.webContents.sent.filter((s) => s.channel === 'reverie:event').map((s) => s.payload as { type: string });

  beforeAll(async () => {
    fs.mkdirSync(path.join(appRoot, 'out', 'renderer', 'assets'), { recursive: true });
    fs.writeFileSync(path.join(appRoot, 'out', 'renderer', 'index.html'), '<!doctype html><title>Reverie</title>');
    fs.writeFileSync(path.join(dir, 'secret.txt'), 'outside the renderer');
    fs.mkdirSync(path.join(workspace, 'memory'), { recursive: true });
    fs.writeFileSync(path.join(workspace, 'MEMORY.md'), '# Memory\n\n- Alice maintains the billing service.\n');
    electron.resetElectronDouble();
    registerAppScheme();
    const env = { ...process.env, HOME: path.join(dir, 'home'), REVERIE_DATA_DIR: dataDir, REVERIE_WORKSPACE: workspace };
    desktop = await startDesktopApp({ appRoot, env, platform: 'linux', paths: { engine: ENGINE_ENTRY } });
    await waitFor(() => sentEvents().some((e) => e.type === 'index-ready'));
  }, 60_000);

  afterAll(async () => {
    await desktop?.engine.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('opens one window with the security settings and the app origin', () => {
    expect(electron.FakeBrowserWindow.created).toHaveLength(1);
    const window = electron.FakeBrowserWindow.created[0]!;
    const prefs = window.options.webPreferences as Record<string, unknown>;
    expect(prefs).toMatchObject({ contextIsolation: true, sandbox: true, nodeIntegration: false, webSecurity: true, webviewTag: false, allowRunningInsecureContent: false });
    expect(prefs.preload).toBe(path.join(appRoot, 'out', 'electron', 'preload', 'preload.cjs'));
    expect(window.loadedUrl).toBe('app://reverie/index.html');
    expect(electron.protocolState.privileged).toEqual([{ scheme: 'app', privileges: { standard: true, secure: true, supportFetchAPI: true } }]);
  });

  it('serves the renderer with the CSP header and nothing outside it', async () => {
    const handler = electron.protocolState.handlers.get('app')!;
    const page = await handler(new Request('app://reverie/index.html'));
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
    expect(CONTENT_SECURITY_POLICY).toContain("script-src 'self'");
    expect(CONTENT_SECURITY_POLICY).not.toMatch(/unsafe-(eval|inline)/);
    for (const escape of ['app://reverie/../secret.txt', 'app://reverie/%2e%2e/%2e%2e/secret.txt', 'app://reverie/assets/', 'app://other/index.html']) {
      expect((await handler(new Request(escape))).status, escape).toBe(404);
    }
  });

  it('denies every permission, blocks navigation and new windows, opens only checked links outside', () => {
    const granted: boolean[] = [];
    electron.sessionState.permissionRequest!(null, 'media', (g) => granted.push(g));
    expect(granted).toEqual([false]);
    expect(electron.sessionState.permissionCheck!()).toBe(false);
    const contents = electron.FakeBrowserWindow.created[0]!.webContents;
    const navigate = (url: string): boolean => {
      const event = { prevented: false, preventDefault() { this.prevented = true; } };
      contents.emit('will-navigate', event, url);
      return event.prevented;
    };
    expect(navigate('https://example.com/phish')).toBe(true);
    expect(navigate('file:///etc/passwd')).toBe(true);
    expect(navigate('app://reverie/index.html')).toBe(false);
    expect(contents.windowOpenHandler!({ url: 'https://example.com/docs' })).toEqual({ action: 'deny' });
    expect(contents.windowOpenHandler!({ url: 'javascript:alert(1)' })).toEqual({ action: 'deny' });
    expect(contents.windowOpenHandler!({ url: 'file:///etc/passwd' })).toEqual({ action: 'deny' });
    expect(electron.shellCalls.openExternal).toEqual(['https://example.com/phish', 'https://example.com/docs']);
  });

  it('validates every IPC call against the contract before the engine sees it', async () => {
    expect(await call('status', {}, 'https://evil.example/')).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    expect(await call('fs.readFile', { path: '/etc/passwd' })).toMatchObject({ ok: false, error: { code: 'not-found' } });
    expect(await call('memory.search', { query: 42 })).toMatchObject({ ok: false, error: { code: 'invalid-input', message: expect.stringContaining('memory.search: query') } });
    expect(await call('memory.search', { query: 'x', extra: true })).toMatchObject({ ok: false, error: { code: 'invalid-input' } });
    const found = (await call('memory.search', { query: 'billing service' })) as { ok: boolean; result: { results: Array<{ path: string }> } };
    expect(found.ok).toBe(true);
    expect(found.result.results[0]?.path).toBe('MEMORY.md');
  });

  it('forwards only contract events to the window', async () => {
    const { forwardEvent } = await import('../main/ipcBridge.js');
    const contents = electron.FakeBrowserWindow.created[0]!.webContents;
    expect(forwardEvent(contents as never, { type: 'index-paused', paused: true })).toBe(true);
    expect(forwardEvent(contents as never, { type: 'made-up', payload: 'x' })).toBe(false);
    expect(forwardEvent(contents as never, { type: 'index-paused', paused: 'yes' })).toBe(false);
  });

  it('builds the menu and tray commands and carries them out', async () => {
    const menu = electron.menuState.application as Array<{ label: string; submenu: Array<{ label?: string; click?: () => void }> }>;
    const file = menu.find((m) => m.label === 'File')!.submenu;
    const labels = file.map((i) => i.label).filter(Boolean);
    expect(labels).toEqual(['Open Workspace…', 'Search', 'Dream Now', 'Pause Indexing', 'Open Data Folder', 'Quit Reverie']);
    const item = (label: string): (() => void) => (electron.menuState.application as typeof menu).find((m) => m.label === 'File')!.submenu.find((i) => i.label === label)!.click!;

    item('Search')();
    expect(sentEvents().at(-1)).toEqual({ type: 'app-command', command: 'focus-search', view: null });

    item('Pause Indexing')();
    await waitFor(() => sentEvents().some((e) => e.type === 'index-paused' && e.paused === true));
    const status = (await call('status', {})) as { result: { index: { paused: boolean } } };
    expect(status.result.index.paused).toBe(true);
    expect(labels).toContain('Pause Indexing');
    await waitFor(() => (electron.menuState.application as typeof menu).find((m) => m.label === 'File')!.submenu.some((i) => i.label === 'Resume Indexing'));
    item('Resume Indexing')();
    await waitFor(() => sentEvents().some((e) => e.type === 'index-paused' && e.paused === false));

    item('Open Data Folder')();
    await waitFor(() => electron.shellCalls.openPath.length > 0);
    expect(electron.shellCalls.openPath).toEqual([path.resolve(dataDir)]);

    item('Dream Now')();
    expect(sentEvents().some((e) => e.type === 'app-command' && e.command === 'show-view' && e.view === 'dreams')).toBe(true);
    await waitFor(() => sentEvents().some((e) => e.type === 'dream-complete'), 30_000);
  }, 60_000);

  it('answers a folder-picker request in the main process; cancelling changes nothing', async () => {
    electron.dialogState.nextFolder = null;
    const cancelled = await call('workspace.open', { path: null });
    expect(cancelled).toEqual({ ok: true, result: { root: fs.realpathSync(workspace), changed: false, restartRequired: false } });
  });

  it('a second launch focuses the existing window', () => {
    const window = electron.FakeBrowserWindow.created[0]!;
    const before = window.focused;
    electron.app.emit('second-instance');
    expect(window.focused).toBe(before + 1);
    expect(electron.FakeBrowserWindow.created).toHaveLength(1);
  });

  it('quit waits for the engine to close, then quits', async () => {
    const quits = electron.app.quitCalls;
    electron.app.quit(); // before-quit is held while the engine closes
    expect(desktop!.engine.running).toBe(true);
    await waitFor(() => !desktop!.engine.running);
    await waitFor(() => electron.app.quitCalls === quits + 2); // quit again once the engine is down
  }, 30_000);
});

describe('single instance', () => {
  it('quits when another instance holds the lock', async () => {
    electron.app.singleInstanceLock = false;
    const quits = electron.app.quitCalls;
    expect(await startDesktopApp({ appRoot: os.tmpdir(), env: {}, platform: 'linux' })).toBeNull();
    expect(electron.app.quitCalls).toBe(quits + 1);
    electron.app.singleInstanceLock = true;
  });
});
