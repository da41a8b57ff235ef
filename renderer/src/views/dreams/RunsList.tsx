import type { DreamRunSummary } from '../../../../core/src/contract/index.js';
import { Badge } from '../../components/Badge.js';
import { DataTable, type Column } from '../../components/DataTable.js';
import { EmptyState } from '../../components/EmptyState.js';
import { ErrorNotice } from '../../components/ErrorNotice.js';
import { canRollback, rollbackKey } from '../../store/dreamsSlice.js';
import { useReverie } from '../../store/useReverie.js';
import { formatTime } from '../format.js';
import { STATUS_LABEL, STATUS_TONE, TRIGGER_LABEL } from './dreamText.js';

const PAGE = 10;

const COLUMNS: Array<Column<DreamRunSummary>> = [
  { key: 'started', header: 'Started', minWidth: 150, cell: (run) => <OpenRun run={run} /> },
  { key: 'status', header: 'Status', minWidth: 170, cell: (run) => <RunState run={run} /> },
  { key: 'trigger', header: 'Trigger', priority: 3, minWidth: 90, cell: (run) => TRIGGER_LABEL[run.trigger] },
  { key: 'candidates', header: 'Candidates', align: 'end', priority: 2, minWidth: 95, cell: (run) => run.candidates },
  {
    key: 'promoted',
    header: 'Promoted',
    align: 'end',
    priority: 2,
    minWidth: 110,
    cell: (run) => (
      <>
        {run.promoted}
        {run.proposed > 0 && <span className="muted"> (+{run.proposed} proposed)</span>}
      </>
    ),
  },
  { key: 'actions', header: 'Actions', headerHidden: true, className: 'actions-cell', minWidth: 110, cell: (run) => <RollbackRun run={run} /> },
];

/** Dream runs, newest first; a row opens its card. */
export function RunsList() {
  const runs = useReverie((s) => s.dreams.runs);
  const state = useReverie((s) => s.dreams.runsState);
  const error = useReverie((s) => s.dreams.runsError);
  const selectedRunId = useReverie((s) => s.dreams.selectedRunId);
  const selectRun = useReverie((s) => s.dreams.selectRun);
  return (
    <section className="card dreams-section" aria-labelledby="dream-runs-heading" data-testid="dream-runs">
      <h2 id="dream-runs-heading">Runs</h2>
      {state === 'error' && <ErrorNotice title="Could not list dream runs" error={error} testId="dream-runs-error" />}
      {state === 'loading' && runs.length === 0 && <p className="muted">Loading…</p>}
      <DataTable
        className="dreams-runs-table"
        aria-labelledby="dream-runs-heading"
        columns={COLUMNS}
        rows={runs}
        rowKey={(run) => run.id}
        rowProps={(run) => ({
          className: 'dream-run-row',
          'data-testid': 'dream-run-row',
          'data-run-id': run.id,
          'data-status': run.status,
          'data-dry-run': run.dryRun ? 'true' : 'false',
          'data-rolled-back': run.rolledBack ? 'true' : 'false',
        })}
        selectedKey={selectedRunId}
        onRowClick={(run) => void selectRun(run.id)}
        pageSize={PAGE}
        noun="runs"
        moreTestId="dream-runs-more"
        empty={
          state === 'ready' ? <EmptyState testId="dream-runs-empty">No dream runs yet. Dream now, or wait for the nightly sweep.</EmptyState> : null
        }
      />
    </section>
  );
}

function OpenRun({ run }: { run: DreamRunSummary }) {
  const selectRun = useReverie((s) => s.dreams.selectRun);
  return (
    <button type="button" className="link-button dream-run-open" data-testid="dream-run-open" onClick={() => void selectRun(run.id)}>
      {formatTime(run.startedAt)}
    </button>
  );
}

function RunState({ run }: { run: DreamRunSummary }) {
  return (
    <>
      <Badge tone={STATUS_TONE[run.status]} testId="dream-run-status">
        {STATUS_LABEL[run.status]}
      </Badge>
      {run.dryRun && <Badge className="badge-dreams dream-tag">dry run</Badge>}
      {run.rolledBack && (
        <Badge tone="warn" className="dream-tag" title={`Rolled back ${formatTime(run.rolledBack.at)} (${run.rolledBack.mode})`}>
          rolled back
        </Badge>
      )}
      {run.reason && <div className="reason-cell dream-reason">{run.reason}</div>}
    </>
  );
}

function RollbackRun({ run }: { run: DreamRunSummary }) {
  const rollback = useReverie((s) => s.dreams.rollback);
  const pending = useReverie((s) => s.dreams.pending);
  const isHeld = useReverie((s) => s.undo.held?.key === rollbackKey(run.id));
  const actionError = useReverie((s) => (s.dreams.actionError?.key === rollbackKey(run.id) ? s.dreams.actionError : null));
  return (
    <>
      {canRollback(run) && (
        <button
          type="button"
          className="button button-small button-danger"
          data-testid="dream-rollback"
          disabled={pending !== null || isHeld}
          onClick={() => void rollback(run.id)}
        >
          {pending === rollbackKey(run.id) ? 'Rolling back…' : 'Roll back'}
        </button>
      )}
      {actionError && <ErrorNotice variant="inline" error={actionError.message} testId="dream-rollback-error" />}
    </>
  );
}
