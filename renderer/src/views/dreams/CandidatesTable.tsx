import { ShowMore, useShownCount } from '../shell/ShowMore.js';
import type { DreamCandidate, DreamComponents, DreamRun } from '../../../../core/src/contract/index.js';
import { useReverie } from '../../store/useReverie.js';
import { formatCitation, formatTime } from '../format.js';
import { OriginBadge, SessionKindBadge } from '../provenance/OriginBadge.js';
import { GATE_LABEL, OUTCOME_LABEL, OUTCOME_TITLE, byScore, formatUnit } from './dreamText.js';

const PAGE = 25;

const OUTCOME_BADGE: Record<DreamCandidate['outcome'], string> = {
  promoted: 'badge-indexed',
  proposed: 'badge-memory',
  'not-written': 'badge-failed',
  'below-gates': '',
  ineligible: 'badge-skipped',
  duplicate: '',
};

const COMPONENTS: Array<{ key: keyof DreamComponents; label: string; title: string }> = [
  { key: 'relevance', label: 'rel', title: 'Relevance: how well it matched the searches that recalled it' },
  { key: 'frequency', label: 'freq', title: 'Frequency: how often it was recalled' },
  { key: 'diversity', label: 'div', title: 'Diversity: how many different queries and days' },
  { key: 'recency', label: 'rec', title: 'Recency: how recently it was recalled' },
  { key: 'consolidation', label: 'cons', title: 'Consolidation: recalled across several days' },
  { key: 'richness', label: 'rich', title: 'Richness: concepts and detail in the entry' },
  { key: 'remBoost', label: 'REM', title: 'REM boost: part of a recurring theme' },
];

/** Every candidate with its signals, score components and gate outcomes, highest score first. */
export function CandidatesTable({ run }: { run: DreamRun }) {
  const { shown, showMore } = useShownCount(PAGE);
  if (run.candidates.length === 0) return <p className="muted">No candidates: nothing in the lookback window was recalled.</p>;
  const sorted = byScore(run.candidates);
  return (
    <>
      <div className="dreams-table-wrap">
        <table className="coverage-table dream-candidates" data-testid="dream-candidates">
          <thead>
            <tr>
              <th scope="col" className="num">
                Score
              </th>
              <th scope="col">Entry</th>
              <th scope="col">Signals</th>
              <th scope="col">Components</th>
              <th scope="col">Gates</th>
              <th scope="col">Outcome</th>
            </tr>
          </thead>
          <tbody>
            {sorted.slice(0, shown).map((candidate) => (
              <CandidateRow key={candidate.key} candidate={candidate} minScore={run.thresholds.minScore} />
            ))}
          </tbody>
        </table>
      </div>
      <ShowMore shown={shown} total={sorted.length} noun="candidates" testId="dream-candidates-more" onShowMore={showMore} />
    </>
  );
}

function CandidateRow({ candidate, minScore }: { candidate: DreamCandidate; minScore: number }) {
  const openEvidence = useReverie((s) => s.dreams.openEvidence);
  const { signals, components } = candidate;
  const citation = formatCitation(candidate.path, candidate.startLine, candidate.endLine);
  const failed = candidate.gates.filter((gate) => !gate.passed);
  return (
    <tr
      className={`dream-candidate dream-outcome-${candidate.outcome}`}
      data-testid="dream-candidate"
      data-key={candidate.key}
      data-outcome={candidate.outcome}
      data-origin={candidate.origin}
    >
      <td className={`num dream-score${candidate.score >= minScore ? ' is-above' : ''}`} title={`Gate: ${formatUnit(minScore)}`}>
        {formatUnit(candidate.score)}
      </td>
      <td className="dream-entry">
        <div className="dream-entry-text">{candidate.text}</div>
        <div className="dream-entry-meta">
          <button
            type="button"
            className="link-button dream-evidence"
            data-testid="dream-evidence"
            data-ref={`${candidate.path}:${candidate.startLine}-${candidate.endLine}`}
            title="Where from? Open the Provenance inspector on these lines"
            onClick={() => void openEvidence(candidate)}
          >
            {citation}
          </button>
          <OriginBadge origin={candidate.origin} testId="dream-origin-badge" />
          {candidate.sessionKind && <SessionKindBadge kind={candidate.sessionKind} />}
          {candidate.imported && (
            <span className="badge badge-skipped" title="Copied from another tool's memory: never promoted">
              imported
            </span>
          )}
          {candidate.source !== 'memory' && <span className={`badge badge-${candidate.source}`}>{candidate.source}</span>}
          {candidate.heading && <span className="muted dream-heading">§ {candidate.heading}</span>}
        </div>
      </td>
      <td className="dream-signals">
        <span title="Times recalled by a search">{signals.recallCount}×</span> ·{' '}
        <span title="Mean search score when recalled">{formatUnit(signals.meanScore)}</span> ·{' '}
        <span title="Different queries that recalled it">
          {signals.uniqueQueries} {signals.uniqueQueries === 1 ? 'query' : 'queries'}
        </span>{' '}
        ·{' '}
        <span title="Different days it was recalled or written">
          {signals.uniqueDays} {signals.uniqueDays === 1 ? 'day' : 'days'}
        </span>
        <div className="muted">
          {signals.lastRecalledAt ? <>last recalled {formatTime(signals.lastRecalledAt)}</> : <>never recalled</>}
        </div>
        {signals.conceptTags.length > 0 && <div className="muted dream-tags">#{signals.conceptTags.slice(0, 6).join(' #')}</div>}
      </td>
      <td>
        <div className="dream-components">
          {COMPONENTS.filter((c) => c.key !== 'remBoost' || components.remBoost !== 0).map((c) => (
            <span key={c.key} className="dream-component" title={c.title}>
              {c.label} {formatUnit(components[c.key])}
            </span>
          ))}
        </div>
      </td>
      <td className="dream-gates">
        <div className="dream-gate-chips">
          {candidate.gates.map((gate) => (
            <span
              key={gate.gate}
              className={`dream-gate ${gate.passed ? 'is-passed' : 'is-failed'}`}
              data-testid="dream-gate"
              data-gate={gate.gate}
              data-passed={gate.passed ? 'true' : 'false'}
              title={gate.detail}
            >
              {gate.passed ? '✓' : '✗'} {GATE_LABEL[gate.gate]}
            </span>
          ))}
        </div>
        {candidate.gates.length > 0 && (
          <details className="dream-gate-details">
            <summary>{failed.length === 0 ? 'why it passed' : `why not (${failed.length})`}</summary>
            <ul>
              {candidate.gates.map((gate) => (
                <li key={gate.gate} className={gate.passed ? 'is-passed' : 'is-failed'}>
                  {gate.passed ? '✓' : '✗'} <strong>{gate.gate}</strong>: {gate.detail}
                </li>
              ))}
            </ul>
          </details>
        )}
      </td>
      <td>
        <span className={`badge ${OUTCOME_BADGE[candidate.outcome]}`} title={OUTCOME_TITLE[candidate.outcome]} data-testid="dream-candidate-outcome">
          {OUTCOME_LABEL[candidate.outcome]}
        </span>
        {candidate.target && <div className="muted">→ {candidate.target}</div>}
      </td>
    </tr>
  );
}
