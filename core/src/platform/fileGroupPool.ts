import type { Worker } from 'node:worker_threads';
import { startModuleWorker } from './moduleWorker.js';

/** One answer per file of a group, in order: the work's value, or why it threw on that file. */
export type FileGroupResult<R> = { value: R } | { error: string };

export interface FileGroupRequest<J, O> {
  id: number;
  jobs: J[];
  options: O;
}

export interface FileGroupReply<R> {
  id: number;
  results: Array<FileGroupResult<R>>;
}

/** What a pool's threads are, for its errors and its worker. */
export interface FileGroupThreads<J> {
  /** The worker module (siblingModule): it answers with `answerFileGroups` (fileGroupWorker.ts). */
  worker: URL;
  /** The threads' name in errors: "note reader", "entry kinds". */
  name: string;
  /** What the work on files is, in errors: (files) => `Preparing ${files} for the index`. */
  doing: (files: string) => string;
  pathOf: (job: J) => string;
}

interface PendingGroup<J, R> {
  jobs: readonly J[];
  resolve: (values: R[]) => void;
  reject: (error: Error) => void;
}

interface Thread<J, R> {
  worker: Worker;
  /** Groups handed to this thread and not answered, by id (it answers them in order). */
  pending: Map<number, PendingGroup<J, R>>;
}

/**
 * Worker threads, `size` of them, started on first use and stopped by `close`, that each take
 * a group of files and answer a value per file (the note readers, the entry kinds threads).
 * `run` hands a group to the least busy thread; a file whose work threw, or a thread that
 * stopped, rejects with an error naming the file.
 */
export class FileGroupPool<J, R, O> {
  private readonly threads: Array<Thread<J, R>> = [];
  private nextId = 1;
  private closed = false;

  constructor(
    private readonly size: number,
    private readonly kind: FileGroupThreads<J>,
  ) {
    if (!Number.isInteger(size) || size < 1) throw new Error(`A pool of ${kind.name} threads needs at least one thread (got ${size}).`);
  }

  run(jobs: readonly J[], options: O): Promise<R[]> {
    if (this.closed) return Promise.reject(new Error(`The ${this.kind.name} threads were closed.`));
    if (jobs.length === 0) return Promise.resolve([]);
    const thread = this.leastBusy();
    const id = this.nextId++;
    return new Promise<R[]>((resolve, reject) => {
      thread.pending.set(id, { jobs, resolve, reject });
      thread.worker.postMessage({ id, jobs: [...jobs], options } satisfies FileGroupRequest<J, O>);
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    const threads = this.threads.splice(0);
    for (const thread of threads) this.failPending(thread, new Error(`The ${this.kind.name} threads were closed before the work was done.`));
    await Promise.all(threads.map((t) => t.worker.terminate()));
  }

  private leastBusy(): Thread<J, R> {
    const idle = this.threads.find((t) => t.pending.size === 0);
    if (idle) return idle;
    if (this.threads.length < this.size) return this.start();
    return this.threads.reduce((a, b) => (b.pending.size < a.pending.size ? b : a));
  }

  private start(): Thread<J, R> {
    const worker = startModuleWorker(this.kind.worker);
    const thread: Thread<J, R> = { worker, pending: new Map() };
    this.threads.push(thread);
    worker.on('message', (reply: FileGroupReply<R>) => this.onReply(thread, reply));
    worker.on('error', (error: Error) => this.stop(thread, error));
    worker.on('exit', (code: number) => this.stop(thread, new Error(`the ${this.kind.name} thread stopped (exit code ${code})`)));
    return thread;
  }

  private onReply(thread: Thread<J, R>, reply: FileGroupReply<R>): void {
    const group = thread.pending.get(reply.id);
    if (!group) return;
    thread.pending.delete(reply.id);
    const values: R[] = [];
    for (const [i, result] of reply.results.entries()) {
      if ('error' in result) {
        group.reject(new Error(`${this.kind.doing(this.kind.pathOf(group.jobs[i]!))} failed on a ${this.kind.name} thread: ${result.error}`));
        return;
      }
      values.push(result.value);
    }
    group.resolve(values);
  }

  /** A thread stopped: the groups it held fail, naming their first file; a new thread starts on the next group. */
  private stop(thread: Thread<J, R>, error: Error): void {
    const index = this.threads.indexOf(thread);
    if (index === -1) return;
    this.threads.splice(index, 1);
    this.failPending(thread, error);
    void thread.worker.terminate();
  }

  private failPending(thread: Thread<J, R>, error: Error): void {
    for (const group of thread.pending.values()) {
      const first = this.kind.pathOf(group.jobs[0]!);
      const more = group.jobs.length > 1 ? ` (and ${group.jobs.length - 1} more files)` : '';
      group.reject(new Error(`${this.kind.doing(`${first}${more}`)} failed: ${error.message}`));
    }
    thread.pending.clear();
  }
}
