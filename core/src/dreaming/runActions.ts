import fs from 'node:fs';
import type { DreamFileWrite, DreamPromotion, DreamRun } from '../contract/index.js';
import { ReverieError } from '../platform/errors.js';

import { readCuratedFile, writeCuratedFile, type CuratedFileSnapshot } from '../workspace/curatedFiles.js';
import { promotionHeading } from './curated/memoryFile.js';
import { joinLines, splitLines, isBlank } from './curated/lines.js';
import { removeRunChanges } from './curated/undo.js';
import { applyDirective } from './curated/userFile.js';
import { appendDiaryEntry, formatDiaryDate } from './diary/writeDiary.js';
import { readDiarySnapshot } from './diarySnapshot.js';
import { localDay } from '../platform/localDay.js';
import { entryHash } from './recall/entryKeys.js';
import { setStagedStatus } from './stagedCandidates.js';
import type { SweepEnvironment } from './sweepEnvironment.js';
import type { TextEdit } from './types.js';

type ActionEnvironment = Pick<SweepEnvironment, 'dreamDb' | 'workspaceRoot' | 'preImages' | 'runs' | 'recordWrittenLines' | 'now' | 'timeZone'>;

/**
 * The person's decision on one promotion. Approve: a proposal is written now; a written
 * promotion is protected from later rollback. Reject: a proposal is dropped; a written one is
 * removed through the same checked write, and the diary says so.
 */
