import type { EntryKind, EntryKindSpan } from '../../../../core/src/contract/index.js';
import { Badge, type BadgeTone } from '../../components/Badge.js';

/** Tasks and questions are work in progress; a dated fact holds for a while; the rest are lasting. */
const TONE: Record<EntryKind, BadgeTone> = {
  fact: 'neutral',
  preference: 'info',
  decision: 'info',
  procedure: 'neutral',
  event: 'neutral',
  task: 'warn',
  question: 'warn',
  'time-bounded': 'warn',
};

const TITLE: Record<EntryKind, string> = {
  fact: 'A fact',
  preference: 'A preference or rule of yours',
  decision: 'A decision',
  procedure: 'Steps to do something',
  event: 'Something that happened',
  task: 'A task: work in progress, never made long-term memory',
  question: 'An open question: never made long-term memory',
  'time-bounded': 'Holds for a while: long-term memory only until its end',
};

/** What kind of entry a line is, as the index read it: "task", "time-bounded until 2026-11-06". */
export function KindBadge({ span }: { span: Pick<EntryKindSpan, 'kind' | 'validUntil' | 'cue'> }) {
  const until = span.kind === 'time-bounded' ? ` until ${span.validUntil ?? '?'}` : '';
  return (
    <Badge tone={TONE[span.kind]} className="kind-badge" testId="kind-badge" data-kind={span.kind} title={`${TITLE[span.kind]} (decided by ${span.cue})`}>
      {span.kind}
      {until}
    </Badge>
  );
}

/** The distinct kinds of a result's entries, in order: one badge each (a passage may hold a fact and a task). */
export function KindBadges({ spans }: { spans: readonly EntryKindSpan[] | undefined }) {
  const distinct = new Map<string, EntryKindSpan>();
  for (const span of spans ?? []) if (!distinct.has(`${span.kind}|${span.validUntil}`)) distinct.set(`${span.kind}|${span.validUntil}`, span);
  return (
    <>
      {[...distinct.values()].slice(0, 3).map((span) => (
        <KindBadge key={`${span.kind}|${span.validUntil}`} span={span} />
      ))}
    </>
  );
}
