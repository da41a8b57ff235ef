import { utilityProcess, type UtilityProcess } from 'electron';
import type { EngineEvent, ErrorPayload } from '../../core/src/contract/index.js';

export type EngineReply = { ok: true; result: unknown } | { ok: false; error: ErrorPayload };

/** What the engine process posts (see core/src/host/engineProcess.ts). */
type EngineMessage =
  | { type: 'ready'; workspace: string }
  | { type: 'result'; id: number; ok: boolean; result?: unknown; error?: ErrorPayload }
  | { type: 'event'; event: EngineEvent }
  | { type: 'restart'; workspace: string }
  | { type: 'fatal'; error: ErrorPayload };

export interface EngineConnectionOptions {
  /** The engine host entry (out/core/host/engineProcess.js). */
  entry: string;
  /** `--data-dir` / `--workspace` for the engine. */
  args: string[];
  env: NodeJS.ProcessEnv;
  onDidEmitEvent: (event: EngineEvent) => void;
  /** Test seam: real timers in the app. */
  setTimer?: (fn: () => void, ms: number) => unknown;
}

const RESTART_DELAYS_MS = [500, 1_000, 2_000, 5_000, 10_000, 30_000];
/** An engine that ran this long without crashing resets the back-off. */
const HEALTHY_AFTER_MS = 60_000;
const QUIT_TIMEOUT_MS = 10_000;

/**
 * The engine runs in a utilityProcess (the same host entry `reverie serve` uses in Node), so
 * indexing never blocks this process. If it dies, pending calls fail with a clear error, the
 * window is told, and it restarts with a growing delay.
 */
export class EngineConnection {
  private child: UtilityProcess | null = null;
  private nextId = 1;
  private readonly pending = new Map<number, (reply: EngineReply) => void>();
  private stopping: Promise<void> | null = null;
  private restartRequested = false;
  private crashes = 0;
  private startedAt = 0;
  private args: string[];
  private readonly setTimer: (fn: () => void, ms: number) => unknown;

  constructor(private readonly options: EngineConnectionOptions) {
    this.args = [...options.args];
    this.setTimer = options.setTimer ?? ((fn, ms) => setTimeout(fn, ms));
  }

  get running(): boolean {
    return this.child !== null;
  }

  start(): void {
    const child = utilityProcess.fork(this.options.entry, this.args, { serviceName: 'Reverie engine', stdio: 'inherit', env: this.options.env });
    this.child = child;
    this.startedAt = Date.now();
    child.on('message', (message: EngineMessage) => this.onMessage(message));
    child.on('exit', (code) => this.onExit(child, code));
  }

  call(name: string, input: unknown): Promise<EngineReply> {
    const child = this.child;
    if (!child || this.stopping) {
      return Promise.resolve({ ok: false, error: { code: 'internal', message: 'The Reverie engine is not running (it is restarting or the app is quitting). Try again in a moment.' } });
    }
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.pending.set(id, resolve);
      child.postMessage({ type: 'call', id, name, input });
    });
  }

  /** Graceful quit: the engine finishes its transaction, closes the index and the agent socket. */
  stop(): Promise<void> {
    if (this.stopping) return this.stopping;
    const child = this.child;
    if (!child) return (this.stopping = Promise.resolve());
    this.stopping = new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.postMessage({ type: 'shutdown' });
      this.setTimer(() => {
        if (this.child === child) child.kill();
      }, QUIT_TIMEOUT_MS);
    });
    return this.stopping;
  }

  private onMessage(message: EngineMessage): void {
    switch (message.type) {
      case 'result': {
        const resolve = this.pending.get(message.id);
        this.pending.delete(message.id);
        resolve?.(message.ok ? { ok: true, result: message.result } : { ok: false, error: message.error ?? { code: 'internal', message: 'The engine failed without a message.' } });
        return;
      }
      case 'event':
        this.options.onDidEmitEvent(message.event);
        return;
      case 'ready':
        this.options.onDidEmitEvent({ type: 'engine-state', state: 'running', message: null });
        return;
      case 'restart':
        // The person chose another workspace: the engine saved it; start again without the override.
        this.restartRequested = true;
        this.args = withoutOption(this.args, '--workspace');
        return;
      case 'fatal':
        this.options.onDidEmitEvent({ type: 'engine-state', state: 'crashed', message: message.error.message });
        return;
    }
  }

  private onExit(child: UtilityProcess, code: number): void {
    if (this.child !== child) return;
    this.child = null;
    for (const resolve of this.pending.values()) resolve({ ok: false, error: { code: 'internal', message: 'The Reverie engine stopped before answering; it is restarting.' } });
    this.pending.clear();
    if (this.stopping) return;
    if (this.restartRequested) {
      this.restartRequested = false;
      this.options.onDidEmitEvent({ type: 'engine-state', state: 'restarting', message: 'Opening the workspace you chose.' });
      this.start();
      return;
    }
    if (Date.now() - this.startedAt > HEALTHY_AFTER_MS) this.crashes = 0;
    const delay = RESTART_DELAYS_MS[Math.min(this.crashes, RESTART_DELAYS_MS.length - 1)]!;
    this.crashes++;
    this.options.onDidEmitEvent({ type: 'engine-state', state: 'crashed', message: `The engine process exited (code ${code}); restarting in ${delay / 1000} s.` });
    this.setTimer(() => {
      if (this.stopping) return;
      this.options.onDidEmitEvent({ type: 'engine-state', state: 'restarting', message: null });
      this.start();
    }, delay);
  }
}

function withoutOption(args: string[], name: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    if (args[i] === name) i++;
    else out.push(args[i]!);
  }
  return out;
}