export function reviewPromotion(env: ActionEnvironment, runId: string, candidateKey: string, decision: 'approve' | 'reject'): DreamRun {
  const run = env.runs.get(runId);
  if (run.dryRun) throw new ReverieError('conflict', `${runId} was a dry run: it wrote nothing, so there is nothing to review.`);
  const promotion = run.promoted.find((p) => p.candidateKey === candidateKey);
  if (!promotion) throw new ReverieError('not-found', `${runId} has no promotion for ${candidateKey}; \`reverie dream runs\` lists runs, \`dream.get\` shows their promotions.`);
  if (promotion.decision === 'rejected') throw new ReverieError('conflict', `${candidateKey} was already rejected in ${runId}.`);
  if (run.rolledBack) throw new ReverieError('conflict', `${runId} was rolled back; its promotions can no longer be reviewed.`);
  const candidate = run.candidates.find((c) => c.key === candidateKey);
  const hash = entryHash(candidate?.text ?? '') ?? '';
  const path = candidateKey.slice(0, candidateKey.lastIndexOf(':', candidateKey.lastIndexOf(':') - 1));
  const now = env.now();

  if (decision === 'approve') {
    if (promotion.decision === 'proposed') {
      const snapshot = readCuratedFile(env.workspaceRoot, promotion.target);
      const edit =
        promotion.target === 'USER.md'
          ? applyDirective(snapshot.text, { text: candidate?.text ?? '', observed: localDay(now) })
          : appendSection(snapshot.text, promotionHeading(localDay(now)), promotion.lines);
      if (edit.added.length > 0) {
        const write = writeChecked(env, run, snapshot, edit, `approved promotion in ${runId}`);
        if (write.outcome !== 'written') throw new ReverieError('conflict', write.reason ?? `${promotion.target} could not be written.`);
        promotion.lines = edit.added.filter((l) => !/^#{1,6}\s/.test(l));
        env.recordWrittenLines(promotion.target, promotion.lines, candidate?.origin ?? 'owner', runId, candidateKey);
      }
      setStagedStatus(env.dreamDb, path, hash, 'promoted', runId, now);
    }
    decide(promotion, 'approved', now);
  } else {
    if (promotion.decision !== 'proposed') {
      const snapshot = readCuratedFile(env.workspaceRoot, promotion.target);
      const undone = removeRunChanges(snapshot.text, { added: promotion.lines, changed: [] });
      if (undone.text !== snapshot.text) {
        const write = writeChecked(env, run, snapshot, { text: undone.text, added: [], changed: [] }, `rejected promotion in ${runId}`);
        if (write.outcome !== 'written') throw new ReverieError('conflict', write.reason ?? `${promotion.target} could not be written.`);
      }
      noteInDiary(env, run, `You rejected “${candidate?.text ?? candidateKey}”, so I took it back out of ${promotion.target}.`);
    }
    setStagedStatus(env.dreamDb, path, hash, 'rejected', runId, now);
    decide(promotion, 'rejected', now);
  }
  env.runs.save(run);
  return run;
}

/**
 * Undo a run. A file unchanged since the run gets its pre-image back byte for byte; a file
 * edited since loses exactly the run's lines (and gets back lines the run changed). Approved
 * promotions are kept either way.
 */
export function rollbackRun(env: ActionEnvironment, runId: string): DreamRun {
  const run = env.runs.get(runId);
  if (run.status === 'running') throw new ReverieError('conflict', `${runId} is still running; wait for it to finish before rolling it back.`);
  if (run.dryRun) throw new ReverieError('conflict', `${runId} was a dry run: it wrote nothing to roll back.`);
  if (run.rolledBack) throw new ReverieError('conflict', `${runId} was already rolled back at ${run.rolledBack.at}.`);
  const now = env.now();
  const approvedLines = new Set(run.promoted.filter((p) => p.decision === 'approved').flatMap((p) => p.lines));
  let restoredAll = true;
  for (const file of ['MEMORY.md', 'USER.md', 'DREAMS.md'] as const) {
    const writes = run.writes.filter((w) => w.file === file && w.outcome === 'written');
    if (writes.length === 0) continue;
    const snapshot = file === 'DREAMS.md' ? readDiarySnapshot(env.workspaceRoot) : readCuratedFile(env.workspaceRoot, file);
    const first = writes[0]!;
    const last = writes.at(-1)!;
    const protectedHere = writes.some((w) => w.added.some((l) => approvedLines.has(l)));
    if (!protectedHere && first.beforeSha256 === null && snapshot.sha256 === last.afterSha256) {
      // The run created the file and nobody touched it since: restoring means it is gone again.
      fs.rmSync(snapshot.abs, { force: true });
      continue;
    }
    if (!protectedHere && first.preImageId && snapshot.sha256 === last.afterSha256) {
      const { bytes } = env.preImages.read(first.preImageId);
      const result = writeChecked(env, run, snapshot, { text: bytes.toString('utf8'), added: [], changed: [] }, `rollback of ${runId}`, false);
      if (result.outcome !== 'written') throw new ReverieError('conflict', result.reason ?? `${file} could not be restored.`);
      continue;
    }
    restoredAll = false;
    const undone = removeRunChanges(snapshot.text, {
      added: writes.flatMap((w) => w.added).filter((l) => !approvedLines.has(l)),
      changed: writes.flatMap((w) => w.changed),
    });
    const removedByRun = writes.flatMap((w) => w.removed);
    const text = removedByRun.length > 0 ? appendSection(undone.text, `## Restored by rollback of ${runId}`, removedByRun).text : undone.text;
    if (text === snapshot.text) continue;
    const result = writeChecked(env, run, snapshot, { text, added: [], changed: [] }, `rollback of ${runId}`, false);
    if (result.outcome !== 'written') throw new ReverieError('conflict', result.reason ?? `${file} could not be rolled back.`);
  }
  for (const p of run.promoted) {
    if (p.decision === 'approved' || p.decision === 'rejected') continue;
    const candidate = run.candidates.find((c) => c.key === p.candidateKey);
    const path = p.candidateKey.slice(0, p.candidateKey.lastIndexOf(':', p.candidateKey.lastIndexOf(':') - 1));
    setStagedStatus(env.dreamDb, path, entryHash(candidate?.text ?? '') ?? '', 'rolled-back', runId, now);
  }
  if (run.backfill) env.dreamDb.prepare("DELETE FROM staged_candidates WHERE run_id = ? AND status = 'staged'").run(runId);
  run.rolledBack = { at: new Date(now).toISOString(), mode: restoredAll ? 'restored' : 'lines-removed' };
  env.runs.save(run);
  return run;
}

function decide(promotion: DreamPromotion, decision: 'approved' | 'rejected', now: number): void {
  promotion.decision = decision;
  promotion.decidedAt = new Date(now).toISOString();
}

/** Writes through the sweep's checked write and records it on the run (so a later rollback knows). */
function writeChecked(env: ActionEnvironment, run: DreamRun, snapshot: CuratedFileSnapshot, edit: TextEdit, reason: string, recordOnRun = true): DreamFileWrite {
  const record: DreamFileWrite = {
    file: snapshot.name,
    outcome: 'aborted',
    reason: null,
    beforeSha256: snapshot.sha256,
    afterSha256: null,
    added: edit.added,
    changed: edit.changed,
    removed: [],
    preImageId: null,
  };
  const result = writeCuratedFile(snapshot, edit.text, env.preImages, reason, run.id);
  if (result.outcome === 'aborted') record.reason = result.reason;
  else Object.assign(record, { outcome: 'written', afterSha256: result.afterSha256, preImageId: result.preImageId });
  if (recordOnRun && record.outcome === 'written' && record.added.length > 0) run.writes.push(record);
  return record;
}

function noteInDiary(env: ActionEnvironment, run: DreamRun, narrative: string): void {
  const diary = readDiarySnapshot(env.workspaceRoot);
  if (diary.truncated) return;
  const edit = appendDiaryEntry(diary.text, { dateLine: formatDiaryDate(new Date(env.now()), env.timeZone), runId: run.id, narrative });
  writeChecked(env, run, diary, edit, `review note for ${run.id}`, false);
}

/** Appends lines under a heading, one blank line before it. */
function appendSection(text: string, heading: string, lines: readonly string[]): TextEdit {
  const split = splitLines(text);
  const body = split.lines.length > 0 && !isBlank(split.lines.at(-1)!) ? [...split.lines, ''] : [...split.lines];
  const added = [heading, ...lines];
  return { text: joinLines({ lines: [...body, ...added], eol: split.eol, finalNewline: true }), added, changed: [] };
}

