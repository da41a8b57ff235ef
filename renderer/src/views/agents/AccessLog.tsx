import { useId } from 'react';
import { displayAgentName } from '../../store/agentsSlice.js';
import { useReverie } from '../../store/useReverie.js';
import { formatTime } from '../format.js';

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
      {state === 'error' && (
        <div className="banner banner-error" role="alert" data-testid="agent-log-error">
          Could not read the access log: {error}
        </div>
      )}
      {entries.length === 0 && state === 'ready' && (
        <p className="muted" data-testid="agent-log-empty">
          {logAgent ? `No calls from ${displayAgentName(logAgent)} yet.` : 'No agent has called yet.'}
        </p>
      )}
      {entries.length > 0 && (
        <table className="coverage-table agents-log-table">
          <thead>
            <tr>
              <th scope="col">Time</th>
              <th scope="col">Agent</th>
              <th scope="col">Method</th>
              <th scope="col">Detail</th>
              <th scope="col">Result</th>
              <th scope="col" className="num">
                Duration
              </th>
              <th scope="col">Via</th>
            </tr>
          </thead>
          <tbody>
            {entries.map((entry, i) => (
              <tr
                key={`${entry.at}:${i}`}
                className={entry.ok ? 'agent-log-row' : 'agent-log-row is-error'}
                data-testid="agent-log-row"
                data-method={entry.method}
                data-ok={entry.ok ? 'true' : 'false'}
              >
                <td className="agents-log-time">{formatTime(entry.at)}</td>
                <td>{displayAgentName(entry.agent)}</td>
                <td>
                  <code>{entry.method}</code>
                </td>
                <td className="agents-log-detail" data-testid="agent-log-detail">
                  {entry.detail ?? <span className="muted">—</span>}
                </td>
                <td data-testid="agent-log-result">
                  {entry.ok ? (
                    entry.results === null ? (
                      <span className="muted">ok</span>
                    ) : (
                      `${entry.results} ${entry.results === 1 ? 'result' : 'results'}`
                    )
                  ) : (
                    <span className="agents-log-error">{entry.error ?? 'error'}</span>
                  )}
                </td>
                <td className="num">{formatDuration(entry.durationMs)}</td>
                <td>{entry.transport === 'mcp' ? 'MCP' : 'socket'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
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

function formatDuration(ms: number): string {
  if (ms < 10) return `${ms.toFixed(1)} ms`;
  if (ms < 1000) return `${Math.round(ms)} ms`;
  return `${(ms / 1000).toFixed(1)} s`;
}
