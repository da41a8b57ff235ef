/**
 * Gives the pages an upgrade freed back to the disk, once (issue 24: migrations 0012, 0013, 0015
 * and 0018 shrink the index's content, but SQLite keeps freed pages inside the file until a VACUUM
 * rewrites it). Migrations 0015 and 0018 ask for it in `meta`; the index service runs it after the next
 * sync's derived work (the graph recount that frees most) has finished, in a worker thread with
 * its own connection: searches keep reading (WAL) throughout, and syncs wait until it is done.
 */
import fs from 'node:fs';
import type Database from 'better-sqlite3';
import { siblingModule, startModuleWorker } from '../platform/moduleWorker.js';
import type { CompactionJob, CompactionMessage } from './compactionWorker.js';
import type { ReclaimOutcome, ReclaimThresholds } from './reclaimSpace.js';

/** The `meta` key migrations 0015 and 0018 set to 'pending'. */
export const COMPACT_AFTER_UPGRADE = 'compact_after_upgrade';

/** Free pages worth a rewrite after an upgrade: lower than at open (reclaimSpace.ts), since it happens once and off the engine's thread. */
export const UPGRADE_RECLAIM: ReclaimThresholds = { minFreeShare: 0.05, minFreeBytes: 4 * 1024 * 1024 };

export function isCompactionPending(db: Database.Database): boolean {
  return db.prepare('SELECT value FROM meta WHERE key = ?').pluck().get(COMPACT_AFTER_UPGRADE) === 'pending';
}

/** How far a compaction is: the compacted content written so far of all of it. */
export interface CompactionProgress {
  doneBytes: number;
  totalBytes: number;
}

export interface CompactionOptions {
  thresholds?: ReclaimThresholds;
  disableVectorExtension?: boolean;
  onProgress?: (progress: CompactionProgress) => void;
  progressMs?: number;
}

/** A file's size, 0 when it does not exist (no WAL yet). */
function sizeOf(file: string): number {
  return fs.statSync(file, { throwIfNoEntry: false })?.size ?? 0;
}

/**
 * Compacts the index file in a worker thread when its free pages pass the thresholds, and
 * clears the request unless it was skipped (short of disk space, or it failed: the next start
 * tries again). Progress: after copying the live content to a temporary file, the VACUUM
 * writes it back through the emptied WAL, whose size against the live content says how far it is.
 */
export async function compactInBackground(db: Database.Database, file: string, options: CompactionOptions = {}): Promise<ReclaimOutcome> {
  const pageSize = db.pragma('page_size', { simple: true }) as number;
  const live = ((db.pragma('page_count', { simple: true }) as number) - (db.pragma('freelist_count', { simple: true }) as number)) * pageSize;
  const job: CompactionJob = { file, thresholds: options.thresholds ?? UPGRADE_RECLAIM, disableVectorExtension: options.disableVectorExtension ?? false };
  const worker = startModuleWorker(siblingModule(import.meta.url, 'compactionWorker'), { workerData: job });
  let started = false;
  const report = () => options.onProgress?.({ doneBytes: started ? Math.min(live, sizeOf(`${file}-wal`)) : 0, totalBytes: live });
  const timer = setInterval(report, options.progressMs ?? 500);
  try {
    const outcome = await new Promise<ReclaimOutcome>((resolve, reject) => {
      worker.on('message', (message: CompactionMessage) => {
        if (message.type === 'started') started = true;
        else resolve(message.outcome);
      });
      worker.once('error', reject);
      worker.once('exit', (code) => reject(new Error(`the compaction worker stopped (exit code ${code})`)));
    });
    if (outcome.kind !== 'skipped') db.prepare('DELETE FROM meta WHERE key = ?').run(COMPACT_AFTER_UPGRADE);
    return outcome;
  } finally {
    clearInterval(timer);
    await worker.terminate();
  }
}
