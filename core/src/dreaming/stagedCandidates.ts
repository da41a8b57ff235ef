import type Database from 'better-sqlite3';
import type { DreamRun } from '../contract/index.js';
import { daysAgo } from '../platform/localDay.js';
import type { RankedCandidate } from './phases/deepPhase.js';
import { LIGHT_LOOKBACK_DAYS } from './phases/lightPhase.js';

/** Staged candidates not recalled (or written) again for this long leave the queue: the light phase's window. */
export const STAGED_EXPIRY_DAYS = LIGHT_LOOKBACK_DAYS;

/**
 * Carries candidates from sweep to sweep: eligible ones that did not pass stay staged,
 * written ones are promoted, proposals wait for review. Ineligible content is never staged.
 */
export function updateStagedCandidates(db: Database.Database, run: DreamRun, ranked: readonly RankedCandidate[], now: number): void {
  const upsert = db.prepare(
    `INSERT INTO staged_candidates (path, entry_hash, status, run_id, first_staged_at, last_staged_at) VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT(path, entry_hash) DO UPDATE SET status = excluded.status, run_id = excluded.run_id, last_staged_at = excluded.last_staged_at`,
  );
  db.transaction(() => {
    for (const { entry, candidate } of ranked) {
      const status =
        candidate.outcome === 'promoted' ? 'promoted' : candidate.outcome === 'proposed' ? 'proposed' : candidate.outcome === 'ineligible' ? null : 'staged';
      // Activity, not the sweep, keeps a candidate staged: one nobody recalls again expires.
      const lastActive = Math.max(entry.recall?.lastAt ?? 0, entry.writtenAt ?? 0) || now;
      if (status) upsert.run(entry.path, entry.entryHash, status, run.id, now, lastActive);
    }
    db.prepare("DELETE FROM staged_candidates WHERE status = 'staged' AND last_staged_at < ?").run(daysAgo(now, STAGED_EXPIRY_DAYS));
  })();
}

export function setStagedStatus(db: Database.Database, path: string, entryHash: string, status: 'staged' | 'promoted' | 'rejected' | 'rolled-back', runId: string, now: number): void {
  db.prepare(
    `INSERT INTO staged_candidates (path, entry_hash, status, run_id, first_staged_at, last_staged_at) VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT(path, entry_hash) DO UPDATE SET status = excluded.status, run_id = excluded.run_id, last_staged_at = excluded.last_staged_at`,
  ).run(path, entryHash, status, runId, now, now);
}
