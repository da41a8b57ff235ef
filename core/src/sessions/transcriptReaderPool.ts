import type { Worker } from 'node:worker_threads';
import { siblingModule, startModuleWorker } from '../platform/moduleWorker.js';
import type { EngineToWorker, TranscriptBatch, TranscriptReadJob, WorkerToEngine } from './transcriptReadJob.js';
import type { TranscriptReadOutcome } from './types.js';
import { recalledKeyHashes } from './recalled.js';

interface PendingRead {
  onBatch: (batch: TranscriptBatch) => void;
  resolve: (outcome: TranscriptReadOutcome) => void;
  reject: (error: Error) => void;
}

interface Reader {
  worker: Worker;
  /** Reads handed to this thread and not finished, by job id (it works through them in order). */
  pending: Map<number, PendingRead>;
}

/**
 * Transcript reader threads (transcriptWorker.ts), at most `size`, started on first use. Each
 * works through the files handed to it in order, so a thread reads the next file while the engine
 * writes the last one's batches. `read` hands every batch to the caller, who writes it; a reader
 * runs at most BATCHES_AHEAD batches ahead of the writes, so memory stays at a few batches per
 * reader whatever the file's size.
 */
export class TranscriptReaderPool {
  private readonly readers: Reader[] = [];
  private nextJobId = 1;
  // The memory lines' keys, hashed once for every reader (shared memory, not copied per thread).
  private recalledKeys: Float64Array | null = null;

  /**
   * `heapLimitMb` caps each reader's heap, for tests that prove memory stays bounded: none by
   * default, as V8 can abort the whole process, not only the worker, at a worker's ceiling
   * (nodejs/node#47224).
   */
  constructor(
    private readonly memoryLines: () => Iterable<string>,
    private readonly size: number,
    private readonly heapLimitMb?: number,
  ) {}

  read(job: TranscriptReadJob, onBatch: (batch: TranscriptBatch) => void): Promise<TranscriptReadOutcome> {
    const reader = this.leastBusy();
    const id = this.nextJobId++;
    return new Promise<TranscriptReadOutcome>((resolve, reject) => {
      reader.pending.set(id, { onBatch, resolve, reject });
      reader.worker.postMessage({ type: 'read', id, job } satisfies EngineToWorker);
    });
  }

  async close(): Promise<void> {
    await Promise.all(this.readers.splice(0).map((r) => r.worker.terminate()));
  }

  /** An idle thread, else a new one while under `size`, else the one with the fewest reads queued. */
  private leastBusy(): Reader {
    const idle = this.readers.find((r) => r.pending.size === 0);
    if (idle) return idle;
    if (this.readers.length < this.size) return this.start();
    return this.readers.reduce((a, b) => (b.pending.size < a.pending.size ? b : a));
  }

  private start(): Reader {
    const worker = startModuleWorker(siblingModule(import.meta.url, 'transcriptWorker'), {
      workerData: { recalledKeys: (this.recalledKeys ??= recalledKeyHashes(this.memoryLines())) },
      ...(this.heapLimitMb ? { resourceLimits: { maxOldGenerationSizeMb: this.heapLimitMb } } : {}),
    });
    const reader: Reader = { worker, pending: new Map() };
    this.readers.push(reader);
    worker.on('message', (message: WorkerToEngine) => this.onMessage(reader, message));
    worker.on('error', (error: Error) => this.stop(reader, outOfMemory(error)));
    worker.on('exit', (code: number) => this.stop(reader, new Error(`the transcript reader thread stopped (exit code ${code})`)));
    return reader;
  }

  private onMessage(reader: Reader, message: WorkerToEngine): void {
    const read = reader.pending.get(message.id);
    if (!read) return;
    if (message.type === 'batch') {
      try {
        read.onBatch(message.batch);
      } catch (error) {
        // The reader is mid-file: it is stopped; files queued behind this one fail too (read again next sync).
        this.stop(reader, error as Error, message.id);
        return;
      }
      reader.worker.postMessage({ type: 'more' } satisfies EngineToWorker);
    } else if (message.type === 'done') {
      reader.pending.delete(message.id);
      read.resolve(message.outcome);
    } else {
      reader.pending.delete(message.id);
      read.reject(Object.assign(new Error(message.message), message.code ? { code: message.code } : {}));
    }
  }

  /** Stops a thread: the read that failed gets `error`, the reads queued behind it say their reader stopped. */
  private stop(reader: Reader, error: Error, failedId?: number): void {
    const index = this.readers.indexOf(reader);
    if (index === -1) return;
    this.readers.splice(index, 1);
    for (const [id, read] of reader.pending) {
      read.reject(failedId === undefined || id === failedId ? error : new Error(`its reader stopped before reading it (${error.message})`));
    }
    reader.pending.clear();
    void reader.worker.terminate();
  }
}

/** A reader stopped at its heap ceiling: say so in words (the file is reported failed). */
function outOfMemory(error: Error): Error {
  if ((error as NodeJS.ErrnoException).code !== 'ERR_WORKER_OUT_OF_MEMORY') return error;
  return new Error('needs more memory than a transcript reader may use');
}
