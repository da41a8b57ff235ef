// Sandboxed preload: exposes exactly one global, `window.reverie`, backed by one IPC channel.
// No other Electron or Node API reaches the page. CommonJS because sandboxed preloads cannot load ESM.
import electron = require('electron');
import type { IpcRendererEvent } from 'electron';

const { contextBridge, ipcRenderer } = electron;

const CALL_CHANNEL = 'reverie:call';
const EVENT_CHANNEL = 'reverie:event';

contextBridge.exposeInMainWorld('reverie', {
  // Returns the reply envelope {ok, result} | {ok: false, error: {code, message}} unchanged:
  // errors thrown across contextBridge lose their properties, and the UI needs `code` (e.g. conflict).
  call: async (name: unknown, input: unknown): Promise<unknown> => {
    if (typeof name !== 'string' || name.length > 64) {
      return { ok: false, error: { code: 'invalid-input', message: 'reverie.call: operation name must be a short string' } };
    }
    return ipcRenderer.invoke(CALL_CHANNEL, name, input);
  },
  on: (listener: (event: unknown) => void): (() => void) => {
    const handler = (_event: IpcRendererEvent, payload: unknown): void => listener(payload);
    ipcRenderer.on(EVENT_CHANNEL, handler);
    return () => ipcRenderer.removeListener(EVENT_CHANNEL, handler);
  },
});
