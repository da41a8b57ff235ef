import os from 'node:os';
import type { Worker } from 'node:worker_threads';
import { siblingModule, startModuleWorker } from '../../platform/moduleWorker.js';
import type { SearchResult } from '../../contract/index.js';
import type { EmbeddingGeneration } from '../../embed/provider.js';
import type { FromSearchWorker, SearchRequest, SearchWorkerData, ToSearchWorker, WorkerSearchAnswer } from './searchWorkerProtocol.js';
import { processLogger } from '../../platform/log/processLog.js';
import { IndexDamageReport } from '../../index/indexDamage.js';

const log = processLogger('search/workers');

export interface SearchWorkerPoolOptions extends SearchWorkerData {
  /** Worker threads; default: one per core, at most 4. */
  size?: number;
  /** A query vector from the model the engine runs, for a worker searching that generation. */
  embedQuery(generation: EmbeddingGeneration, text: string): Promise<Float32Array>;
  /** Workers cannot start (repeatedly): searches stay on the engine thread, and this says why. */
  onDidGiveUp?(message: string): void;
  /**
   * A worker could not open the index with a corruption error (a search that meets damage
   * rejects with an IndexDamageReport instead). Not proof by itself: the file may have been
   * replaced under it, so the engine checks its own connection.
   */
  onDidFailToOpen?(error: Error & { code: string }): void;
}

/** A search sent to a worker: answered first, then its after-search value arrives (or it fails; settling twice is a no-op). */
interface Pending {
  resolve(results: SearchResult[]): void;
  reject(error: Error): void;
  resolveAfter(value: unknown): void;
  rejectAfter(error: Error): void;
}

interface PooledWorker {
  worker: Worker;
  ready: boolean;
  /** Searches sent to this worker whose after-search value (or error) has not arrived. */
  pending: Map<number, Pending>;
  /** Of those, the ones not answered yet: the worker is searching (or about to). */
  searching: number;
}

interface Queued {
  id: number;
  request: SearchRequest;
  pending: Pending;
}

const FIRST_RESTART_MS = 500;
const MAX_RESTART_MS = 30_000;
/** Consecutive workers that die before answering anything: the pool stops trying. */
const MAX_FAILED_STARTS = 3;
/**
 * Searches a worker is given before it has answered the earlier ones. Two hide the hop back
 * to the engine thread (the next search is already there when one is answered); more would
 * let a search wait behind a slow one while another worker is free.
 */
const SEARCHES_PER_WORKER = 2;

export function defaultSearchWorkers(): number {
  return Math.max(1, Math.min(4, os.availableParallelism()));
}

/**
 * Searches for a hosting engine on worker threads, each with a read-only connection to the
 * index, so concurrent agent and window searches run in parallel instead of queueing on the
 * one engine thread (which keeps indexing, writing and answering everything else). Searches
 * wait in one queue and go to the first worker with room (SEARCHES_PER_WORKER), the idlest
 * first: with one queue per worker a search could wait behind a slow one while the other
 * worker is free. `search` returns null while no worker is ready, and a worker that dies fails its searches with an error — in both cases the caller
 * searches on its own thread. Dead workers are replaced after a growing pause.
 */
export class SearchWorkerPool<After = null> {
  private readonly workers: PooledWorker[] = [];
  private readonly queue: Queued[] = [];
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

  search(request: SearchRequest): Promise<WorkerSearchAnswer<After>> | null {
    if (this.readyWorkers === 0) return null;
    const id = this.nextId++;
    let settleAfter!: Pick<Pending, 'resolveAfter' | 'rejectAfter'>;
    // The worker's after-search module returns this pool's After: the thread boundary is untyped.
    const after = new Promise<After>((resolveAfter, rejectAfter) => (settleAfter = { resolveAfter: (value) => resolveAfter(value as After), rejectAfter }));
    // Nobody has to wait for it; whoever does gets the error.
    after.catch((error: unknown) => log.debug('A search worker could not finish its after-search step', { error }));
    return new Promise<WorkerSearchAnswer<After>>((resolve, reject) => {
      this.queue.push({ id, request, pending: { resolve: (results) => resolve({ results, after }), reject, ...settleAfter } });
      this.dispatch();
    });
  }

  /** Hands queued searches, oldest first, to workers with room: the least busy first. */
  private dispatch(): void {
    while (this.queue.length > 0) {
      let chosen: PooledWorker | null = null;
      for (const w of this.workers) {
        if (!w.ready || w.searching >= SEARCHES_PER_WORKER) continue;
        if (!chosen || w.searching < chosen.searching || (w.searching === chosen.searching && w.pending.size < chosen.pending.size)) chosen = w;
      }
      if (!chosen) {
        // No worker left at all (not merely busy): the callers search on their own thread.
        if (this.readyWorkers === 0) for (const queued of this.queue.splice(0)) this.fail(queued.pending, new Error('No search worker is running.'));
        return;
      }
      const { id, request, pending } = this.queue.shift()!;
      chosen.pending.set(id, pending);
      chosen.searching++;
      chosen.worker.postMessage({ type: 'search', id, request } satisfies ToSearchWorker);
    }
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
    for (const queued of this.queue.splice(0)) this.fail(queued.pending, new Error('The engine is shutting down.'));
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
    const data: SearchWorkerData = { indexPath: this.options.indexPath, vectorBackend: this.options.vectorBackend, afterSearch: this.options.afterSearch };
    const worker = startModuleWorker(siblingModule(import.meta.url, 'searchWorker'), { workerData: data });
    worker.unref();
    const pooled: PooledWorker = { worker, ready: false, pending: new Map(), searching: 0 };
    this.workers.push(pooled);
    let started = false;
    let answered = false;
    worker.on('message', (message: FromSearchWorker) => {
      switch (message.type) {
        case 'ready':
          pooled.ready = started = true;
          this.failedStarts = 0;
          this.dispatch();
          return;
        case 'failed':
          this.lastFailure = message.message;
          if (message.damage) this.options.onDidFailToOpen?.(Object.assign(new Error(message.message), { code: message.damage.code }));
          return;
        case 'result':
        case 'after':
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
            pooled.searching--;
            pending.resolve(message.results);
            this.dispatch();
            return;
          }
          pooled.pending.delete(message.id);
          if (message.type === 'after') pending.resolveAfter(message.value);
          else {
            pooled.searching--;
            this.fail(pending, message.damage ? new IndexDamageReport(message.message, message.damage.code) : new Error(message.message));
            this.dispatch();
          }
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
    pending.rejectAfter(error);
  }

  private failAll(pooled: PooledWorker, why: string): void {
    pooled.ready = false;
    for (const pending of pooled.pending.values()) this.fail(pending, new Error(why));
    pooled.pending.clear();
    pooled.searching = 0;
    // Searches still queued go to the workers left, or fail (and run on the engine thread) when none is.
    if (this.readyWorkers === 0) for (const queued of this.queue.splice(0)) this.fail(queued.pending, new Error(why));
    this.dispatch();
  }
}
