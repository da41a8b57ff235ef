import type { DreamCandidate, DreamFileWrite, DreamRun } from '../contract/index.js';
import type { GatheredEntry } from './phases/gatheredEntry.js';
import type { Thresholds } from './phases/deepPhase.js';
import type { SweepEnvironment } from './sweepEnvironment.js';
import { LIGHT_LOOKBACK_DAYS } from './phases/lightPhase.js';

/** A run record before anything happened: every phase empty, status `running`. */
export function emptyRun(id: string, trigger: DreamRun['trigger'], dryRun: boolean, thresholds: Thresholds, startedAt: number): DreamRun {
  return {
    id,
    status: 'running',
    reason: null,
    trigger,
    dryRun,
    startedAt: new Date(startedAt).toISOString(),
    finishedAt: null,
    thresholds,
    phases: {
      light: { lookbackDays: LIGHT_LOOKBACK_DAYS, gathered: 0, staged: 0, duplicates: 0 },
      rem: { lookbackDays: 7, themes: [], reflections: [] },
      deep: { ranked: 0, passed: 0, promoted: 0, proposed: 0 },
    },
    consolidation: { mode: 'none', model: null, fallbackReason: null },
    candidates: [],
    promoted: [],
    writes: [],
    narrative: null,
    rolledBack: null,
    backfill: null,
  };
}

/** Every run ends with a status and, unless it went fine, a reason: never silently. */
export function finishRun(env: Pick<SweepEnvironment, 'now' | 'runs'>, run: DreamRun, status: DreamRun['status'], reason: string | null): DreamRun {
  run.status = status;
  run.reason = reason;
  run.finishedAt = new Date(env.now()).toISOString();
  env.runs.save(run);
  return run;
}

/** What a candidate's signals say, as the run records them. */
export function signalsOf(entry: GatheredEntry): DreamCandidate['signals'] {
  const recall = entry.recall;
  return {
    recallCount: recall?.count ?? 0,
    usedCount: recall?.uses ?? 0,
    meanScore: recall && recall.count > 0 ? Math.round(Math.min(1, recall.scoreSum / recall.count) * 1000) / 1000 : 0,
    uniqueQueries: recall?.queries.size ?? 0,
    uniqueDays: entry.days.size,
    lastRecalledAt: recall && recall.lastAt > 0 ? new Date(recall.lastAt).toISOString() : null,
    writtenAt: entry.writtenAt !== null ? new Date(entry.writtenAt).toISOString() : null,
    conceptTags: entry.conceptTags,
  };
}

/** The fields a candidate copies from its entry. */
export function candidateBase(entry: GatheredEntry): Pick<DreamCandidate, 'key' | 'path' | 'startLine' | 'endLine' | 'text' | 'heading' | 'source' | 'origin' | 'sessionKind' | 'imported'> {
  return {
    key: entry.key,
    path: entry.path,
    startLine: entry.startLine,
    endLine: entry.endLine,
    text: entry.text,
    heading: entry.heading,
    source: entry.source,
    origin: entry.origin,
    sessionKind: entry.sessionKind,
    imported: entry.imported,
  };
}

/**
 * The run record names the write (its pre-image and the bytes it will leave) before the rename,
 * so a run killed at any point after it can still be rolled back from its own record.
 */
export function recordBeforeRename(env: Pick<SweepEnvironment, 'runs'>, run: DreamRun, record: DreamFileWrite) {
  return (planned: { preImageId: string | null; afterSha256: string }): void => {
    Object.assign(record, { outcome: 'writing', afterSha256: planned.afterSha256, preImageId: planned.preImageId });
    env.runs.save(run);
  };
}
