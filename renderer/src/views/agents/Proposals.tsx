import { ErrorNotice } from '../../components/ErrorNotice.js';
import { useReverie } from '../../store/useReverie.js';
import { formatTime } from '../format.js';

/** Agents' corrections of your own lines: nothing changes until you accept one. */
export function Proposals() {
  const proposals = useReverie((s) => s.agents.proposals);
  const error = useReverie((s) => s.agents.proposalsError);
  const deciding = useReverie((s) => s.agents.deciding);
  const decide = useReverie((s) => s.agents.decideProposal);
  if (proposals.length === 0 && !error) return null;
  return (
    <section className="card agents-section" aria-labelledby="agents-proposals-heading" data-testid="agent-proposals">
      <h2 id="agents-proposals-heading">Proposed corrections</h2>
      <p className="muted">An agent asked to change a line you wrote. Your line stays as it is unless you accept.</p>
      {error && <ErrorNotice error={error} testId="agent-proposals-error" />}
      <ul className="agents-proposals">
        {proposals.map((p) => (
          <li key={p.id} data-testid="agent-proposal" data-id={p.id}>
            <p>
              <strong>{p.agent}</strong> on <code>{p.path}</code> line {p.line}, {formatTime(p.createdAt)}
            </p>
            <pre className="agents-diff">{`- ${p.before}\n+ ${p.after}`}</pre>
            <button type="button" className="button button-primary" data-testid="agent-proposal-accept" disabled={deciding !== null} onClick={() => void decide(p.id, 'accept')}>
              Accept
            </button>{' '}
            <button type="button" className="button" data-testid="agent-proposal-reject" disabled={deciding !== null} onClick={() => void decide(p.id, 'reject')}>
              Reject
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
