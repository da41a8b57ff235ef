import { Badge } from '../../components/Badge.js';
import { ErrorNotice } from '../../components/ErrorNotice.js';
import { useReverie } from '../../store/useReverie.js';
import { setupSnippets, socketAuthExample, socketSearchExample } from './agentSetup.js';
import { CopyBox } from './CopyBox.js';

/** One click: Reverie writes the tool's own configuration (its MCP server with a new token, and its hooks). */
function ConnectButtons({ tool, label }: { tool: string; label: string }) {
  const connecting = useReverie((s) => s.agents.connecting);
  const connect = useReverie((s) => s.agents.connect);
  const disconnect = useReverie((s) => s.agents.disconnect);
  const busy = connecting !== null;
  return (
    <div className="agents-connect-actions">
      <button type="button" className="button button-primary" data-testid={`agent-connect-${tool}`} disabled={busy} onClick={() => void connect(tool, false)}>
        {connecting === tool ? 'Working…' : `Connect ${label}`}
      </button>
      <button type="button" className="button" data-testid={`agent-connect-preview-${tool}`} disabled={busy} onClick={() => void connect(tool, true)}>
        Preview changes
      </button>
      <button type="button" className="button button-danger" data-testid={`agent-disconnect-${tool}`} disabled={busy} onClick={() => void disconnect(tool)}>
        Disconnect
      </button>
    </div>
  );
}

/** What the last connect or disconnect did to each file, with its diff. */
function ConnectResultPanel() {
  const result = useReverie((s) => s.agents.connectResult);
  const error = useReverie((s) => s.agents.connectError);
  if (error) return <ErrorNotice title="Could not change the agent's configuration" error={error} testId="agent-connect-error" />;
  if (!result) return null;
  return (
    <div className="agents-connect-result" data-testid="agent-connect-result" data-tool={result.tool} data-dry-run={result.dryRun ? 'true' : 'false'}>
      <p>
        {result.dryRun ? `Connecting ${result.tool} would change:` : 'agent' in result ? `Connected ${result.tool}. Restart it to pick up the change.` : `Disconnected ${result.tool}.`}
      </p>
      <ul>
        {result.files.map((file) => (
          <li key={file.path} data-testid="agent-connect-file" data-action={file.action}>
            <code>{file.path}</code>: {file.action}
            {file.backup && <span className="muted"> (backup {file.backup})</span>}
            {file.diff && <pre className="agents-diff">{file.diff}</pre>}
          </li>
        ))}
      </ul>
      {'notes' in result && result.notes.map((note) => <p key={note} className="muted">{note}</p>)}
    </div>
  );
}

/** Copy-paste setup for each agent, with the token on screen (or a placeholder), and the raw socket. */
export function AgentSetup() {
  const created = useReverie((s) => s.agents.created);
  const workspace = useReverie((s) => s.status.data?.workspace.path ?? null);
  const socket = useReverie((s) => s.agents.socket);
  const launch = useReverie((s) => s.agents.mcpLaunch);
  const token = created?.token ?? null;
  const snippets = setupSnippets(token, workspace, launch);
  return (
    <section className="card agents-section" aria-labelledby="agents-setup-heading" data-testid="agent-setup">
      <h2 id="agents-setup-heading">Connect an agent</h2>
      <p className="muted">
        <strong>Connect</strong> writes the agent&apos;s own configuration for you: its MCP server with a new token, and for Claude Code and Codex the
        hooks that bring your memory into each session. Every other setting in those files is kept, each file is backed up first, and
        Disconnect puts them back.
      </p>
      <p className="muted">
        {token ? (
          <>
            These snippets contain the token of <strong>{created?.name}</strong>, shown only now.
          </>
        ) : (
          <>
            Replace <code>&lt;token&gt;</code> with the token you got when adding the agent.
          </>
        )}{' '}
        Every agent runs <code>reverie mcp</code> (the command below is this installation's): it talks to this Reverie while it runs, or opens the workspace itself.
      </p>
      <ConnectResultPanel />
      <div className="agents-snippets">
        {snippets.map((snippet) => (
          <div key={snippet.id} className="agents-snippet" data-testid={`agent-snippet-${snippet.id}`}>
            <h3>{snippet.title}</h3>
            <ConnectButtons tool={snippet.id} label={snippet.title} />
            <details className="agents-by-hand">
              <summary>Or set it up by hand</summary>
              <p className="muted">{snippet.where}</p>
              <CopyBox text={snippet.text} testId={`agent-snippet-${snippet.id}-box`} label={`the ${snippet.title} setup`} />
            </details>
          </div>
        ))}
        <div className="agents-snippet" data-testid="agent-socket">
          <h3>Raw socket</h3>
          <p className="muted">
            Newline-delimited JSON-RPC 2.0 on a local socket
            {socket ? (
              <>
                {' '}
                at <code data-testid="agent-socket-path">{socket.path}</code>{' '}
                <Badge tone={socket.listening ? 'ok' : 'warn'} testId="agent-socket-state" data-listening={socket.listening ? 'true' : 'false'}>
                  {socket.listening ? 'listening' : 'not listening'}
                </Badge>
              </>
            ) : (
              '.'
            )}{' '}
            Send <code>auth</code> first (or <code>token</code> in each request&apos;s params), then call methods by name:
          </p>
          <details className="agents-by-hand">
            <summary>Show an example</summary>
            <CopyBox text={`${socketAuthExample(token)}\n${socketSearchExample()}`} testId="agent-socket-example" label="the socket example" />
          </details>
          {socket && !socket.listening && (
            <p className="muted">Nothing serves the socket right now; it opens while the app, <code>reverie serve</code> or <code>reverie daemon</code> runs.</p>
          )}
        </div>
      </div>
    </section>
  );
}
