import { useEffect, useId } from 'react';
import type { AgentInfo } from '../../../../core/src/contract/index.js';
import { displayAgentName } from '../../store/agentsSlice.js';
import { useReverie } from '../../store/useReverie.js';
import { formatTime } from '../format.js';
import { AccessLog } from './AccessLog.js';
import { AgentSetup } from './AgentSetup.js';
import { BootstrapPreview } from './BootstrapPreview.js';
import { CopyBox } from './CopyBox.js';

/** Local agents: who may read (and write) your memory, how to connect them, and what they asked. */
export function AgentsView() {
  const load = useReverie((s) => s.agents.load);
  const onLeave = useReverie((s) => s.agents.onLeave);
  const listState = useReverie((s) => s.agents.listState);
  // The token shown once must not outlive the view, however it goes away.
  useEffect(() => onLeave, [onLeave]);
  return (
    <section className="view agents-view" aria-labelledby="agents-heading" data-testid="agents-view">
      <header className="view-header">
        <h1 id="agents-heading">Agents</h1>
        <button type="button" className="button" data-testid="agents-refresh" disabled={listState === 'loading'} onClick={() => void load()}>
          Refresh
        </button>
      </header>
      <p className="muted agents-intro">
        Local agents — Claude Code, Codex, Hermes, OpenClaw or any MCP client — search and read your memory through Reverie with a
        token you give them. Tokens with <em>write</em> may also store notes in today&apos;s daily note (never in <code>MEMORY.md</code>{' '}
        or <code>USER.md</code>). Every call is logged below; revoke a token to shut an agent out.
      </p>
      <AddAgent />
      <AgentsList />
      <AgentSetup />
      <AccessLog />
      <BootstrapPreview />
    </section>
  );
}

function AddAgent() {
  const name = useReverie((s) => s.agents.addName);
  const write = useReverie((s) => s.agents.addWrite);
  const addState = useReverie((s) => s.agents.addState);
  const addError = useReverie((s) => s.agents.addError);
  const setName = useReverie((s) => s.agents.setAddName);
  const setWrite = useReverie((s) => s.agents.setAddWrite);
  const add = useReverie((s) => s.agents.add);
  const nameId = useId();
  const errorId = useId();
  const isAdding = addState === 'adding';
  return (
    <section className="card agents-section" aria-labelledby="agents-add-heading" data-testid="agent-add">
      <h2 id="agents-add-heading">Add an agent</h2>
      <form
        className="agents-add-form"
        onSubmit={(event) => {
          event.preventDefault();
          void add();
        }}
      >
        <label htmlFor={nameId} className="field-label">
          Name
        </label>
        <div className="field-body">
          <input
            id={nameId}
            className="text-input agents-name-input"
            data-testid="agent-add-name"
            value={name}
            placeholder="laptop-claude"
            autoComplete="off"
            spellCheck={false}
            aria-invalid={addError !== null}
            aria-describedby={addError ? errorId : undefined}
            disabled={isAdding}
            onChange={(event) => setName(event.target.value)}
          />
          {addError && (
            <p className="field-error" id={errorId} role="alert" data-testid="agent-add-error">
              {addError}
            </p>
          )}
          <label className="checkbox">
            <input type="checkbox" data-testid="agent-add-write" checked={write} disabled={isAdding} onChange={(event) => setWrite(event.target.checked)} />
            Can write (store notes)
          </label>
          <p className="field-help">Without it the agent can only search and read. The name is what you will see in the access log.</p>
          <button type="submit" className="button button-primary" data-testid="agent-add-submit" disabled={isAdding}>
            {isAdding ? 'Creating…' : 'Create token'}
          </button>
        </div>
      </form>
      <CreatedToken />
    </section>
  );
}

