import type { DreamFileWrite, DreamPromotion, DreamRun } from '../contract/index.js';
import { ReverieError } from '../platform/errors.js';

import { readCuratedFile, writeCuratedFile, type CuratedFileSnapshot } from '../workspace/curatedFiles.js';
import { promotionHeading } from './curated/memoryFile.js';
import { appendSection } from './curated/section.js';
import { removeRunChanges } from './curated/undo.js';
import { changesOfPromotion } from './approvedChanges.js';
import { quoteEntry } from './diary/quoteEntry.js';
import { applyDirective } from './curated/userFile.js';
import { appendDiaryEntry, formatDiaryDate } from './diary/writeDiary.js';
import { readDiarySnapshot } from './diarySnapshot.js';
import { localDay } from '../platform/localDay.js';
import { entryHash } from './recall/entryKeys.js';
import { setStagedStatus } from './stagedCandidates.js';
import type { SweepEnvironment } from './sweepEnvironment.js';
import type { TextEdit } from './types.js';
import { recordBeforeRename } from './runRecord.js';
import { judgeApproval } from './judgment/approvalJudgment.js';
import { conflictDecisions, queueConflicts } from './judgment/conflictQueue.js';
import { editCuratedEntries } from './judgment/curatedEdits.js';
import { processLogger } from '../platform/log/processLog.js';

const log = processLogger('dreaming');

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
      const other = readCuratedFile(env.workspaceRoot, promotion.target === 'USER.md' ? 'MEMORY.md' : 'USER.md');
      const files = promotion.target === 'USER.md' ? { memoryText: other.text, userText: snapshot.text } : { memoryText: snapshot.text, userText: other.text };
      // Judged again against the files as they are now: they may have changed since the sweep proposed it.
      const verdict = candidate ? judgeApproval(candidate, promotion, files, conflictDecisions(env.dreamDb), runId, now) : { kind: 'write' as const, retire: [] };
      if (verdict.kind === 'stale') {
        throw new ReverieError('conflict', `${promotion.target} line ${verdict.newer.lineIndex + 1} ("${verdict.newer.body}") is newer and says otherwise, so ${candidateKey} was not written; reject it, or edit that line first.`);
      }
      if (verdict.kind === 'conflict') {
        queueConflicts(env.dreamDb, [verdict.conflict]);
        throw new ReverieError('conflict', `${candidateKey} contradicts "${verdict.conflict.a.text === candidate?.text ? verdict.conflict.b.text : verdict.conflict.a.text}" and their days cannot order them: it was not written, and the pair waits for you in Dreams → Conflicts.`);
      }
      if (verdict.kind === 'duplicate') {
        promotion.lines = [];
        noteInDiary(env, run, `You approved ${quoteEntry(candidate?.text ?? candidateKey)}; ${promotion.target} already says it (line ${verdict.into.lineIndex + 1}), so I added nothing.`);
      } else {
        // The older lines it supersedes are retired in the same write, as a sweep would have done.
        const retired = editCuratedEntries(snapshot.text, verdict.retire, []);
        const edit: TextEdit & { superseded?: string[] } =
          promotion.target === 'USER.md'
            ? applyDirective(retired.text, { text: candidate?.text ?? '', observed: observedDayOf(promotion.lines) })
            : appendSection(retired.text, promotionHeading(localDay(now)), promotion.lines);
        if (edit.added.length > 0) {
          const write = writeChecked(env, run, snapshot, { ...edit, changed: [...retired.changed, ...edit.changed] }, `approved promotion in ${runId}`);
          if (write.outcome !== 'written') throw new ReverieError('conflict', write.reason ?? `${promotion.target} could not be written.`);
          promotion.lines = edit.added.filter((l) => !/^#{1,6}\s/.test(l));
          const superseded = [...verdict.retire.map((r) => r.body), ...(edit.superseded ?? [])];
          Object.assign(promotion, superseded.length > 0 ? { action: 'superseded', priorEntries: superseded } : { action: 'added', priorEntries: [] });
          env.recordWrittenLines(promotion.target, promotion.lines, candidate?.origin ?? 'owner', runId, candidateKey);
          noteInDiary(env, run, `You approved ${quoteEntry(candidate?.text ?? candidateKey)}, so I wrote it into ${promotion.target}.`);
        }
      }
      setStagedStatus(env.dreamDb, path, hash, 'promoted', runId, now);
    }
    decide(promotion, 'approved', now);
  } else {
    if (promotion.decision !== 'proposed') {
      const snapshot = readCuratedFile(env.workspaceRoot, promotion.target);
      // Its lines go, and what it changed in place (the directive it superseded) comes back.
      const changes = changesOfPromotion(run, promotion);
      const undone = removeRunChanges(snapshot.text, { added: promotion.lines, changed: changes });
      if (undone.text !== snapshot.text) {
        const inverse = changes.map((c) => ({ before: c.after, after: c.before }));
        const write = writeChecked(env, run, snapshot, { text: undone.text, added: [], changed: inverse }, `rejected promotion in ${runId}`);
        if (write.outcome !== 'written') throw new ReverieError('conflict', write.reason ?? `${promotion.target} could not be written.`);
      }
      noteInDiary(env, run, `You rejected ${quoteEntry(candidate?.text ?? candidateKey)}, so I took it back out of ${promotion.target}.`);
    }
    setStagedStatus(env.dreamDb, path, hash, 'rejected', runId, now);
    decide(promotion, 'rejected', now);
  }
  env.runs.save(run);
  return run;
}

const OBSERVED = /<!--\s*observed:\s*(\d{4}-\d{2}-\d{2})\s*-->/;

/**
 * The day the proposed directive was said, as the sweep read it from its note: approving it
 * today does not make it newer than what was written in between.
 */
function observedDayOf(lines: readonly string[]): string | null {
  for (const line of lines) {
    const day = OBSERVED.exec(line)?.[1];
    if (day) return day;
  }
  return null;
}

function decide(promotion: DreamPromotion, decision: 'approved' | 'rejected', now: number): void {
  promotion.decision = decision;
  promotion.decidedAt = new Date(now).toISOString();
}

/**
 * Writes through the sweep's checked write and records it on the run, so a later rollback
 * knows the review was part of the run: undoing the run undoes its review too, except what the
 * person approved.
 */
function writeChecked(env: ActionEnvironment, run: DreamRun, snapshot: CuratedFileSnapshot, edit: TextEdit, reason: string): DreamFileWrite {
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
  run.writes.push(record);
  const result = writeCuratedFile(snapshot, edit.text, env.preImages, reason, run.id, recordBeforeRename(env, run, record));
  if (result.outcome === 'aborted') {
    record.reason = result.reason;
    run.writes.splice(run.writes.indexOf(record), 1);
  } else Object.assign(record, { outcome: 'written', afterSha256: result.afterSha256, preImageId: result.preImageId });
  return record;
}

/** A review that changed MEMORY.md or USER.md says so in the diary; a diary that cannot be written is left as it is. */
function noteInDiary(env: ActionEnvironment, run: DreamRun, narrative: string): void {
  let diary: CuratedFileSnapshot;
  try {
    diary = readDiarySnapshot(env.workspaceRoot);
  } catch (error) {
    // A symlinked or non-UTF-8 diary is not rewritten; the review itself already happened.
    log.warn('The review note was not written to DREAMS.md', { runId: run.id, error });
    return;
  }
  if (diary.truncated) return;
  const edit = appendDiaryEntry(diary.text, { dateLine: formatDiaryDate(new Date(env.now()), env.timeZone), runId: run.id, narrative });
  writeChecked(env, run, diary, edit, `review note for ${run.id}`);
}
