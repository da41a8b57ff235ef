import { useEffect, useId } from 'react';
import type { AgentInfo } from '../../../../core/src/contract/index.js';
import { Badge } from '../../components/Badge.js';
import { DataTable, type Column } from '../../components/DataTable.js';
import { EmptyState } from '../../components/EmptyState.js';
import { ErrorNotice } from '../../components/ErrorNotice.js';
import { Field, describedBy } from '../../components/Field.js';
import { displayAgentName } from '../../store/agentsSlice.js';
import { useReverie } from '../../store/useReverie.js';
import { formatTime } from '../format.js';
import { AccessLog } from './AccessLog.js';
import { AgentSetup } from './AgentSetup.js';
import { BootstrapPreview } from './BootstrapPreview.js';
import { Proposals } from './Proposals.js';
import { CopyBox } from './CopyBox.js';
import './agents.css';

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
      <Proposals />
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
        <Field label="Name" controlId={nameId} error={addError} errorId={errorId} errorTestId="agent-add-error">
          <input
            id={nameId}
            className="text-input agents-name-input"
            data-testid="agent-add-name"
            value={name}
            placeholder="laptop-claude"
            autoComplete="off"
            spellCheck={false}
            aria-invalid={addError !== null}
            aria-describedby={describedBy(addError && errorId)}
            disabled={isAdding}
            onChange={(event) => setName(event.target.value)}
          />
        </Field>
        <Field label="Access" help="Without it the agent can only search and read. The name is what you will see in the access log.">
          <label className="checkbox">
            <input type="checkbox" data-testid="agent-add-write" checked={write} disabled={isAdding} onChange={(event) => setWrite(event.target.checked)} />
            Can write (store notes)
          </label>
        </Field>
        <div className="form-actions">
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
    <Badge className={canWrite ? 'badge-agent-write' : 'badge-agent-read'} testId="agent-scopes">
      {canWrite ? 'read + write' : 'read'}
    </Badge>
  );
}

const AGENT_COLUMNS: Array<Column<AgentInfo>> = [
  { key: 'name', header: 'Name', rowHeader: true, minWidth: 120, cell: (agent) => displayAgentName(agent.name) },
  { key: 'scopes', header: 'Scopes', minWidth: 110, cell: (agent) => <ScopeBadge scopes={agent.scopes} /> },
  { key: 'created', header: 'Created', priority: 3, minWidth: 150, cell: (agent) => formatTime(agent.createdAt) },
  {
    key: 'lastUsed',
    header: 'Last used',
    priority: 2,
    minWidth: 150,
    cellProps: () => ({ 'data-testid': 'agent-last-used' }),
    cell: (agent) => (agent.lastUsedAt ? formatTime(agent.lastUsedAt) : <span className="muted">never</span>),
  },
  { key: 'calls', header: 'Calls', align: 'end', priority: 2, minWidth: 60, cellProps: () => ({ 'data-testid': 'agent-calls' }), cell: (agent) => agent.calls },
  {
    key: 'state',
    header: 'State',
    minWidth: 80,
    cellProps: () => ({ 'data-testid': 'agent-state' }),
    cell: (agent) =>
      agent.revokedAt !== null ? (
        <Badge tone="error" title={`Revoked ${formatTime(agent.revokedAt)}`}>
          revoked
        </Badge>
      ) : (
        <Badge tone="ok">active</Badge>
      ),
  },
  { key: 'actions', header: 'Actions', headerHidden: true, minWidth: 100, cell: (agent) => <RevokeAgent agent={agent} /> },
];

function RevokeAgent({ agent }: { agent: AgentInfo }) {
  const revoking = useReverie((s) => s.agents.revoking);
  const revoke = useReverie((s) => s.agents.revoke);
  if (agent.revokedAt !== null) return null;
  return (
    <button
      type="button"
      className="button button-small button-danger"
      data-testid="agent-revoke"
      disabled={revoking !== null}
      onClick={() => void revoke(agent.name)}
    >
      {revoking === agent.name ? 'Revoking…' : 'Revoke'}
    </button>
  );
}

function AgentsList() {
  const agents = useReverie((s) => s.agents.agents);
  const state = useReverie((s) => s.agents.listState);
  const error = useReverie((s) => s.agents.listError);
  const revokeError = useReverie((s) => s.agents.revokeError);
  return (
    <section className="card agents-section" aria-labelledby="agents-list-heading" data-testid="agents-list">
      <h2 id="agents-list-heading">Agents</h2>
      {state === 'error' && <ErrorNotice title="Could not list the agents" error={error} testId="agents-list-error" />}
      {revokeError && <ErrorNotice error={revokeError} testId="agent-revoke-error" />}
      {!agents && state === 'loading' && <p className="muted">Loading…</p>}
      {agents && (
        <DataTable
          className="agents-table"
          aria-labelledby="agents-list-heading"
          columns={AGENT_COLUMNS}
          rows={agents}
          rowKey={(agent) => agent.id}
          rowProps={(agent) => ({
            className: agent.revokedAt !== null ? 'agent-row is-revoked' : 'agent-row',
            'data-testid': 'agent-row',
            'data-agent': displayAgentName(agent.name),
            'data-revoked': agent.revokedAt !== null ? 'true' : 'false',
          })}
          empty={<EmptyState>No agents yet. Add one above to give it a token.</EmptyState>}
        />
      )}
    </section>
  );
}
