import os from 'node:os';
import type { Worker } from 'node:worker_threads';
import { siblingModule, startModuleWorker } from '../../common/moduleWorker.js';
import type { SearchResult } from '../../api/contract.js';
import type { EmbeddingGeneration } from '../../embed/provider.js';
import type { FromSearchWorker, RecalledEntries, SearchRequest, SearchWorkerData, ToSearchWorker, WorkerSearchAnswer } from './searchWorkerProtocol.js';

export interface SearchWorkerPoolOptions extends SearchWorkerData {
  /** Worker threads; default: one per core, at most 4. */
  size?: number;
  /** A query vector from the model the engine runs, for a worker searching that generation. */
  embedQuery(generation: EmbeddingGeneration, text: string): Promise<Float32Array>;
  /** Workers cannot start (repeatedly): searches stay on the engine thread, and this says why. */
  onDidGiveUp?(message: string): void;
}

/** A search sent to a worker: answered first, then its recalled entries arrive (or it fails; settling twice is a no-op). */
interface Pending {
  resolve(results: SearchResult[]): void;
  reject(error: Error): void;
  resolveRecalled(recalled: RecalledEntries): void;
  rejectRecalled(error: Error): void;
}

interface PooledWorker {
  worker: Worker;
  ready: boolean;
  pending: Map<number, Pending>;
}

const FIRST_RESTART_MS = 500;
const MAX_RESTART_MS = 30_000;
/** Consecutive workers that die before answering anything: the pool stops trying. */
const MAX_FAILED_STARTS = 3;

export function defaultSearchWorkers(): number {
  return Math.max(1, Math.min(4, os.availableParallelism()));
}

/**
 * Searches for a hosting engine on worker threads, each with a read-only connection to the
 * index, so concurrent agent and window searches run in parallel instead of queueing on the
 * one engine thread (which keeps indexing, writing and answering everything else). A search
 * goes to the worker with the fewest in flight; `search` returns null while no worker is
 * ready, and a worker that dies fails its searches with an error — in both cases the caller
 * searches on its own thread. Dead workers are replaced after a growing pause.
 */
export class SearchWorkerPool {
  private readonly workers: PooledWorker[] = [];
  private nextId = 1;
  private closed = false;
  private failedStarts = 0;
  private restartDelay = FIRST_RESTART_MS;
  private readonly timers = new Set<NodeJS.Timeout>();
  private lastFailure: string | null = null;
  private readonly size: number;

  constructor(private readonly options: SearchWorkerPoolOptions) {
    this.size = options.size ?? defaultSearchWorkers();
    for (let i = 0; i < this.size; i++) this.spawn();
  }

  /** Searches answered by workers since the pool started. */
  answered = 0;

  get readyWorkers(): number {
    return this.workers.filter((w) => w.ready).length;
  }

  /** Resolves when at least one worker is ready (or none can start). */
  async whenReady(timeoutMs = 10_000): Promise<boolean> {
    const until = Date.now() + timeoutMs;
    while (!this.closed && this.readyWorkers === 0 && this.failedStarts < MAX_FAILED_STARTS && Date.now() < until) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return this.readyWorkers > 0;
  }

  search(request: SearchRequest): Promise<WorkerSearchAnswer> | null {
    let chosen: PooledWorker | null = null;
    for (const w of this.workers) if (w.ready && (!chosen || w.pending.size < chosen.pending.size)) chosen = w;
    if (!chosen) return null;
    const id = this.nextId++;
    const target = chosen;
    let settleRecalled!: Pick<Pending, 'resolveRecalled' | 'rejectRecalled'>;
    const recalled = new Promise<RecalledEntries>((resolveRecalled, rejectRecalled) => (settleRecalled = { resolveRecalled, rejectRecalled }));
    recalled.catch(() => undefined); // nobody has to wait for the signals
    return new Promise<WorkerSearchAnswer>((resolve, reject) => {
      target.pending.set(id, { resolve: (results) => resolve({ results, recalled }), reject, ...settleRecalled });
      target.worker.postMessage({ type: 'search', id, request } satisfies ToSearchWorker);
    });
  }

