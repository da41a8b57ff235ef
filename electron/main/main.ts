import path from 'node:path';
import fs from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { app, BrowserWindow, ipcMain, protocol, session, shell, net } from 'electron';
import type * as Contract from '../../core/src/api/contract.js';
import { EngineConnection } from './engineConnection.js';

// out/electron/electron/main/main.js → the app root holding package.json.
const appRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..');
const rendererDir = path.join(appRoot, 'out', 'renderer');
const preload = path.join(appRoot, 'out', 'electron', 'electron', 'preload', 'preload.cjs');
const APP_ORIGIN = 'app://reverie';

protocol.registerSchemesAsPrivileged([{ scheme: 'app', privileges: { standard: true, secure: true, supportFetchAPI: true } }]);

async function start(): Promise<void> {
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return;
  }
  const contract = (await import(pathToFileURL(path.join(appRoot, 'out', 'core', 'api', 'contract.js')).href)) as typeof Contract;
  await app.whenReady();

  session.defaultSession.setPermissionRequestHandler((_wc, _permission, callback) => callback(false));
  protocol.handle('app', async (request) => {
    const url = new URL(request.url);
    const relative = decodeURIComponent(url.pathname === '/' ? '/index.html' : url.pathname);
    const file = path.resolve(rendererDir, '.' + relative);
    if (!file.startsWith(rendererDir + path.sep) || !fs.existsSync(file)) return new Response('Not found', { status: 404 });
    const response = await net.fetch(pathToFileURL(file).href);
    const headers = new Headers(response.headers);
    headers.set('Content-Security-Policy', contentSecurityPolicy());
    return new Response(response.body, { status: response.status, headers });
  });

  let window: BrowserWindow | null = null;
  const send = (event: unknown): void => window?.webContents.send('reverie:event', event);
  const engineArgs = process.env.REVERIE_DATA_DIR ? ['--data-dir', process.env.REVERIE_DATA_DIR] : [];
  if (process.env.REVERIE_WORKSPACE) engineArgs.push('--workspace', process.env.REVERIE_WORKSPACE);
  const engine = new EngineConnection(appRoot, engineArgs, send);
  engine.start();

  ipcMain.handle('reverie:call', async (event, name: unknown, input: unknown) => {
    if (new URL(event.senderFrame?.url ?? 'about:blank').origin !== APP_ORIGIN) {
      return { ok: false, error: { code: 'forbidden', message: 'Calls are only accepted from the Reverie window.' } };
    }
    if (typeof name !== 'string' || !contract.isOperationName(name)) {
      return { ok: false, error: { code: 'not-found', message: `Unknown operation "${String(name)}".` } };
    }
    const parsed = contract.operations[name].input.safeParse(input ?? {});
    if (!parsed.success) return { ok: false, error: { code: 'invalid-input', message: parsed.error.issues[0]?.message ?? 'invalid input' } };
    return engine.call(name, parsed.data);
  });

  const createWindow = (): BrowserWindow => {
    const win = new BrowserWindow({
      width: 1200,
      height: 800,
      title: 'Reverie',
      webPreferences: { preload, contextIsolation: true, sandbox: true, nodeIntegration: false, webSecurity: true },
    });
    win.webContents.on('will-navigate', (e) => e.preventDefault());
    win.webContents.setWindowOpenHandler(({ url }) => {
      if (/^https?:\/\//.test(url)) void shell.openExternal(url);
      return { action: 'deny' };
    });
    void win.loadURL(`${APP_ORIGIN}/index.html`);
    return win;
  };
  window = createWindow();
  app.on('second-instance', () => {
    if (window?.isMinimized()) window.restore();
    window?.focus();
  });
  app.on('window-all-closed', () => app.quit());
  app.on('before-quit', () => engine.stop());
}

function contentSecurityPolicy(): string {
  return "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'";
}

void start();
