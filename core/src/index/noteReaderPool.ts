import type { Worker } from 'node:worker_threads';
import { siblingModule, startModuleWorker } from '../platform/moduleWorker.js';
import type { NoteReadJob, NoteReadReply, NoteReadRequest } from './noteReadJob.js';
import type { PrepareOptions, PreparedFile } from './notePreparation.js';

interface PendingRequest {
  jobs: readonly NoteReadJob[];
  resolve: (prepared: PreparedFile[]) => void;
  reject: (error: Error) => void;
}

interface Reader {
  worker: Worker;
  /** Requests handed to this thread and not answered, by id (it answers them in order). */
  pending: Map<number, PendingRequest>;
}

/**
 * Note reader threads (noteReadWorker.ts), `size` of them, started on first use and stopped by
 * `close`. `prepare` hands a group of files to the least busy thread; a file whose preparation
 * threw, or a thread that stopped, rejects with an error naming the file.
 */
export class NoteReaderPool {
  private readonly readers: Reader[] = [];
  private nextId = 1;
  private closed = false;

  constructor(private readonly size: number) {
    if (!Number.isInteger(size) || size < 1) throw new Error(`A note reader pool needs at least one thread (got ${size}).`);
  }

  prepare(jobs: readonly NoteReadJob[], options: PrepareOptions): Promise<PreparedFile[]> {
    if (this.closed) return Promise.reject(new Error('The note readers were closed.'));
    if (jobs.length === 0) return Promise.resolve([]);
    const reader = this.leastBusy();
    const id = this.nextId++;
    return new Promise<PreparedFile[]>((resolve, reject) => {
      reader.pending.set(id, { jobs, resolve, reject });
      reader.worker.postMessage({ id, jobs: [...jobs], options } satisfies NoteReadRequest);
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    const readers = this.readers.splice(0);
    for (const reader of readers) this.failPending(reader, new Error('The note readers were closed before reading it.'));
    await Promise.all(readers.map((r) => r.worker.terminate()));
  }

  private leastBusy(): Reader {
    const idle = this.readers.find((r) => r.pending.size === 0);
    if (idle) return idle;
    if (this.readers.length < this.size) return this.start();
    return this.readers.reduce((a, b) => (b.pending.size < a.pending.size ? b : a));
  }

  private start(): Reader {
    const worker = startModuleWorker(siblingModule(import.meta.url, 'noteReadWorker'));
    const reader: Reader = { worker, pending: new Map() };
    this.readers.push(reader);
    worker.on('message', (reply: NoteReadReply) => this.onReply(reader, reply));
    worker.on('error', (error: Error) => this.stop(reader, error));
    worker.on('exit', (code: number) => this.stop(reader, new Error(`the note reader thread stopped (exit code ${code})`)));
    return reader;
  }

  private onReply(reader: Reader, reply: NoteReadReply): void {
    const request = reader.pending.get(reply.id);
    if (!request) return;
    reader.pending.delete(reply.id);
    const prepared: PreparedFile[] = [];
    for (const [i, result] of reply.results.entries()) {
      if ('error' in result) {
        request.reject(new Error(`Preparing ${request.jobs[i]!.file.path} for the index failed on a note reader thread: ${result.error}`));
        return;
      }
      prepared.push(result.prepared);
    }
    request.resolve(prepared);
  }

  /** A thread stopped: the requests it held fail, naming their first file; a new thread starts on the next request. */
  private stop(reader: Reader, error: Error): void {
    const index = this.readers.indexOf(reader);
    if (index === -1) return;
    this.readers.splice(index, 1);
    this.failPending(reader, error);
    void reader.worker.terminate();
  }

  private failPending(reader: Reader, error: Error): void {
    for (const request of reader.pending.values()) {
      const first = request.jobs[0]!.file.path;
      const more = request.jobs.length > 1 ? ` (and ${request.jobs.length - 1} more files)` : '';
      request.reject(new Error(`Preparing ${first}${more} for the index failed: ${error.message}`));
    }
    reader.pending.clear();
  }
}
