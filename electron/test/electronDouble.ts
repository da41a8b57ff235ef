/**
 * A small stand-in for the `electron` module, used only at that boundary (vi.mock('electron')).
 * It records what the main process asks of Electron; `utilityProcess.fork` starts a real Node
 * child process running the real engine entry, so lifecycle tests exercise the real engine.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { EventEmitter } from 'node:events';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';

type Listener = (...args: unknown[]) => void;

class Emitter {
  private readonly emitter = new EventEmitter();
  on(event: string, listener: Listener): this {
    this.emitter.on(event, listener);
    return this;
  }
  once(event: string, listener: Listener): this {
    this.emitter.once(event, listener);
    return this;
  }
  emit(event: string, ...args: unknown[]): boolean {
    return this.emitter.emit(event, ...args);
  }
  listenerCount(event: string): number {
    return this.emitter.listenerCount(event);
  }
}

export class FakeApp extends Emitter {
  singleInstanceLock = true;
  quitCalls = 0;
  requestSingleInstanceLock(): boolean {
    return this.singleInstanceLock;
  }
  whenReady(): Promise<void> {
    return Promise.resolve();
  }
  quit(): void {
    this.quitCalls++;
    const event = { defaultPrevented: false, preventDefault() { this.defaultPrevented = true; } };
    this.emit('before-quit', event);
    if (!event.defaultPrevented) this.emit('will-quit');
  }
}

export class FakeWebContents extends Emitter {
  sent: Array<{ channel: string; payload: unknown }> = [];
  windowOpenHandler: ((details: { url: string }) => { action: string }) | null = null;
  destroyed = false;
  send(channel: string, payload: unknown): void {
    this.sent.push({ channel, payload });
  }
  setWindowOpenHandler(handler: (details: { url: string }) => { action: string }): void {
    this.windowOpenHandler = handler;
  }
  isDestroyed(): boolean {
    return this.destroyed;
  }
}

export class FakeBrowserWindow extends Emitter {
  static created: FakeBrowserWindow[] = [];
  readonly webContents = new FakeWebContents();
  loadedUrl: string | null = null;
  shown = false;
  focused = 0;
  constructor(readonly options: Record<string, unknown>) {
    super();
    FakeBrowserWindow.created.push(this);
  }
  loadURL(url: string): Promise<void> {
    this.loadedUrl = url;
    return Promise.resolve();
  }
  isDestroyed(): boolean {
    return false;
  }
  isMinimized(): boolean {
    return false;
  }
  restore(): void {}
  show(): void {
    this.shown = true;
  }
  focus(): void {
    this.focused++;
  }
}

export const ipcHandlers = new Map<string, (event: unknown, ...args: unknown[]) => unknown>();
export const ipcMain = {
  handle(channel: string, handler: (event: unknown, ...args: unknown[]) => unknown): void {
    if (ipcHandlers.has(channel)) throw new Error(`Attempted to register a second handler for '${channel}'`);
    ipcHandlers.set(channel, handler);
  },
  removeHandler(channel: string): void {
    ipcHandlers.delete(channel);
  },
};

export const protocolState: { privileged: unknown[]; handlers: Map<string, (request: Request) => Promise<Response>> } = { privileged: [], handlers: new Map() };
export const protocol = {
  registerSchemesAsPrivileged(schemes: unknown[]): void {
    protocolState.privileged.push(...schemes);
  },
  handle(scheme: string, handler: (request: Request) => Promise<Response>): void {
    protocolState.handlers.set(scheme, handler);
  },
};

export const net = {
  async fetch(url: string): Promise<Response> {
    return new Response(fs.readFileSync(fileURLToPath(url)), { status: 200, headers: { 'content-type': url.endsWith('.html') ? 'text/html' : 'application/octet-stream' } });
  },
};

export const sessionState: { permissionRequest: ((wc: unknown, permission: string, callback: (granted: boolean) => void) => void) | null; permissionCheck: (() => boolean) | null } = {
  permissionRequest: null,
  permissionCheck: null,
};
export const session = {
  defaultSession: {
    setPermissionRequestHandler(handler: typeof sessionState.permissionRequest): void {
      sessionState.permissionRequest = handler;
    },
    setPermissionCheckHandler(handler: typeof sessionState.permissionCheck): void {
      sessionState.permissionCheck = handler;
    },
  },
};

export const shellCalls: { openExternal: string[]; openPath: string[] } = { openExternal: [], openPath: [] };
export const shell = {
  openExternal(url: string): Promise<void> {
    shellCalls.openExternal.push(url);
    return Promise.resolve();
  },
  openPath(p: string): Promise<string> {
    shellCalls.openPath.push(p);
    return Promise.resolve('');
  },
};

export const dialogState: { nextFolder: string | null; messages: unknown[] } = { nextFolder: null, messages: [] };
export const dialog = {
  showOpenDialog(...args: unknown[]): Promise<{ canceled: boolean; filePaths: string[] }> {
    void args;
    const folder = dialogState.nextFolder;
    return Promise.resolve(folder ? { canceled: false, filePaths: [folder] } : { canceled: true, filePaths: [] });
  },
  showMessageBox(options: unknown): Promise<{ response: number }> {
    dialogState.messages.push(options);
    return Promise.resolve({ response: 0 });
  },
};

export const menuState: { application: unknown[] | null } = { application: null };
export const Menu = {
  buildFromTemplate(template: unknown[]): unknown[] {
    return template;
  },
  setApplicationMenu(menu: unknown[] | null): void {
    menuState.application = menu;
  },
};

export class Tray extends Emitter {
  menu: unknown = null;
  constructor(readonly image: unknown) {
    super();
  }
  setToolTip(): void {}
  setContextMenu(menu: unknown): void {
    this.menu = menu;
  }
  destroy(): void {}
}
export const nativeImage = { createFromPath: (p: string): { path: string } => ({ path: p }) };

/** UtilityProcess over a real Node child process (IPC channel instead of a MessagePort). */
export class NodeUtilityProcess extends Emitter {
  static forked: NodeUtilityProcess[] = [];
  readonly child: ChildProcess;
  constructor(entry: string, args: string[], options: { env?: NodeJS.ProcessEnv }) {
    super();
    this.child = fork(entry, args, { env: options.env, execArgv: ['--import', 'tsx'], stdio: ['ignore', 'ignore', 'pipe', 'ipc'] });
    this.child.on('message', (message) => this.emit('message', message));
    this.child.on('exit', (code, signal) => this.emit('exit', code ?? (signal ? 1 : 0)));
    NodeUtilityProcess.forked.push(this);
  }
  get pid(): number | undefined {
    return this.child.pid;
  }
  postMessage(message: unknown): void {
    if (this.child.connected) this.child.send(message as never);
  }
  kill(): boolean {
    return this.child.kill('SIGKILL');
  }
}
export const utilityProcess = {
  fork(entry: string, args: string[], options: { env?: NodeJS.ProcessEnv }): NodeUtilityProcess {
    return new NodeUtilityProcess(entry, args, options);
  },
};

export const app = new FakeApp();

export function resetElectronDouble(): void {
  ipcHandlers.clear();
  protocolState.privileged.length = 0;
  protocolState.handlers.clear();
  sessionState.permissionRequest = null;
  sessionState.permissionCheck = null;
  shellCalls.openExternal.length = 0;
  shellCalls.openPath.length = 0;
  dialogState.nextFolder = null;
  dialogState.messages.length = 0;
  menuState.application = null;
  FakeBrowserWindow.created.length = 0;
}

export const BrowserWindow = FakeBrowserWindow;
