import { FileGroupPool } from '../platform/fileGroupPool.js';
import { siblingModule } from '../platform/moduleWorker.js';
import type { NoteReadJob } from './noteReadJob.js';
import type { PrepareOptions, PreparedFile } from './notePreparation.js';

/**
 * Note reader threads (noteReadWorker.ts), `size` of them: `prepare` hands a group of files to
 * the least busy one, which reads and prepares them for the index; errors name the file.
 */
export class NoteReaderPool {
  private readonly pool: FileGroupPool<NoteReadJob, PreparedFile, PrepareOptions>;

  constructor(size: number) {
    this.pool = new FileGroupPool(size, {
      worker: siblingModule(import.meta.url, 'noteReadWorker'),
      name: 'note reader',
      doing: (files) => `Preparing ${files} for the index`,
      pathOf: (job) => job.file.path,
    });
  }

  prepare(jobs: readonly NoteReadJob[], options: PrepareOptions): Promise<PreparedFile[]> {
    return this.pool.run(jobs, options);
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}
