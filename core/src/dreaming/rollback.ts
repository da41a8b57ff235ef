import fs from 'node:fs';
import type { DreamFileWrite, DreamRollbackFile, DreamRun } from '../contract/index.js';
import { ReverieError } from '../platform/errors.js';
import { isProcessAlive } from '../platform/processAlive.js';
import { readCuratedFile, writeCuratedFile, type CuratedFileSnapshot } from '../workspace/curatedFiles.js';
import type { PreImageFile } from '../workspace/preImages.js';
import { addedLinesToUndo, keptByApproval, type KeptByApproval } from './approvedChanges.js';
import { isBlank } from './curated/lines.js';
import { removeRunChanges } from './curated/undo.js';
import { appendSection } from './curated/section.js';
import { restoreRemovedLines } from './curated/restoreRemoved.js';
import { undoDiaryRun } from './diary/undoDiaryRun.js';
import { readDiarySnapshot } from './diarySnapshot.js';
import { entryHash } from './recall/entryKeys.js';
import { noteKeptPromotions } from './rollbackNote.js';
import { setStagedStatus } from './stagedCandidates.js';
import type { SweepEnvironment } from './sweepEnvironment.js';
import { processLogger } from '../platform/log/processLog.js';

const log = processLogger('dreaming/rollback');

type RollbackEnvironment = Pick<SweepEnvironment, 'dreamDb' | 'workspaceRoot' | 'preImages' | 'runs' | 'now' | 'lock' | 'timeZone'>;

const FILES: readonly PreImageFile[] = ['MEMORY.md', 'USER.md', 'DREAMS.md'];

/**
 * Undo a run, its review included. A file unchanged since the run's last write gets its
 * pre-image back byte for byte; a file edited since loses exactly the run's lines (and gets
 * back lines the run changed). Approved promotions are kept either way, under their own
 * heading, and the diary says so. Each file is read back afterwards and the run says what was
 * done to it; a run that cannot be undone is refused with the reason, never marked rolled
 * back. A run whose process died (kill -9, crash) is undone from the writes it recorded
 * before each rename.
 */
export function rollbackRun(env: RollbackEnvironment, runId: string): DreamRun {
  const run = env.runs.get(runId);
  if (run.dryRun) throw new ReverieError('conflict', `${runId} was a dry run: it wrote nothing to roll back.`);
  if (run.rolledBack) throw new ReverieError('conflict', `${runId} was already rolled back at ${run.rolledBack.at}.`);
  if (run.status === 'running') settleInterruptedRun(env, run);
  refuseUnrecordedWrites(env, run);
  const now = env.now();
  const files: DreamRollbackFile[] = [];
  for (const file of FILES) {
    const writes = run.writes.filter((w) => w.file === file && (w.outcome === 'written' || w.outcome === 'writing'));
    if (writes.length > 0) files.push(rollbackFile(env, run, file, writes, keptByApproval(run, file)));
  }
  noteKeptPromotions(env, run, files);
  for (const p of run.promoted) {
    if (p.decision === 'approved' || p.decision === 'rejected') continue;
    const candidate = run.candidates.find((c) => c.key === p.candidateKey);
    const path = p.candidateKey.slice(0, p.candidateKey.lastIndexOf(':', p.candidateKey.lastIndexOf(':') - 1));
    setStagedStatus(env.dreamDb, path, entryHash(candidate?.text ?? '') ?? '', 'rolled-back', runId, now);
  }
  if (run.backfill) env.dreamDb.prepare("DELETE FROM staged_candidates WHERE run_id = ? AND status = 'staged'").run(runId);
  const restoredAll = files.every((f) => f.mode === 'restored' || f.mode === 'deleted' || f.mode === 'untouched');
  run.rolledBack = { at: new Date(now).toISOString(), mode: restoredAll ? 'restored' : 'lines-removed', files };
  env.runs.save(run);
  return run;
}

/** A run still marked running: refused while its process lives, else failed as interrupted. */
function settleInterruptedRun(env: RollbackEnvironment, run: DreamRun): void {
  const holder = env.lock.readHolder();
  if (holder && holder.runId === run.id && isProcessAlive(holder.pid)) {
    throw new ReverieError('conflict', `${run.id} is still running (process ${holder.pid}); wait for it to finish before rolling it back.`);
  }
  Object.assign(run, {
    status: 'failed',
    reason: 'interrupted: the process stopped during the sweep (crash or kill); its recorded writes can be rolled back',
    finishedAt: new Date(env.now()).toISOString(),
  });
  env.runs.save(run);
}

