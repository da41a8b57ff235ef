import { ShowMore, useShownCount } from '../shell/ShowMore.js';
import type { DreamRunSummary } from '../../../../core/src/contract/index.js';
import { canRollback, rollbackKey } from '../../store/dreamsSlice.js';
import { useReverie } from '../../store/useReverie.js';
import { formatTime } from '../format.js';
import { STATUS_BADGE, STATUS_LABEL, TRIGGER_LABEL } from './dreamText.js';

const PAGE = 10;

/** Dream runs, newest first; a row opens its card. */
export function RunsList() {
  const runs = useReverie((s) => s.dreams.runs);
  const state = useReverie((s) => s.dreams.runsState);
  const error = useReverie((s) => s.dreams.runsError);
  const { shown, showMore } = useShownCount(PAGE);
  const visible = runs.slice(0, shown);
  return (
    <section className="card dreams-section" aria-labelledby="dream-runs-heading" data-testid="dream-runs">
      <h2 id="dream-runs-heading">Runs</h2>
      {state === 'error' && (
        <div className="banner banner-error" role="alert" data-testid="dream-runs-error">
          Could not list dream runs: {error}
        </div>
      )}
      {state === 'loading' && runs.length === 0 && <p className="muted">Loading…</p>}
      {state === 'ready' && runs.length === 0 && (
        <p className="muted" data-testid="dream-runs-empty">
          No dream runs yet. Dream now, or wait for the nightly sweep.
        </p>
      )}
      {runs.length > 0 && (
        <table className="coverage-table dreams-runs-table">
          <thead>
            <tr>
              <th scope="col">Started</th>
              <th scope="col">Status</th>
              <th scope="col">Trigger</th>
              <th scope="col" className="num">
                Candidates
              </th>
              <th scope="col" className="num">
                Promoted
              </th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {visible.map((run) => (
              <RunRow key={run.id} run={run} />
            ))}
          </tbody>
        </table>
      )}
      <ShowMore shown={shown} total={runs.length} noun="runs" testId="dream-runs-more" onShowMore={showMore} />
    </section>
  );
}

function RunRow({ run }: { run: DreamRunSummary }) {
  const selectedRunId = useReverie((s) => s.dreams.selectedRunId);
  const selectRun = useReverie((s) => s.dreams.selectRun);
  const rollback = useReverie((s) => s.dreams.rollback);
  const pending = useReverie((s) => s.dreams.pending);
  const actionError = useReverie((s) => (s.dreams.actionError?.key === rollbackKey(run.id) ? s.dreams.actionError : null));
  const isSelected = selectedRunId === run.id;
  return (
    <tr
      className={`dream-run-row${isSelected ? ' is-selected' : ''}`}
      data-testid="dream-run-row"
      data-run-id={run.id}
      data-status={run.status}
      data-dry-run={run.dryRun ? 'true' : 'false'}
      data-rolled-back={run.rolledBack ? 'true' : 'false'}
      aria-current={isSelected ? 'true' : undefined}
    >
      <td>
        <button type="button" className="link-button dream-run-open" data-testid="dream-run-open" onClick={() => void selectRun(run.id)}>
          {formatTime(run.startedAt)}
        </button>
      </td>
      <td>
        <span className={`badge ${STATUS_BADGE[run.status]}`} data-testid="dream-run-status">
          {STATUS_LABEL[run.status]}
        </span>
        {run.dryRun && <span className="badge badge-dreams dream-tag">dry run</span>}
        {run.rolledBack && (
          <span className="badge badge-skipped dream-tag" title={`Rolled back ${formatTime(run.rolledBack.at)} (${run.rolledBack.mode})`}>
            rolled back
          </span>
        )}
        {run.reason && <div className="reason-cell dream-reason">{run.reason}</div>}
      </td>
      <td>{TRIGGER_LABEL[run.trigger]}</td>
      <td className="num">{run.candidates}</td>
      <td className="num">
        {run.promoted}
        {run.proposed > 0 && <span className="muted"> (+{run.proposed} proposed)</span>}
      </td>
      <td className="actions-cell">
        {canRollback(run) && (
          <button
            type="button"
            className="button button-small button-danger"
            data-testid="dream-rollback"
            disabled={pending !== null}
            onClick={() => void rollback(run.id)}
          >
            {pending === rollbackKey(run.id) ? 'Rolling back…' : 'Roll back'}
          </button>
        )}
        {actionError && (
          <div className="reason-cell dream-action-error" role="alert" data-testid="dream-rollback-error">
            {actionError.message}
          </div>
        )}
      </td>
    </tr>
  );
}
