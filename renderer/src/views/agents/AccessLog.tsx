import { useId } from 'react';
import type { AccessLogEntry } from '../../../../core/src/contract/index.js';
import { DataTable, type Column } from '../../components/DataTable.js';
import { EmptyState } from '../../components/EmptyState.js';
import { ErrorNotice } from '../../components/ErrorNotice.js';
import { displayAgentName } from '../../store/agentsSlice.js';
import { useReverie } from '../../store/useReverie.js';
import { formatTime } from '../format.js';

const COLUMNS: Array<Column<AccessLogEntry>> = [
  { key: 'time', header: 'Time', className: 'agents-log-time', minWidth: 150, cell: (entry) => formatTime(entry.at) },
  { key: 'agent', header: 'Agent', minWidth: 100, cell: (entry) => displayAgentName(entry.agent) },
  { key: 'method', header: 'Method', minWidth: 130, cell: (entry) => <code>{entry.method}</code> },
  {
    key: 'detail',
    header: 'Detail',
    className: 'agents-log-detail',
    priority: 2,
    minWidth: 180,
    cellProps: () => ({ 'data-testid': 'agent-log-detail' }),
    cell: (entry) => entry.detail ?? <span className="muted">—</span>,
  },
  { key: 'result', header: 'Result', minWidth: 110, cellProps: () => ({ 'data-testid': 'agent-log-result' }), cell: (entry) => <Result entry={entry} /> },
  { key: 'duration', header: 'Duration', align: 'end', priority: 3, minWidth: 80, cell: (entry) => formatDuration(entry.durationMs) },
  { key: 'via', header: 'Via', priority: 3, minWidth: 60, cell: (entry) => (entry.transport === 'mcp' ? 'MCP' : 'socket') },
];

/** Every agent call, newest first: filter by agent, refresh, show more. */
export function AccessLog() {
  const entries = useReverie((s) => s.agents.log);
  const state = useReverie((s) => s.agents.logState);
  const error = useReverie((s) => s.agents.logError);
  const logAgent = useReverie((s) => s.agents.logAgent);
  const hasMore = useReverie((s) => s.agents.logHasMore);
  const agents = useReverie((s) => s.agents.agents);
  const loadLog = useReverie((s) => s.agents.loadLog);
  const setLogAgent = useReverie((s) => s.agents.setLogAgent);
  const showMore = useReverie((s) => s.agents.showMoreLog);
  const filterId = useId();
  // The log keeps the name an agent had when it called (a revoked agent's reused name included).
  const names = [...new Set([...(agents ?? []).map((a) => displayAgentName(a.name)), ...(logAgent ? [logAgent] : [])])];
  return (
    <section className="card agents-section" aria-labelledby="agents-log-heading" data-testid="agent-log">
      <div className="section-head">
        <h2 id="agents-log-heading">Access log</h2>
        <div className="button-row">
          <label className="inline-field" htmlFor={filterId}>
            Agent
          </label>
          <select
            id={filterId}
            className="select"
            data-testid="agent-log-filter"
            value={logAgent ?? ''}
            onChange={(event) => void setLogAgent(event.target.value || null)}
          >
            <option value="">All agents</option>
            {names.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </select>
          <button type="button" className="button" data-testid="agent-log-refresh" disabled={state === 'loading'} onClick={() => void loadLog()}>
            {state === 'loading' ? 'Refreshing…' : 'Refresh'}
          </button>
        </div>
      </div>
      {state === 'error' && <ErrorNotice title="Could not read the access log" error={error} testId="agent-log-error" />}
      <DataTable
        className="agents-log-table"
        aria-labelledby="agents-log-heading"
        columns={COLUMNS}
        rows={entries}
        rowKey={(entry, i) => `${entry.at}:${i}`}
        rowProps={(entry) => ({
          className: entry.ok ? 'agent-log-row' : 'agent-log-row is-error',
          'data-testid': 'agent-log-row',
          'data-method': entry.method,
          'data-ok': entry.ok ? 'true' : 'false',
        })}
        detailsIn="method"
        empty={
          state === 'ready' ? (
            <EmptyState testId="agent-log-empty">{logAgent ? `No calls from ${displayAgentName(logAgent)} yet.` : 'No agent has called yet.'}</EmptyState>
          ) : null
        }
      />
      {hasMore && (
        <div className="button-row agents-log-more">
          <button type="button" className="button" data-testid="agent-log-more" disabled={state === 'loading'} onClick={() => void showMore()}>
            Show more
          </button>
        </div>
      )}
    </section>
  );
}

function Result({ entry }: { entry: AccessLogEntry }) {
  if (!entry.ok) return <span className="agents-log-error">{entry.error ?? 'error'}</span>;
  if (entry.results === null) return <span className="muted">ok</span>;
  return <>{`${entry.results} ${entry.results === 1 ? 'result' : 'results'}`}</>;
}

function formatDuration(ms: number): string {
  if (ms < 10) return `${ms.toFixed(1)} ms`;
  if (ms < 1000) return `${Math.round(ms)} ms`;
  return `${(ms / 1000).toFixed(1)} s`;
}