/**
 * Runs from before writes were recorded ahead of their rename can have changed a file with no
 * record of it: the pre-image it kept proves it. Rather than call that "rolled back", say so.
 */
function refuseUnrecordedWrites(env: RollbackEnvironment, run: DreamRun): void {
  const recorded = new Set(run.writes.filter((w) => w.preImageId).map((w) => w.preImageId));
  const ownReasons = [`dream run ${run.id}`, `backfill ${run.id}`];
  const unrecorded = env.preImages.list().filter((p) => p.runId === run.id && !recorded.has(p.id) && ownReasons.some((r) => p.reason.startsWith(r)));
  // A pre-image whose file still holds its bytes means the write never landed.
  const landed = unrecorded.filter((p) => readSnapshot(env, p.file).sha256 !== p.sha256);
  if (landed.length === 0) return;
  const kept = landed.map((p) => `${p.file} as it was before the run is kept as ${p.id}`).join('; ');
  throw new ReverieError(
    'conflict',
    `${run.id} stopped while writing ${landed.map((p) => p.file).join(' and ')} and did not record what it wrote, so it cannot be rolled back line by line. ` +
      `${kept}; restore it from Dreams → Pre-images (or \`dream.restore\`) if you want it back.`,
  );
}

function rollbackFile(env: RollbackEnvironment, run: DreamRun, file: PreImageFile, recorded: DreamFileWrite[], kept: KeptByApproval): DreamRollbackFile {
  const snapshot = readSnapshot(env, file);
  const writes = writesThatLanded(recorded, snapshot.sha256);
  if (writes.length === 0) return { file, mode: 'untouched', detail: `${file} was never changed: the run stopped before its write landed.` };
  const first = writes[0]!;
  const last = writes.at(-1)!;
  const protectedHere = writes.some((w) => w.added.some((l) => kept.lines.has(l)) || w.changed.some((c) => kept.changes.has(c)));
  const unchangedSince = snapshot.sha256 === last.afterSha256;
  if (!protectedHere && unchangedSince && first.beforeSha256 === null) {
    // The run created the file and nobody touched it since: restoring means it is gone again.
    removeCreatedFile(run, snapshot);
    return { file, mode: 'deleted', detail: `${file} was created by the run and is removed again.` };
  }
  if (!protectedHere && unchangedSince && first.preImageId) {
    const { record, bytes } = env.preImages.read(first.preImageId);
    write(env, run, snapshot, bytes.toString('utf8'));
    const after = readSnapshot(env, file);
    if (after.sha256 !== record.sha256) throw new ReverieError('conflict', `${file} did not read back as its pre-image ${record.id} after the rollback of ${run.id}; check it and restore that pre-image.`);
    return { file, mode: 'restored', detail: `${file} is byte for byte as before the run (${record.id}).` };
  }
  const why = protectedHere
    ? `you approved ${kept.promotions.length === 1 ? 'one of its promotions' : `${kept.promotions.length} of its promotions`}, so only the run's other lines were undone`
    : 'it was edited after the run, so only the run\'s own lines were undone';
  const undone = file === 'DREAMS.md' ? undoDiaryLines(snapshot, writes) : undoCuratedLines(snapshot, writes, kept, run.id, () => preImageText(env, first));
  if (undone.text !== snapshot.text) {
    if (undone.text.trim() === '' && first.beforeSha256 === null) removeCreatedFile(run, snapshot);
    else write(env, run, snapshot, undone.text);
  }
  const readBack = readSnapshot(env, file);
  const stillThere = countStillPresent(readBack.text, undone.removed, snapshot.text);
  if (stillThere > 0) throw new ReverieError('conflict', `${stillThere} of the run's lines are still in ${file} after the rollback of ${run.id}; it was not marked rolled back.`);
  if (!readBack.exists) return { file, mode: 'deleted', detail: `${file} was created by the run and held nothing else, so it is removed again.` };
  const taken = undone.removed.filter((l) => !isBlank(l)).length;
  const gone = undone.alreadyGone > 0 ? ` (${undone.alreadyGone} were already gone)` : '';
  return { file, mode: 'lines-removed', detail: `${file}: ${why}: ${taken} of the run's lines removed${gone}; everything else is kept.` };
}

interface LinesUndone {
  text: string;
  /** The run's lines taken out; a rollback checks none of them is left. */
  removed: string[];
  alreadyGone: number;
}

/**
 * MEMORY.md, USER.md: the run's lines and changes, but those of approved promotions; what it
 * removed (entries retired for the budget) comes back where it was, read from the file before
 * the run; only what cannot be placed there is kept under a heading of its own.
 */
