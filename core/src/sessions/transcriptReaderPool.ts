import os from 'node:os';
import type { Worker } from 'node:worker_threads';
import { siblingModule, startModuleWorker } from '../platform/moduleWorker.js';
import type { EngineToWorker, TranscriptBatch, TranscriptReadJob, WorkerToEngine } from './transcriptReadJob.js';
import type { TranscriptReadOutcome } from './types.js';

/**
 * Reader threads: the cores the engine thread's writes leave, at most two (each costs a thread's
 * heap; measured at load 14 on 2 cores, two readers beside the writer only added memory).
 */
export function defaultReaderCount(): number {
  return Math.max(1, Math.min(2, os.availableParallelism() - 1));
}



/**
 * Transcript reader threads (transcriptWorker.ts), started on first use, one file each at a time.
 * `read` hands every batch to the caller, who writes it; a reader runs at most BATCHES_AHEAD
 * batches ahead of the writes, so memory stays at a few batches per reader whatever the file's size.
 */
export class TranscriptReaderPool {
  private readonly idle: Worker[] = [];
  private readonly all = new Set<Worker>();

  /**
   * `heapLimitMb` caps each reader's heap, for tests that prove memory stays bounded: none by
   * default, as V8 can abort the whole process, not only the worker, at a worker's ceiling
   * (nodejs/node#47224).
   */
  constructor(
    private readonly memoryLines: () => string[],
    private readonly heapLimitMb?: number,
  ) {}

  async read(job: TranscriptReadJob, onBatch: (batch: TranscriptBatch) => void): Promise<TranscriptReadOutcome> {
    const worker = this.idle.pop() ?? this.start();
    let reusable = true;
    try {
      return await new Promise<TranscriptReadOutcome>((resolve, reject) => {
        const settle = (): void => {
          worker.off('message', onMessage);
          worker.off('error', onError);
          worker.off('exit', onExit);
        };
        const fail = (error: Error): void => {
          settle();
          reusable = false;
          reject(error);
        };
        const onMessage = (message: WorkerToEngine): void => {
          if (message.type === 'batch') {
            try {
              onBatch(message.batch);
            } catch (error) {
              return fail(error as Error); // the reader is mid-file: it is stopped, not reused
            }
            worker.postMessage({ type: 'more' } satisfies EngineToWorker);
          } else if (message.type === 'done') {
            settle();
            resolve(message.outcome);
          } else {
            settle();
            reject(Object.assign(new Error(message.message), message.code ? { code: message.code } : {}));
          }
        };
        const onError = (error: Error): void => fail(outOfMemory(error));
        const onExit = (code: number): void => fail(new Error(`the transcript reader thread stopped (exit code ${code})`));
        worker.on('message', onMessage);
        worker.on('error', onError);
        worker.on('exit', onExit);
        worker.postMessage({ type: 'read', job } satisfies EngineToWorker);
      });
    } finally {
      if (reusable) this.idle.push(worker);
      else this.stop(worker);
    }
  }

  async close(): Promise<void> {
    await Promise.all([...this.all].map((w) => this.stop(w)));
    this.idle.length = 0;
  }

  private start(): Worker {
    const worker = startModuleWorker(siblingModule(import.meta.url, 'transcriptWorker'), {
      workerData: { memoryLines: this.memoryLines() },
      ...(this.heapLimitMb ? { resourceLimits: { maxOldGenerationSizeMb: this.heapLimitMb } } : {}),
    });
    this.all.add(worker);
    return worker;
  }

  private async stop(worker: Worker): Promise<void> {
    this.all.delete(worker);
    await worker.terminate();
  }
}

/** A reader stopped at its heap ceiling: say so in words (the file is reported failed). */
function outOfMemory(error: Error): Error {
  if ((error as NodeJS.ErrnoException).code !== 'ERR_WORKER_OUT_OF_MEMORY') return error;
  return new Error('needs more memory than a transcript reader may use');
}