function CreatedToken() {
  const created = useReverie((s) => s.agents.created);
  const dismiss = useReverie((s) => s.agents.dismissToken);
  if (!created) return null;
  return (
    <div className="agents-token" data-testid="agent-token" data-agent={created.name}>
      <div className="banner banner-warn" role="alert" data-testid="agent-token-warning">
        <span>
          <strong>Copy this token now: it is shown only now.</strong> Reverie keeps only a hash of it; if you lose it, revoke{' '}
          <strong>{created.name}</strong> and create a new one. The setup snippets below already contain it.
        </span>
      </div>
      <p className="muted">
        Token for <strong>{created.name}</strong> ({created.scopes.join(' + ')}):
      </p>
      <CopyBox text={created.token} testId="agent-token-box" label="the token" className="agents-token-box" />
      <button type="button" className="button" data-testid="agent-token-dismiss" onClick={dismiss}>
        I have copied it — hide the token
      </button>
    </div>
  );
}

function ScopeBadge({ scopes }: { scopes: AgentInfo['scopes'] }) {
  const canWrite = scopes.includes('write');
  return (
    <span className={`badge ${canWrite ? 'badge-agent-write' : 'badge-agent-read'}`} data-testid="agent-scopes">
      {canWrite ? 'read + write' : 'read'}
    </span>
  );
}

function AgentsList() {
  const agents = useReverie((s) => s.agents.agents);
  const state = useReverie((s) => s.agents.listState);
  const error = useReverie((s) => s.agents.listError);
  const revoking = useReverie((s) => s.agents.revoking);
  const revokeError = useReverie((s) => s.agents.revokeError);
  const revoke = useReverie((s) => s.agents.revoke);
  return (
    <section className="card agents-section" aria-labelledby="agents-list-heading" data-testid="agents-list">
      <h2 id="agents-list-heading">Agents</h2>
      {state === 'error' && (
        <div className="banner banner-error" role="alert" data-testid="agents-list-error">
          Could not list the agents: {error}
        </div>
      )}
      {revokeError && (
        <div className="banner banner-error" role="alert" data-testid="agent-revoke-error">
          {revokeError}
        </div>
      )}
      {!agents && state === 'loading' && <p className="muted">Loading…</p>}
      {agents && agents.length === 0 && <p className="muted">No agents yet. Add one above to give it a token.</p>}
      {agents && agents.length > 0 && (
        <table className="coverage-table agents-table">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Scopes</th>
              <th scope="col">Created</th>
              <th scope="col">Last used</th>
              <th scope="col" className="num">
                Calls
              </th>
              <th scope="col">State</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {agents.map((agent) => {
              const isRevoked = agent.revokedAt !== null;
              const name = displayAgentName(agent.name);
              return (
                <tr
                  key={agent.id}
                  className={isRevoked ? 'agent-row is-revoked' : 'agent-row'}
                  data-testid="agent-row"
                  data-agent={name}
                  data-revoked={isRevoked ? 'true' : 'false'}
                >
                  <th scope="row">{name}</th>
                  <td>
                    <ScopeBadge scopes={agent.scopes} />
                  </td>
                  <td>{formatTime(agent.createdAt)}</td>
                  <td data-testid="agent-last-used">{agent.lastUsedAt ? formatTime(agent.lastUsedAt) : <span className="muted">never</span>}</td>
                  <td className="num" data-testid="agent-calls">
                    {agent.calls}
                  </td>
                  <td data-testid="agent-state">
                    {isRevoked ? (
                      <span className="badge badge-failed" title={`Revoked ${formatTime(agent.revokedAt as string)}`}>
                        revoked
                      </span>
                    ) : (
                      <span className="badge badge-indexed">active</span>
                    )}
                  </td>
                  <td>
                    {!isRevoked && (
                      <button
                        type="button"
                        className="button button-small button-danger"
                        data-testid="agent-revoke"
                        disabled={revoking !== null}
                        onClick={() => void revoke(agent.name)}
                      >
                        {revoking === agent.name ? 'Revoking…' : 'Revoke'}
                      </button>
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
    </section>
  );
}
