import os from 'node:os';
import type { Worker } from 'node:worker_threads';
import { siblingModule, startModuleWorker } from '../platform/moduleWorker.js';
import type { ClassifiedFile, EntryKindsJob, EntryKindsReply, EntryKindsRequest } from './entryKindsJob.js';

/**
 * Kinds threads for a large derived pass: two (or one per core, if fewer). The pass runs after
 * search is ready and the engine thread only writes the kinds, so on two cores both threads
 * classify beside it, as the graph's extraction threads do after them.
 */
export function entryKindsThreadCount(): number {
  return Math.max(1, Math.min(2, os.availableParallelism()));
}

interface PendingRequest {
  jobs: readonly EntryKindsJob[];
  resolve: (classified: ClassifiedFile[]) => void;
  reject: (error: Error) => void;
}

interface KindsThread {
  worker: Worker;
  /** Requests handed to this thread and not answered, by id. */
  pending: Map<number, PendingRequest>;
}

/**
 * Entry kinds threads (entryKindsWorker.ts), `size` of them, started on first use and stopped
 * by `close`. `classify` hands a group of files to the least busy thread; a file whose
 * classifying threw, or a thread that stopped, rejects with an error naming the file.
 */
export class EntryKindsPool {
  private readonly threads: KindsThread[] = [];
  private nextId = 1;
  private closed = false;

  constructor(private readonly size: number) {
    if (!Number.isInteger(size) || size < 1) throw new Error(`An entry kinds pool needs at least one thread (got ${size}).`);
  }

  classify(jobs: readonly EntryKindsJob[]): Promise<ClassifiedFile[]> {
    if (this.closed) return Promise.reject(new Error('The entry kinds threads were closed.'));
    if (jobs.length === 0) return Promise.resolve([]);
    const thread = this.leastBusy();
    const id = this.nextId++;
    return new Promise<ClassifiedFile[]>((resolve, reject) => {
      thread.pending.set(id, { jobs, resolve, reject });
      thread.worker.postMessage({ id, jobs: [...jobs] } satisfies EntryKindsRequest);
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    const threads = this.threads.splice(0);
    for (const thread of threads) this.failPending(thread, new Error('the entry kinds threads were closed before classifying it'));
    await Promise.all(threads.map((t) => t.worker.terminate()));
  }

  private leastBusy(): KindsThread {
    const idle = this.threads.find((t) => t.pending.size === 0);
    if (idle) return idle;
    if (this.threads.length < this.size) return this.start();
    return this.threads.reduce((a, b) => (b.pending.size < a.pending.size ? b : a));
  }

  private start(): KindsThread {
    const worker = startModuleWorker(siblingModule(import.meta.url, 'entryKindsWorker'));
    const thread: KindsThread = { worker, pending: new Map() };
    this.threads.push(thread);
    worker.on('message', (reply: EntryKindsReply) => this.onReply(thread, reply));
    worker.on('error', (error: Error) => this.stop(thread, error));
    worker.on('exit', (code: number) => this.stop(thread, new Error(`the entry kinds thread stopped (exit code ${code})`)));
    return thread;
  }

  private onReply(thread: KindsThread, reply: EntryKindsReply): void {
    const request = thread.pending.get(reply.id);
    if (!request) return;
    thread.pending.delete(reply.id);
    const classified: ClassifiedFile[] = [];
    for (const [i, result] of reply.results.entries()) {
      if ('error' in result) {
        request.reject(new Error(`Deriving the entry kinds of ${request.jobs[i]!.path} failed on a kinds thread: ${result.error}`));
        return;
      }
      classified.push(result.classified);
    }
    request.resolve(classified);
  }

  /** A thread stopped: the requests it held fail, naming their first file; a new thread starts on the next request. */
  private stop(thread: KindsThread, error: Error): void {
    const index = this.threads.indexOf(thread);
    if (index === -1) return;
    this.threads.splice(index, 1);
    this.failPending(thread, error);
    void thread.worker.terminate();
  }

  private failPending(thread: KindsThread, error: Error): void {
    for (const request of thread.pending.values()) {
      const first = request.jobs[0]!.path;
      const more = request.jobs.length > 1 ? ` (and ${request.jobs.length - 1} more files)` : '';
      request.reject(new Error(`Deriving the entry kinds of ${first}${more} failed: ${error.message}`));
    }
    thread.pending.clear();
  }
}
