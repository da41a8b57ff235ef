import path from 'node:path';
import { utilityProcess, type UtilityProcess } from 'electron';
import type { EngineEvent, ErrorPayload } from '../../core/src/api/contract.js';

type Reply = { ok: true; result: unknown } | { ok: false; error: ErrorPayload };

/**
 * The engine runs in a utilityProcess (the same host entry `reverie serve` uses in Node), so
 * indexing never blocks this process. If it dies, calls fail with a clear error and it restarts.
 */
export class EngineConnection {
  private child: UtilityProcess | null = null;
  private nextId = 1;
  private readonly pending = new Map<number, (reply: Reply) => void>();
  private stopping = false;

  constructor(
    private readonly appRoot: string,
    private readonly args: string[],
    private readonly onEvent: (event: EngineEvent | { type: 'engine-crashed'; message: string }) => void,
  ) {}

  start(): void {
    const entry = path.join(this.appRoot, 'out', 'core', 'host', 'engineProcess.js');
    const child = utilityProcess.fork(entry, this.args, { serviceName: 'Reverie engine', stdio: 'inherit' });
    this.child = child;
    child.on('message', (message: { type?: string; id?: number; event?: EngineEvent } & Partial<Reply>) => {
      if (message.type === 'event' && message.event) this.onEvent(message.event);
      if (message.type === 'result' && typeof message.id === 'number') {
        this.pending.get(message.id)?.(message as Reply);
        this.pending.delete(message.id);
      }
    });
    child.on('exit', (code) => {
      this.child = null;
      for (const resolve of this.pending.values()) resolve({ ok: false, error: { code: 'internal', message: 'The Reverie engine stopped; it is restarting.' } });
      this.pending.clear();
      if (this.stopping) return;
      this.onEvent({ type: 'engine-crashed', message: `The engine process exited (code ${code}); restarting.` });
      setTimeout(() => this.start(), 1000);
    });
  }

  call(name: string, input: unknown): Promise<Reply> {
    const child = this.child;
    if (!child) return Promise.resolve({ ok: false, error: { code: 'internal', message: 'The Reverie engine is not running.' } });
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.pending.set(id, resolve);
      child.postMessage({ type: 'call', id, name, input });
    });
  }

  stop(): void {
    this.stopping = true;
    this.child?.postMessage({ type: 'shutdown' });
  }
}
