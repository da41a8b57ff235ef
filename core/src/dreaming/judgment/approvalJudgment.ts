import type { DreamCandidate, DreamConflict, DreamPromotion } from '../../contract/index.js';
import type { GatheredEntry } from '../phases/gatheredEntry.js';
import type { RankedCandidate } from '../phases/deepPhase.js';
import { activeCuratedEntries, type CuratedEntry } from './curatedEntries.js';
import { conflictId } from './conflictId.js';
import { judgeCandidates, type JudgedItem } from './judgeCandidates.js';

/** What approving a proposal does to its file as it is now. */
export type ApprovalVerdict =
  | { kind: 'write'; retire: CuratedEntry[] }
  | { kind: 'duplicate'; into: CuratedEntry }
  | { kind: 'stale'; newer: CuratedEntry }
  | { kind: 'conflict'; conflict: DreamConflict };

/**
 * The sweep's judgment run again when the person approves a proposal: the files may have changed
 * since it was proposed (a hand edit, another run). A restatement of an active line adds nothing,
 * an older line of the same subject is retired by the proposal's note day, a newer one keeps the
 * proposal out, and a dispute the days cannot settle is queued like the sweep's.
 */
export function judgeApproval(
  candidate: DreamCandidate,
  promotion: DreamPromotion,
  files: { memoryText: string; userText: string },
  decisions: ReadonlyMap<string, DreamConflict['status']>,
  runId: string,
  now: number,
): ApprovalVerdict {
  const curated = [...activeCuratedEntries('MEMORY.md', files.memoryText), ...activeCuratedEntries('USER.md', files.userText)];
  // The proposal's day is the one its lines carry (its source note, or `observed`), never the day of approval.
  const day = activeCuratedEntries(promotion.target, promotion.lines.join('\n'))[0]?.day ?? null;
  // judgeCandidates reads only the entry's text and the candidate record; a copy keeps the run's record as it was.
  const ranked: RankedCandidate = { entry: { text: candidate.text } as GatheredEntry, candidate: { ...candidate, target: promotion.target }, passed: true };
  const judgment = judgeCandidates([ranked], curated, () => day, decisions);
  const duplicate = judgment.duplicates[0];
  if (duplicate?.into.curated) return { kind: 'duplicate', into: duplicate.into.curated };
  const stale = judgment.stale[0];
  if (stale?.newer.curated) return { kind: 'stale', newer: stale.newer.curated };
  const conflict = judgment.conflicts[0];
  if (conflict) {
    // Side a is the text that sorts first, as the sweep queues it, so a decision names the same side.
    const [a, b] = conflict.a.text <= conflict.b.text ? [conflict.a, conflict.b] : [conflict.b, conflict.a];
    const side = (item: JudgedItem) =>
      item.curated
        ? { text: item.text, path: item.curated.file, line: item.curated.lineIndex + 1, day: item.day }
        : { text: item.text, path: candidate.path, line: candidate.startLine, day: item.day };
    return {
      kind: 'conflict',
      conflict: { id: conflictId(a.text, b.text), a: side(a), b: side(b), reason: conflict.reason, runId, detectedAt: new Date(now).toISOString(), status: 'open', resolvedAt: null },
    };
  }
  const accepted = judgment.accepted[0];
  return { kind: 'write', retire: (accepted?.retires ?? []).flatMap((r) => (r.curated && r.curated.file === promotion.target ? [r.curated] : [])) };
}