function undoCuratedLines(snapshot: CuratedFileSnapshot, writes: DreamFileWrite[], kept: KeptByApproval, runId: string, before: () => string | null): LinesUndone {
  const added = addedLinesToUndo(snapshot.text, writes.flatMap((w) => w.added), kept.lines);
  const changed = writes.flatMap((w) => w.changed).filter((c) => !kept.changes.has(c));
  const undone = removeRunChanges(snapshot.text, { added, changed });
  const removedByRun = writes.flatMap((w) => w.removed);
  const preImage = removedByRun.length > 0 ? before() : null;
  const restored = preImage === null ? { text: undone.text, unplaced: removedByRun } : restoreRemovedLines(undone.text, removedByRun, preImage);
  const text = restored.unplaced.length > 0 ? appendSection(restored.text, `## Restored by rollback of ${runId}`, restored.unplaced).text : restored.text;
  return { text, removed: added, alreadyGone: undone.missing.filter((l) => !isBlank(l)).length };
}

/** The file as it was before the run's first write, when its pre-image is still kept. */
function preImageText(env: RollbackEnvironment, first: DreamFileWrite): string | null {
  if (!first.preImageId) return null;
  try {
    return env.preImages.read(first.preImageId).bytes.toString('utf8');
  } catch (error) {
    // Pruned or unreadable: the removed lines are kept under their own heading instead.
    log.warn('The pre-image of a rolled-back file could not be read; its removed lines go under their own heading', { preImageId: first.preImageId, error });
    return null;
  }
}

/** DREAMS.md: the run's paragraphs, history item and Deep Sleep lines; the diary's frame stays while others use it. */
function undoDiaryLines(snapshot: CuratedFileSnapshot, writes: DreamFileWrite[]): LinesUndone {
  const added = writes.flatMap((w) => w.added);
  const undone = undoDiaryRun(snapshot.text, { added, changed: writes.flatMap((w) => w.changed) });
  const present = snapshot.text.split(/\r?\n/);
  const alreadyGone = added.filter((l) => {
    if (isBlank(l)) return false;
    const at = present.indexOf(l);
    if (at >= 0) present.splice(at, 1);
    return at < 0;
  }).length;
  return { text: undone.text, removed: undone.removed, alreadyGone };
}

function removeCreatedFile(run: DreamRun, snapshot: CuratedFileSnapshot): void {
  fs.rmSync(snapshot.abs, { force: true });
  if (fs.existsSync(snapshot.abs)) throw new ReverieError('conflict', `${snapshot.name} could not be removed; the rollback of ${run.id} stopped.`);
}

/**
 * A run killed inside a write window leaves its last write recorded as `writing`: when the file
 * still holds the bytes from before that write, the rename never happened and the write is not
 * undone (its lines were never there; the write before it is what the file shows).
 */
function writesThatLanded(writes: DreamFileWrite[], currentSha: string | null): DreamFileWrite[] {
  const last = writes.at(-1);
  const neverLanded = last?.outcome === 'writing' && currentSha === last.beforeSha256 && currentSha !== last.afterSha256;
  return neverLanded ? writes.slice(0, -1) : writes;
}

/** Lines the run added that are in the file more often than the undo left them (each occurrence it took out is gone). */
function countStillPresent(after: string, added: readonly string[], before: string): number {
  const count = (text: string, line: string) => text.split(/\r?\n/).filter((l) => l === line).length;
  let still = 0;
  for (const line of new Set(added.filter((l) => !isBlank(l)))) {
    const wanted = added.filter((l) => l === line).length;
    const expected = Math.max(0, count(before, line) - wanted);
    if (count(after, line) > expected) still += count(after, line) - expected;
  }
  return still;
}

export function readSnapshot(env: Pick<SweepEnvironment, 'workspaceRoot'>, file: PreImageFile): CuratedFileSnapshot {
  return file === 'DREAMS.md' ? readDiarySnapshot(env.workspaceRoot) : readCuratedFile(env.workspaceRoot, file);
}

function write(env: RollbackEnvironment, run: DreamRun, snapshot: CuratedFileSnapshot, text: string): void {
  const result = writeCuratedFile(snapshot, text, env.preImages, `rollback of ${run.id}`, run.id);
  if (result.outcome !== 'written') throw new ReverieError('conflict', `${result.reason.replace(/ The candidates stay staged for the next sweep\.$/, '')} The rollback of ${run.id} stopped; try again.`);
}
