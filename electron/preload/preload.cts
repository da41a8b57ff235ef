// Sandboxed preload: exposes exactly one global, `window.reverie`, backed by one IPC channel.
// No other Electron or Node API reaches the page. CommonJS because sandboxed preloads cannot load ESM.
import electron = require('electron');
import type { IpcRendererEvent } from 'electron';

const { contextBridge, ipcRenderer } = electron;

const CALL_CHANNEL = 'reverie:call';
const EVENT_CHANNEL = 'reverie:event';

contextBridge.exposeInMainWorld('reverie', {
  call: async (name: unknown, input: unknown): Promise<unknown> => {
    if (typeof name !== 'string' || name.length > 64) throw new Error('reverie.call: operation name must be a short string');
    const reply = (await ipcRenderer.invoke(CALL_CHANNEL, name, input)) as
      | { ok: true; result: unknown }
      | { ok: false; error: { code: string; message: string } };
    if (reply.ok) return reply.result;
    const error = new Error(reply.error.message) as Error & { code?: string };
    error.code = reply.error.code;
    throw error;
  },
  on: (listener: (event: unknown) => void): (() => void) => {
    const handler = (_event: IpcRendererEvent, payload: unknown): void => listener(payload);
    ipcRenderer.on(EVENT_CHANNEL, handler);
    return () => ipcRenderer.removeListener(EVENT_CHANNEL, handler);
  },
});
