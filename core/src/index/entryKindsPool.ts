import os from 'node:os';
import { FileGroupPool } from '../platform/fileGroupPool.js';
import { siblingModule } from '../platform/moduleWorker.js';
import type { ClassifiedFile, EntryKindsJob } from './entryKindsJob.js';

/**
 * Kinds threads for a large derived pass: two (or one per core, if fewer). The pass runs after
 * search is ready and the engine thread only writes the kinds, so on two cores both threads
 * classify beside it, as the graph's extraction threads do after them.
 */
export function entryKindsThreadCount(): number {
  return Math.max(1, Math.min(2, os.availableParallelism()));
}

/**
 * Entry kinds threads (entryKindsWorker.ts), `size` of them: `classify` hands a group of files
 * to the least busy one, which reads, hashes and classifies them; errors name the file.
 */
export class EntryKindsPool {
  private readonly pool: FileGroupPool<EntryKindsJob, ClassifiedFile, undefined>;

  constructor(size: number) {
    this.pool = new FileGroupPool(size, {
      worker: siblingModule(import.meta.url, 'entryKindsWorker'),
      name: 'entry kinds',
      doing: (files) => `Deriving the entry kinds of ${files}`,
      pathOf: (job) => job.path,
    });
  }

  classify(jobs: readonly EntryKindsJob[]): Promise<ClassifiedFile[]> {
    return this.pool.run(jobs, undefined);
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}
