import { Badge } from '../../components/Badge.js';
import { useReverie } from '../../store/useReverie.js';
import { setupSnippets, socketAuthExample, socketSearchExample } from './agentSetup.js';
import { CopyBox } from './CopyBox.js';

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
      <div className="agents-snippets">
        {snippets.map((snippet) => (
          <div key={snippet.id} className="agents-snippet" data-testid={`agent-snippet-${snippet.id}`}>
            <h3>{snippet.title}</h3>
            <p className="muted">{snippet.where}</p>
            <CopyBox text={snippet.text} testId={`agent-snippet-${snippet.id}-box`} label={`the ${snippet.title} setup`} />
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
          <CopyBox text={`${socketAuthExample(token)}\n${socketSearchExample()}`} testId="agent-socket-example" label="the socket example" />
          {socket && !socket.listening && (
            <p className="muted">Nothing serves the socket right now; it opens while the app, <code>reverie serve</code> or <code>reverie daemon</code> runs.</p>
          )}
        </div>
      </div>
    </section>
  );
}
