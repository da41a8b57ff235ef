import type { DreamFileWrite, DreamPromotion, DreamRun } from '../../../../core/src/contract/index.js';
import { Badge, type BadgeTone } from '../../components/Badge.js';
import { DataTable, type Column } from '../../components/DataTable.js';
import { EmptyState } from '../../components/EmptyState.js';
import { ErrorNotice } from '../../components/ErrorNotice.js';
import { TechnicalDetails } from '../../components/TechnicalDetails.js';
import { ShowMore, useShownCount } from '../../components/ShowMore.js';
import { reviewKey } from '../../store/dreamsSlice.js';
import { useReverie } from '../../store/useReverie.js';
import { formatCitation, formatTime } from '../format.js';
import { DECISION_LABEL, DECISION_TONE, WRITE_TONE, withRunsNamed } from './dreamText.js';

const PAGE = 20;

const ACTION_LABEL: Record<DreamPromotion['action'], string> = {
  added: 'added to',
  merged: 'merged into',
  superseded: 'superseded in',
};

/** What the run promoted (or proposes), each as a small diff with Approve / Reject. */
export function Promotions({ run }: { run: DreamRun }) {
  const { shown, showMore } = useShownCount(PAGE);
  if (run.promoted.length === 0) {
    return <EmptyState testId="dream-promotions-empty">{run.dryRun ? 'Nothing would be promoted.' : 'Nothing was promoted.'}</EmptyState>;
  }
  return (
    <>
      <ul className="dream-promotions" data-testid="dream-promotions">
        {run.promoted.slice(0, shown).map((promotion) => (
          <PromotionItem key={promotion.candidateKey} run={run} promotion={promotion} />
        ))}
      </ul>
      <ShowMore shown={shown} total={run.promoted.length} noun="promotions" onShowMore={showMore} />
    </>
  );
}

function PromotionItem({ run, promotion }: { run: DreamRun; promotion: DreamPromotion }) {
  const review = useReverie((s) => s.dreams.review);
  const openEvidence = useReverie((s) => s.dreams.openEvidence);
  const pending = useReverie((s) => s.dreams.pending);
  const key = reviewKey(run.id, promotion.candidateKey);
  const actionError = useReverie((s) => (s.dreams.actionError?.key === key ? s.dreams.actionError : null));
  const candidate = run.candidates.find((c) => c.key === promotion.candidateKey) ?? null;
  const canReview = !run.dryRun && run.rolledBack === null && promotion.decision !== 'rejected';
  const canApprove = canReview && promotion.decision !== 'approved';
  const isPending = pending === key;
  // A Reject waiting for its Undo: the row's buttons wait too.
  const isHeld = useReverie((s) => s.undo.held?.key === key);
  return (
    <li
      className={`dream-promotion dream-decision-${promotion.decision}`}
      data-testid="dream-promotion"
      data-candidate-key={promotion.candidateKey}
      data-decision={promotion.decision}
      data-target={promotion.target}
    >
      <div className="dream-promotion-head">
        <span>
          {ACTION_LABEL[promotion.action]} <code>{promotion.target}</code>
        </span>
        <DecisionBadge run={run} promotion={promotion} />
        {promotion.decidedAt && <span className="muted">{formatTime(promotion.decidedAt)}</span>}
        {candidate && (
          <button
            type="button"
            className="link-button dream-evidence"
            data-testid="dream-promotion-evidence"
            title="Where from? Open the Provenance inspector on the original lines"
            onClick={() => void openEvidence(candidate)}
          >
            from {formatCitation(candidate.path, candidate.startLine, candidate.endLine)}
          </button>
        )}
        <span className="dream-promotion-actions">
          {canApprove && (
            <button
              type="button"
              className="button button-small"
              data-testid="dream-approve"
              disabled={pending !== null || isHeld}
              title={promotion.decision === 'proposed' ? 'Write it into ' + promotion.target : 'Keep it, also when the run is rolled back'}
              onClick={() => void review(promotion.candidateKey, 'approve')}
            >
              {isPending ? '…' : 'Approve'}
            </button>
          )}
          {canReview && (
            <button
              type="button"
              className="button button-small button-danger"
              data-testid="dream-reject"
              disabled={pending !== null || isHeld}
              title={promotion.decision === 'proposed' ? 'Drop the proposal' : `Remove it from ${promotion.target}`}
              onClick={() => void review(promotion.candidateKey, 'reject')}
            >
              {isPending ? '…' : 'Reject'}
            </button>
          )}
        </span>
      </div>
      <pre className="dream-diff" data-testid="dream-diff">
        {promotion.priorEntries.map((line, i) => (
          <span key={`-${i}`} className="dream-diff-line dream-diff-remove" data-testid="dream-diff-remove">
            <span className="dream-diff-sign">-</span>
            {line}
            {'\n'}
          </span>
        ))}
        {promotion.lines.map((line, i) => (
          <span key={`+${i}`} className="dream-diff-line dream-diff-add" data-testid="dream-diff-add">
            <span className="dream-diff-sign">+</span>
            {line}
            {'\n'}
          </span>
        ))}
      </pre>
      {actionError && (
        <ErrorNotice
          title={`Could not ${promotion.decision === 'proposed' ? 'review' : 'change'} this promotion`}
          error={actionError.message}
          testId="dream-review-error"
        />
      )}
    </li>
  );
}

