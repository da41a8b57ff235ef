// Sandboxed preload: exposes exactly one global, `window.reverie` {call, on}, backed by one IPC
// channel. No other Electron or Node API reaches the page. Bundled to CommonJS by Vite
// (electron/preload/vite.config.ts) because a sandboxed preload cannot load modules.
import './zodJitless.js';
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { EngineEvent, isOperationName, operations } from '../../core/src/contract/index.js';

const CALL_CHANNEL = 'reverie:call';
const EVENT_CHANNEL = 'reverie:event';

type Envelope = { ok: true; result: unknown } | { ok: false; error: { code: string; message: string } };

const refuse = (code: string, message: string): Envelope => ({ ok: false, error: { code, message } });

/**
 * Returns the reply envelope unchanged: errors thrown across contextBridge lose their
 * properties, and the UI needs `code` (e.g. conflict). Input is checked here and again in main.
 */
async function call(name: unknown, input: unknown): Promise<Envelope> {
  if (typeof name !== 'string' || !isOperationName(name)) return refuse('not-found', `reverie.call: unknown operation "${String(name).slice(0, 64)}"`);
  const parsed = operations[name].input.safeParse(input ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return refuse('invalid-input', `${name}: ${issue?.path.length ? issue.path.join('.') + ': ' : ''}${issue?.message ?? 'invalid input'}`);
  }
  return (await ipcRenderer.invoke(CALL_CHANNEL, name, parsed.data)) as Envelope;
}

function on(listener: (event: unknown) => void): () => void {
  if (typeof listener !== 'function') throw new TypeError('reverie.on expects a function');
  const handler = (_event: IpcRendererEvent, payload: unknown): void => {
    const parsed = EngineEvent.safeParse(payload);
    if (parsed.success) listener(parsed.data);
  };
  ipcRenderer.on(EVENT_CHANNEL, handler);
  return () => void ipcRenderer.removeListener(EVENT_CHANNEL, handler);
}

contextBridge.exposeInMainWorld('reverie', { call, on });
