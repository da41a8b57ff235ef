import type { Worker } from 'node:worker_threads';
import { siblingModule, startModuleWorker } from '../platform/moduleWorker.js';
import { readerThreadCount } from '../platform/readerThreads.js';
import type { IndexedFile } from './extractionSteps.js';
import type { ExtractionContext } from './extractFile.js';
import type { ExtractedEntry } from './types.js';

export interface ExtractionRequest {
  id: number;
  file: IndexedFile;
  context: ExtractionContext;
}

/**
 * A file's text and entries; `text: null` when it could not be read (and why); `error` when
 * extraction threw. The entries travel as one JSON string: the engine thread parses it in about
 * three quarters of the time it took to rebuild the same objects cloned one by one.
 */
export type ExtractionReply = { id: number; text: string; entriesJson: string } | { id: number; text: null; unreadable: string } | { id: number; error: string };

export type ExtractedFile = { text: string; entries: ExtractedEntry[] } | { text: null; unreadable: string };

/**
 * Extraction threads for a first, forced or large extraction: the cores the engine thread's
 * writes leave, at most two (as the reader threads, platform/readerThreads.ts). On two cores
 * that is one: at 20,000 notes (idle) two threads took the graph phase 55–56.5 s and the peak
 * RSS to 594–633 MB, one took 58.2 s and 506 MB. Fewer files are extracted on the engine
 * thread: a thread takes tens of milliseconds to start.
 */
export function defaultExtractionThreads(): number {
  return readerThreadCount();
}

interface Thread {
  worker: Worker;
  pending: Map<number, { resolve: (file: ExtractedFile) => void; reject: (error: Error) => void }>;
}

/**
 * Worker threads running extractionWorker.ts, started on first use; each file goes to the
 * thread with the fewest files queued. A thread that stops fails the files queued on it.
 */
export class ExtractionPool {
  private readonly threads: Thread[] = [];
  private nextId = 1;

  constructor(private readonly size = defaultExtractionThreads()) {}

  extract(file: IndexedFile, context: ExtractionContext): Promise<ExtractedFile> {
    const thread = this.leastBusy();
    const id = this.nextId++;
    return new Promise<ExtractedFile>((resolve, reject) => {
      thread.pending.set(id, { resolve, reject });
      thread.worker.postMessage({ id, file, context } satisfies ExtractionRequest);
    });
  }

  /** Stops the threads; files not extracted yet fail (their writes were given up). */
  async close(): Promise<void> {
    const threads = this.threads.splice(0);
    for (const thread of threads) this.failPending(thread, new Error('the graph extraction threads were closed'));
    await Promise.all(threads.map((t) => t.worker.terminate()));
  }

  private leastBusy(): Thread {
    if (this.threads.length < this.size && !this.threads.some((t) => t.pending.size === 0)) return this.start();
    return this.threads.reduce((a, b) => (b.pending.size < a.pending.size ? b : a));
  }

  private start(): Thread {
    const worker = startModuleWorker(siblingModule(import.meta.url, 'extractionWorker'));
    const thread: Thread = { worker, pending: new Map() };
    this.threads.push(thread);
    worker.on('message', (reply: ExtractionReply) => {
      const pending = thread.pending.get(reply.id);
      if (!pending) return;
      thread.pending.delete(reply.id);
      if ('error' in reply) pending.reject(new Error(reply.error));
      else pending.resolve(reply.text === null ? { text: null, unreadable: reply.unreadable } : { text: reply.text, entries: JSON.parse(reply.entriesJson) as ExtractedEntry[] });
    });
    worker.on('error', (error: Error) => this.stop(thread, error));
    worker.on('exit', (code: number) => this.stop(thread, new Error(`the graph extraction thread stopped (exit code ${code})`)));
    return thread;
  }

  private stop(thread: Thread, error: Error): void {
    const index = this.threads.indexOf(thread);
    if (index === -1) return;
    this.threads.splice(index, 1);
    this.failPending(thread, error);
    void thread.worker.terminate();
  }

  private failPending(thread: Thread, error: Error): void {
    for (const pending of thread.pending.values()) pending.reject(error);
    thread.pending.clear();
  }
}