  /** Replaces every worker (the index file was replaced: their connections point at the old one). */
  restart(): void {
    for (const w of [...this.workers]) this.retire(w, 'The index was reopened.');
    this.failedStarts = 0;
    this.restartDelay = FIRST_RESTART_MS;
    while (this.workers.length < this.size) this.spawn();
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    const stopping = this.workers.map((w) => {
      this.failAll(w, 'The engine is shutting down.');
      return w.worker.terminate();
    });
    this.workers.length = 0;
    await Promise.allSettled(stopping);
  }

  private spawn(): void {
    const data: SearchWorkerData = { indexPath: this.options.indexPath, vectorBackend: this.options.vectorBackend, workspaceRoot: this.options.workspaceRoot };
    const worker = startModuleWorker(siblingModule(import.meta.url, 'searchWorker'), { workerData: data });
    worker.unref();
    const pooled: PooledWorker = { worker, ready: false, pending: new Map() };
    this.workers.push(pooled);
    let started = false;
    let answered = false;
    worker.on('message', (message: FromSearchWorker) => {
      switch (message.type) {
        case 'ready':
          pooled.ready = started = true;
          this.failedStarts = 0;
          return;
        case 'failed':
          this.lastFailure = message.message;
          return;
        case 'result':
        case 'recalled':
        case 'error': {
          const pending = pooled.pending.get(message.id);
          if (!pending) return;
          if (!answered) {
            // A worker that answers ends a run of crashes: the next replacement is quick again.
            answered = true;
            this.restartDelay = FIRST_RESTART_MS;
          }
          if (message.type === 'result') {
            this.answered++;
            pending.resolve(message.results);
            return;
          }
          pooled.pending.delete(message.id);
          if (message.type === 'recalled') pending.resolveRecalled(message.recalled);
          else this.fail(pending, new Error(message.message));
          return;
        }
        case 'embed':
          this.options.embedQuery(message.generation, message.text).then(
            (vector) => worker.postMessage({ type: 'embedded', id: message.id, vector } satisfies ToSearchWorker),
            (error: unknown) => worker.postMessage({ type: 'embed-failed', id: message.id, message: (error as Error).message } satisfies ToSearchWorker),
          );
      }
    });
    worker.on('error', (error) => {
      this.lastFailure = error.message;
    });
    worker.on('exit', () => {
      if (!this.workers.includes(pooled)) return; // retired or closed on purpose
      this.retire(pooled, `A search worker stopped${this.lastFailure ? `: ${this.lastFailure}` : ''}.`);
      if (!started) this.failedStarts++;
      this.scheduleReplacement();
    });
  }

  private scheduleReplacement(): void {
    if (this.closed) return;
    if (this.failedStarts >= MAX_FAILED_STARTS) {
      this.options.onDidGiveUp?.(`Search workers could not start (${this.lastFailure ?? 'no reason given'}); searches run on the engine thread.`);
      return;
    }
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      if (!this.closed) this.spawn();
    }, this.restartDelay);
    timer.unref();
    this.timers.add(timer);
    this.restartDelay = Math.min(MAX_RESTART_MS, this.restartDelay * 2);
  }

  private retire(pooled: PooledWorker, why: string): void {
    const index = this.workers.indexOf(pooled);
    if (index >= 0) this.workers.splice(index, 1);
    this.failAll(pooled, why);
    void pooled.worker.terminate();
  }

  private fail(pending: Pending, error: Error): void {
    pending.reject(error);
    pending.rejectRecalled(error);
  }

  private failAll(pooled: PooledWorker, why: string): void {
    pooled.ready = false;
    for (const pending of pooled.pending.values()) this.fail(pending, new Error(why));
    pooled.pending.clear();
  }
}
