import type { DreamFileWrite, DreamPromotion, DreamRun } from '../contract/index.js';
import { ReverieError } from '../platform/errors.js';

import { readCuratedFile, writeCuratedFile, type CuratedFileSnapshot } from '../workspace/curatedFiles.js';
import { promotionHeading } from './curated/memoryFile.js';
import { appendSection } from './curated/section.js';
import { removeRunChanges } from './curated/undo.js';
import { applyDirective } from './curated/userFile.js';
import { appendDiaryEntry, formatDiaryDate } from './diary/writeDiary.js';
import { readDiarySnapshot } from './diarySnapshot.js';
import { localDay } from '../platform/localDay.js';
import { entryHash } from './recall/entryKeys.js';
import { setStagedStatus } from './stagedCandidates.js';
import type { SweepEnvironment } from './sweepEnvironment.js';
import type { TextEdit } from './types.js';
import { recordBeforeRename } from './runRecord.js';

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
  const onRun = recordOnRun && edit.added.length > 0;
  if (onRun) run.writes.push(record);
  const result = writeCuratedFile(snapshot, edit.text, env.preImages, reason, run.id, onRun ? recordBeforeRename(env, run, record) : undefined);
  if (result.outcome === 'aborted') {
    record.reason = result.reason;
    if (onRun) run.writes.splice(run.writes.indexOf(record), 1);
  } else Object.assign(record, { outcome: 'written', afterSha256: result.afterSha256, preImageId: result.preImageId });
  return record;
}

function noteInDiary(env: ActionEnvironment, run: DreamRun, narrative: string): void {
  const diary = readDiarySnapshot(env.workspaceRoot);
  if (diary.truncated) return;
  const edit = appendDiaryEntry(diary.text, { dateLine: formatDiaryDate(new Date(env.now()), env.timeZone), runId: run.id, narrative });
  writeChecked(env, run, diary, edit, `review note for ${run.id}`, false);
}