/** The person's decision, or what a dry run would do, or that a rollback undid it (approved ones survive one). */
function DecisionBadge({ run, promotion }: { run: DreamRun; promotion: DreamPromotion }) {
  let label = DECISION_LABEL[promotion.decision];
  let tone: BadgeTone = DECISION_TONE[promotion.decision];
  if (run.dryRun) {
    label = promotion.decision === 'proposed' ? 'would be proposed' : 'would be written';
    tone = 'neutral';
  } else if (run.rolledBack && (promotion.decision === 'auto' || promotion.decision === 'proposed')) {
    label = 'rolled back';
    tone = 'warn';
  }
  return (
    <Badge tone={tone} className={run.dryRun ? 'badge-dreams' : undefined} testId="dream-promotion-decision">
      {label}
    </Badge>
  );
}

const WRITE_COLUMNS: Array<Column<DreamFileWrite>> = [
  { key: 'file', header: 'File', minWidth: 110, cell: (write) => <code>{write.file}</code> },
  {
    key: 'outcome',
    header: 'Outcome',
    minWidth: 160,
    cell: (write) => (
      <>
        <Badge tone={WRITE_TONE[write.outcome]} className={write.outcome === 'dry-run' ? 'badge-dreams' : undefined}>
          {write.outcome}
        </Badge>
        {write.reason && <div className="reason-cell">{withRunsNamed(write.reason)}</div>}
      </>
    ),
  },
  { key: 'lines', header: 'Lines', minWidth: 100, cell: (write) => <WriteLines write={write} /> },
  {
    key: 'preImage',
    header: 'Pre-image',
    className: 'path-cell',
    priority: 2,
    minWidth: 160,
    cell: (write) =>
      write.preImageId ? (
        <>
          kept (see Pre-images)
          <TechnicalDetails facts={[{ label: 'Pre-image', value: write.preImageId }]} />
        </>
      ) : (
        <span className="muted">—</span>
      ),
  },
];

/** What the run did to each file: written, aborted (and why), unchanged, or only a dry run. */
export function Writes({ writes }: { writes: readonly DreamFileWrite[] }) {
  return (
    <DataTable
      className="dream-writes"
      testId="dream-writes"
      columns={WRITE_COLUMNS}
      rows={writes}
      rowKey={(write, i) => `${write.file}:${i}`}
      rowProps={(write) => ({ 'data-testid': 'dream-write', 'data-file': write.file, 'data-outcome': write.outcome })}
      empty={<EmptyState>No file was touched.</EmptyState>}
    />
  );
}

/** `+2 −1 ~1`, and the exact lines on demand. */
function WriteLines({ write }: { write: DreamFileWrite }) {
  const { added, removed, changed } = write;
  if (added.length + removed.length + changed.length === 0) return <span className="muted">—</span>;
  return (
    <details className="dream-write-lines">
      <summary>
        <span className="dream-count-add">+{added.length}</span> <span className="dream-count-remove">−{removed.length}</span>
        {changed.length > 0 && <span className="muted"> ~{changed.length}</span>}
      </summary>
      <pre className="dream-diff">
        {removed.map((line, i) => (
          <span key={`-${i}`} className="dream-diff-line dream-diff-remove">
            <span className="dream-diff-sign">-</span>
            {line}
            {'\n'}
          </span>
        ))}
        {changed.map((change, i) => (
          <span key={`~${i}`}>
            <span className="dream-diff-line dream-diff-remove">
              <span className="dream-diff-sign">-</span>
              {change.before}
              {'\n'}
            </span>
            <span className="dream-diff-line dream-diff-add">
              <span className="dream-diff-sign">+</span>
              {change.after}
              {'\n'}
            </span>
          </span>
        ))}
        {added.map((line, i) => (
          <span key={`+${i}`} className="dream-diff-line dream-diff-add">
            <span className="dream-diff-sign">+</span>
            {line}
            {'\n'}
          </span>
        ))}
      </pre>
    </details>
  );
}
