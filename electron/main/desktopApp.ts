import fs from 'node:fs';
import path from 'node:path';
import { app, BrowserWindow, dialog, Menu, nativeImage, session, shell, Tray } from 'electron';
import type { EngineEvent, OperationName, WorkspaceInfo } from '../../core/src/contract/index.js';
import { applicationMenuTemplate, trayMenuTemplate, type AppCommands } from './appMenu.js';
import { serveRenderer } from './appProtocol.js';
import { EngineConnection, type EngineReply } from './engineConnection.js';
import { forwardEvent, registerBridge } from './ipcBridge.js';
import { APP_ORIGIN, denyAllPermissions, hardenWebContents, secureWindowOptions } from './windowSecurity.js';

export interface DesktopAppOptions {
  /** The folder holding package.json and out/. */
  appRoot: string;
  env: NodeJS.ProcessEnv;
  platform: NodeJS.Platform;
  /** Tests point the engine at its TypeScript entry. */
  paths?: Partial<AppPaths>;
}

export type AppPaths = ReturnType<typeof appPaths>;

export interface DesktopApp {
  engine: EngineConnection;
  window(): BrowserWindow | null;
}

/** Paths inside the built app (see scripts/build.mjs). */
export function appPaths(appRoot: string): { renderer: string; preload: string; engine: string; trayIcon: string } {
  return {
    renderer: path.join(appRoot, 'out', 'renderer'),
    preload: path.join(appRoot, 'out', 'electron', 'preload', 'preload.cjs'),
    engine: path.join(appRoot, 'out', 'core', 'host', 'engineProcess.js'),
    trayIcon: path.join(appRoot, 'resources', 'icons', 'tray.png'),
  };
}

/** `--data-dir` / `--workspace` for the engine, from the environment the app was started with. */
export function engineArgs(env: NodeJS.ProcessEnv): string[] {
  const args: string[] = [];
  if (env.REVERIE_DATA_DIR) args.push('--data-dir', env.REVERIE_DATA_DIR);
  if (env.REVERIE_WORKSPACE) args.push('--workspace', env.REVERIE_WORKSPACE);
  return args;
}

/**
 * The main process: one window, the menu and tray, and a broker between the window and the
 * engine process. No memory logic lives here. Returns null when another instance runs (it was focused).
 */
export async function startDesktopApp(options: DesktopAppOptions): Promise<DesktopApp | null> {
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return null;
  }
  await app.whenReady();
  const paths = { ...appPaths(options.appRoot), ...options.paths };
  denyAllPermissions(session.defaultSession);
  serveRenderer(paths.renderer);

  let window: BrowserWindow | null = null;
  let indexingPaused = false;
  let tray: Tray | null = null;
  const isMac = options.platform === 'darwin';

  const onEngineEvent = (event: EngineEvent): void => {
    if (event.type === 'index-paused' && event.paused !== indexingPaused) {
      indexingPaused = event.paused;
      rebuildMenus();
    }
    forwardEvent(window?.webContents, event);
  };
  const engine = new EngineConnection({ entry: paths.engine, args: engineArgs(options.env), env: options.env, onDidEmitEvent: onEngineEvent });
  engine.start();

  const showWindow = (): BrowserWindow => {
    if (!window || window.isDestroyed()) window = createWindow(paths.preload);
    if (window.isMinimized()) window.restore();
    window.show();
    window.focus();
    return window;
  };
  const sendCommand = (command: 'focus-search' | 'show-view', view: string | null = null): void => {
    forwardEvent(showWindow().webContents, { type: 'app-command', command, view });
  };
  const reportFailure = (what: string, reply: EngineReply): void => {
    if (reply.ok) return;
    void dialog.showMessageBox({ type: 'warning', message: `${what} failed`, detail: reply.error.message });
  };

  /** The folder picker: the one part of "open a workspace" only the main process can do. */
  const pickWorkspace = async (): Promise<EngineReply> => {
    const info = await engine.call('workspace.info', {});
    const current = info.ok ? (info.result as WorkspaceInfo).root : '';
    const parent = window && !window.isDestroyed() ? window : undefined;
    const dialogOptions = { title: 'Choose your Reverie workspace', defaultPath: current || undefined, properties: ['openDirectory' as const, 'createDirectory' as const] };
    const picked = parent ? await dialog.showOpenDialog(parent, dialogOptions) : await dialog.showOpenDialog(dialogOptions);
    const folder = picked.filePaths[0];
    if (picked.canceled || !folder) return { ok: true, result: { root: current, changed: false, restartRequired: false } };
    return engine.call('workspace.open', { path: folder, create: false });
  };

  const commands: AppCommands = {
    openWorkspace: () => void pickWorkspace().then((reply) => reportFailure('Opening the workspace', reply)),
    search: () => sendCommand('focus-search'),
    dreamNow: () => {
      sendCommand('show-view', 'dreams');
      void engine.call('dream.run', { dryRun: false }).then((reply) => reportFailure('Dreaming', reply));
    },
    setIndexingPaused: (paused) => void engine.call('index.pause', { paused }).then((reply) => reportFailure(paused ? 'Pausing indexing' : 'Resuming indexing', reply)),
    openDataFolder: () =>
      void engine.call('status', {}).then((reply) => {
        if (reply.ok) void shell.openPath((reply.result as { dataDir: string }).dataDir);
        else reportFailure('Opening the data folder', reply);
      }),
    showWindow: () => void showWindow(),
    quit: () => app.quit(),
  };
  const rebuildMenus = (): void => {
    const state = { indexingPaused, isMac };
    Menu.setApplicationMenu(Menu.buildFromTemplate(applicationMenuTemplate(commands, state)));
    tray?.setContextMenu(Menu.buildFromTemplate(trayMenuTemplate(commands, state)));
  };

  registerBridge({
    call: (name, input) => engine.call(name, input),
    intercept: (name: OperationName, input) => {
      if (name === 'workspace.open' && (input as { path: string | null }).path === null) return pickWorkspace();
      return null;
    },
  });

  if (fs.existsSync(paths.trayIcon)) {
    tray = new Tray(nativeImage.createFromPath(paths.trayIcon));
    tray.setToolTip('Reverie');
    tray.on('click', () => void showWindow());
  }
  rebuildMenus();
  window = createWindow(paths.preload);

  app.on('second-instance', () => void showWindow());
  app.on('activate', () => void showWindow());
  app.on('window-all-closed', () => {
    if (!isMac) app.quit();
  });
  // Graceful quit: hold the quit until the engine has finished its transaction and closed the index.
  let engineStopped = false;
  app.on('before-quit', (event) => {
    if (engineStopped) return;
    event.preventDefault();
    void engine.stop().then(() => {
      engineStopped = true;
      tray?.destroy();
      app.quit();
    });
  });
  return { engine, window: () => window };
}

function createWindow(preload: string): BrowserWindow {
  const window = new BrowserWindow(secureWindowOptions(preload));
  hardenWebContents(window.webContents);
  window.once('ready-to-show', () => window.show());
  void window.loadURL(`${APP_ORIGIN}/index.html`);
  return window;
}
