import { ipcMain, type IpcMainInvokeEvent, type WebContents } from 'electron';
import { EngineEvent, isOperationName, operations, type ErrorPayload, type OperationName } from '../../core/src/contract/index.js';
import type { EngineReply } from './engineConnection.js';
import { isAppUrl } from './windowSecurity.js';

export const CALL_CHANNEL = 'reverie:call';
export const EVENT_CHANNEL = 'reverie:event';

export interface BridgeTarget {
  /** Forwards a validated call to the engine. */
  call(name: OperationName, input: unknown): Promise<EngineReply>;
  /** Calls the main process answers itself before the engine sees them (e.g. a folder picker). */
  intercept?(name: OperationName, input: unknown): Promise<EngineReply | { forward: unknown }> | null;
}

const refuse = (code: ErrorPayload['code'], message: string): EngineReply => ({ ok: false, error: { code, message } });

/** Checks one call from the window against the contract: who sent it, which operation, which input. */
export function validateCall(senderUrl: string | undefined, name: unknown, input: unknown): { ok: true; name: OperationName; input: unknown } | EngineReply {
  if (!isAppUrl(senderUrl)) return refuse('forbidden', 'Calls are only accepted from the Reverie window.');
  if (typeof name !== 'string' || !isOperationName(name)) return refuse('not-found', `Unknown operation "${String(name).slice(0, 64)}".`);
  const parsed = operations[name].input.safeParse(input ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue?.path.length ? `${issue.path.join('.')}: ` : '';
    return refuse('invalid-input', `${name}: ${field}${issue?.message ?? 'invalid input'}`);
  }
  return { ok: true, name, input: parsed.data };
}

/** The one IPC channel: every call is validated here, then answered by the main process or the engine. */
export function registerBridge(target: BridgeTarget): () => void {
  ipcMain.handle(CALL_CHANNEL, async (event: IpcMainInvokeEvent, name: unknown, input: unknown): Promise<EngineReply> => {
    const checked = validateCall(event.senderFrame?.url, name, input);
    if (!('name' in checked)) return checked;
    const intercepted = target.intercept?.(checked.name, checked.input);
    if (intercepted) {
      const answer = await intercepted;
      if (!('forward' in answer)) return answer;
      return target.call(checked.name, answer.forward);
    }
    return target.call(checked.name, checked.input);
  });
  return () => ipcMain.removeHandler(CALL_CHANNEL);
}

/** Events go to the window only when they match the contract. */
export function forwardEvent(contents: WebContents | null | undefined, event: unknown): boolean {
  const parsed = EngineEvent.safeParse(event);
  if (!parsed.success || !contents || contents.isDestroyed()) return false;
  contents.send(EVENT_CHANNEL, parsed.data);
  return true;
}
