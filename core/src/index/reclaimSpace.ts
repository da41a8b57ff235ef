import fs from 'node:fs';
import path from 'node:path';
import type Database from 'better-sqlite3';
import { processLogger } from '../platform/log/processLog.js';

const log = processLogger('index');

/**
 * Dropping a table (migration 0005 dropped the old graph evidence, most of an index) leaves
 * its pages free inside the file: SQLite reuses them but never gives them back to the disk
 * until a VACUUM rewrites the file. An index is vacuumed when at least this share of it, and
 * this many bytes, are free pages; after that the file is as small as its content, so it
 * happens once (until as much is freed again).
 */
export interface ReclaimThresholds {
  minFreeShare: number;
  minFreeBytes: number;
}

export const DEFAULT_RECLAIM: ReclaimThresholds = { minFreeShare: 0.5, minFreeBytes: 32 * 1024 * 1024 };

export type ReclaimOutcome =
  | { kind: 'not-needed' }
  | { kind: 'reclaimed'; beforeBytes: number; afterBytes: number; durationMs: number }
  | { kind: 'skipped'; reason: string };

/** Bytes free on the disk holding `file`, or null when the platform cannot say. */
function freeDiskBytes(file: string): number | null {
  try {
    const stats = fs.statfsSync(path.dirname(file));
    return stats.bavail * stats.bsize;
  } catch (error) {
    log.debug('Free disk space is unknown', { file, error });
    return null;
  }
}

const mb = (bytes: number): string => `${Math.round(bytes / (1024 * 1024)).toLocaleString('en-US')} MB`;

/**
 * Gives the index's free pages back to the disk with a VACUUM when they are most of it.
 * VACUUM copies the live content to a temporary file and then through the WAL back into the
 * index, so it needs about twice the live content free on the disk (else it is skipped and
 * tried again at the next start); it runs while the index is opened, before anything else
 * uses it (about a second per 100 MB of live content). A VACUUM that cannot run (another
 * process is reading the index) is skipped the same way. `diskFree` lets a test pretend.
 */
export function reclaimFreePages(db: Database.Database, file: string, thresholds: ReclaimThresholds = DEFAULT_RECLAIM, diskFree: (file: string) => number | null = freeDiskBytes): ReclaimOutcome {
  const pageSize = db.pragma('page_size', { simple: true }) as number;
  const pages = db.pragma('page_count', { simple: true }) as number;
  const free = (db.pragma('freelist_count', { simple: true }) as number) * pageSize;
  const total = pages * pageSize;
  if (free < thresholds.minFreeBytes || free < total * thresholds.minFreeShare) return { kind: 'not-needed' };
  const live = total - free;
  const needed = 2 * live + 64 * 1024 * 1024;
  const available = diskFree(file);
  if (available !== null && available < needed) {
    return { kind: 'skipped', reason: `compacting it needs about ${mb(needed)} free on the disk and there is ${mb(available)}` };
  }
  const started = performance.now();
  const beforeBytes = fs.statSync(file).size;
  // The copy goes to a temporary file, not memory (the connection keeps temp tables in memory).
  const tempStore = db.pragma('temp_store', { simple: true }) as number;
  db.pragma('temp_store = FILE');
  try {
    db.exec('VACUUM');
    db.pragma('wal_checkpoint(TRUNCATE)');
  } catch (error) {
    return { kind: 'skipped', reason: `compacting it failed (${(error as Error).message})` };
  } finally {
    db.pragma(`temp_store = ${tempStore}`);
  }
  return { kind: 'reclaimed', beforeBytes, afterBytes: fs.statSync(file).size, durationMs: Math.round(performance.now() - started) };
}

/** What to tell the person about a reclaim, or null when there is nothing to say. */
export function describeReclaim(outcome: ReclaimOutcome, file: string): string | null {
  if (outcome.kind === 'reclaimed') {
    return `The index ${file} was compacted from ${mb(outcome.beforeBytes)} to ${mb(outcome.afterBytes)} (space freed by an upgrade) in ${(outcome.durationMs / 1000).toFixed(1)} s.`;
  }
  if (outcome.kind === 'skipped') return `The index ${file} has space to give back, but ${outcome.reason}; it will try again at the next start.`;
  return null;
}
