import { ShowMore, useShownCount } from '../shell/ShowMore.js';
import type { DreamFileWrite, DreamPromotion, DreamRun } from '../../../../core/src/contract/index.js';
import { reviewKey } from '../../store/dreamsSlice.js';
import { useReverie } from '../../store/useReverie.js';
import { formatCitation, formatTime } from '../format.js';
import { DECISION_BADGE, DECISION_LABEL, WRITE_BADGE } from './dreamText.js';

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
    return (
      <p className="muted" data-testid="dream-promotions-empty">
        {run.dryRun ? 'Nothing would be promoted.' : 'Nothing was promoted.'}
      </p>
    );
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
              disabled={pending !== null}
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
              disabled={pending !== null}
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
        <div className="banner banner-error" role="alert" data-testid="dream-review-error">
          Could not {promotion.decision === 'proposed' ? 'review' : 'change'} this promotion: {actionError.message}
        </div>
      )}
    </li>
  );
}

/** The person's decision, or what a dry run would do, or that a rollback undid it (approved ones survive one). */
function DecisionBadge({ run, promotion }: { run: DreamRun; promotion: DreamPromotion }) {
  let label = DECISION_LABEL[promotion.decision];
  let badge = DECISION_BADGE[promotion.decision];
  if (run.dryRun) {
    label = promotion.decision === 'proposed' ? 'would be proposed' : 'would be written';
    badge = 'badge-dreams';
  } else if (run.rolledBack && (promotion.decision === 'auto' || promotion.decision === 'proposed')) {
    label = 'rolled back';
    badge = 'badge-skipped';
  }
  return (
    <span className={`badge ${badge}`} data-testid="dream-promotion-decision">
      {label}
    </span>
  );
}

/** What the run did to each file: written, aborted (and why), unchanged, or only a dry run. */
export function Writes({ writes }: { writes: readonly DreamFileWrite[] }) {
  if (writes.length === 0) return <p className="muted">No file was touched.</p>;
  return (
    <table className="coverage-table dream-writes" data-testid="dream-writes">
      <thead>
        <tr>
          <th scope="col">File</th>
          <th scope="col">Outcome</th>
          <th scope="col">Lines</th>
          <th scope="col">Pre-image</th>
        </tr>
      </thead>
      <tbody>
        {writes.map((write, i) => (
          <tr key={`${write.file}:${i}`} data-testid="dream-write" data-file={write.file} data-outcome={write.outcome}>
            <td>
              <code>{write.file}</code>
            </td>
            <td>
              <span className={`badge ${WRITE_BADGE[write.outcome]}`}>{write.outcome}</span>
              {write.reason && <div className="reason-cell">{write.reason}</div>}
            </td>
            <td>
              <WriteLines write={write} />
            </td>
            <td className="path-cell">{write.preImageId ? <code>{write.preImageId}</code> : <span className="muted">—</span>}</td>
          </tr>
        ))}
      </tbody>
    </table>
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
