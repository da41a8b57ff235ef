/**
 * A worker thread that compacts the index once after an upgrade (compactAfterUpgrade.ts): its
 * own connection runs the VACUUM, so the engine's thread keeps answering searches meanwhile.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { openSqlite } from '../platform/sqliteDriver.js';
import { reclaimFreePages, type ReclaimOutcome, type ReclaimThresholds } from './reclaimSpace.js';
import { loadVectorExtension } from './vectorStore.js';

export interface CompactionJob {
  file: string;
  thresholds: ReclaimThresholds;
  disableVectorExtension: boolean;
}

/** What the worker says: it started writing (the WAL was emptied), then how it ended. */
export type CompactionMessage = { type: 'started' } | { type: 'done'; outcome: ReclaimOutcome };

const job = workerData as CompactionJob;
let outcome: ReclaimOutcome;
try {
  // Waits out a write of the engine's connection (syncs are held while this runs).
  const db = openSqlite(job.file, { fileMustExist: true, timeout: 30_000 });
  try {
    // vec0 tables are copied like the others; their module is loaded as the engine loads it.
    loadVectorExtension(db, job.disableVectorExtension);
    // An empty WAL first: the VACUUM writes the compacted file into it, and its size is the progress.
    db.pragma('wal_checkpoint(TRUNCATE)');
    parentPort!.postMessage({ type: 'started' } satisfies CompactionMessage);
    outcome = reclaimFreePages(db, job.file, job.thresholds);
  } finally {
    db.close();
  }
} catch (error) {
  outcome = { kind: 'skipped', reason: `compacting it failed (${(error as Error).message})` };
}
parentPort!.postMessage({ type: 'done', outcome } satisfies CompactionMessage);
