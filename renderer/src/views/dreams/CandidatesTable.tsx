import type { DreamCandidate, DreamComponents, DreamRun } from '../../../../core/src/contract/index.js';
import { Badge, type BadgeTone } from '../../components/Badge.js';
import { DataTable, type Column } from '../../components/DataTable.js';
import { EmptyState } from '../../components/EmptyState.js';
import { useReverie } from '../../store/useReverie.js';
import { formatCitation, formatTime } from '../format.js';
import { OriginBadge, SessionKindBadge } from '../provenance/OriginBadge.js';
import { GATE_LABEL, OUTCOME_LABEL, OUTCOME_TITLE, byScore, formatAgainstGate, formatUnit } from './dreamText.js';
import './CandidatesTable.css';

const PAGE = 25;

const OUTCOME_TONE: Record<DreamCandidate['outcome'], BadgeTone> = {
  promoted: 'ok',
  proposed: 'info',
  'not-written': 'error',
  'below-gates': 'neutral',
  ineligible: 'warn',
  duplicate: 'neutral',
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

/**
 * Gates and Outcome say why a candidate was (not) promoted: they never collapse. Signals and
 * score components move into the entry's detail line when the table is narrow.
 */
function candidateColumns(minScore: number): Array<Column<DreamCandidate>> {
  return [
    {
      key: 'score',
      header: 'Score',
      align: 'end',
      minWidth: 60,
      cellProps: (candidate) => ({ className: `dream-score${candidate.score >= minScore ? ' is-above' : ''}`, title: `Gate: ${formatUnit(minScore)}` }),
      cell: (candidate) => formatAgainstGate(candidate.score, minScore),
    },
    { key: 'entry', header: 'Entry', className: 'dream-entry', minWidth: 260, cell: (candidate) => <CandidateEntry candidate={candidate} /> },
    { key: 'signals', header: 'Signals', className: 'dream-signals', priority: 2, minWidth: 210, cell: (candidate) => <Signals candidate={candidate} /> },
    { key: 'components', header: 'Components', priority: 3, minWidth: 140, cell: (candidate) => <Components candidate={candidate} /> },
    { key: 'gates', header: 'Gates', className: 'dream-gates', minWidth: 170, cell: (candidate) => <Gates candidate={candidate} /> },
    {
      key: 'outcome',
      header: 'Outcome',
      className: 'dream-outcome',
      minWidth: 110,
      cell: (candidate) => (
        <>
          <Badge tone={OUTCOME_TONE[candidate.outcome]} title={OUTCOME_TITLE[candidate.outcome]} testId="dream-candidate-outcome">
            {OUTCOME_LABEL[candidate.outcome]}
          </Badge>
          {candidate.target && <div className="muted">→ {candidate.target}</div>}
          {candidate.kind && (
            <div className="muted" data-testid="dream-candidate-kind" data-kind-source={candidate.kindSource} title={candidate.kindCue ? `Decided by ${candidate.kindCue}` : undefined}>
              {candidate.kind}
              {candidate.validUntil ? ` until ${candidate.validUntil}` : ''}
              {candidate.kindSource === 'index' ? ' · from the index' : ''}
            </div>
          )}
        </>
      ),
    },
  ];
}

/** Every candidate with its signals, score components and gate outcomes, highest score first. */
export function CandidatesTable({ run }: { run: DreamRun }) {
  return (
    <DataTable
      className="dream-candidates"
      testId="dream-candidates"
      columns={candidateColumns(run.thresholds.minScore)}
      rows={byScore(run.candidates)}
      rowKey={(candidate) => candidate.key}
      rowProps={(candidate) => ({
        className: `dream-candidate dream-outcome-${candidate.outcome}`,
        'data-testid': 'dream-candidate',
        'data-key': candidate.key,
        'data-outcome': candidate.outcome,
        'data-origin': candidate.origin,
      })}
      detailsIn="entry"
      pageSize={PAGE}
      noun="candidates"
      moreTestId="dream-candidates-more"
      empty={<EmptyState>No candidates: nothing in the lookback window was recalled.</EmptyState>}
    />
  );
}

function CandidateEntry({ candidate }: { candidate: DreamCandidate }) {
  const openEvidence = useReverie((s) => s.dreams.openEvidence);
  const citation = formatCitation(candidate.path, candidate.startLine, candidate.endLine);
  return (
    <>
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
          <Badge tone="warn" title="Copied from another tool's memory: never promoted">
            imported
          </Badge>
        )}
        {candidate.source !== 'memory' && <Badge className={`badge-${candidate.source}`}>{candidate.source}</Badge>}
        {candidate.heading && <span className="muted dream-heading">§ {candidate.heading}</span>}
      </div>
    </>
  );
}

function Signals({ candidate }: { candidate: DreamCandidate }) {
  const { signals } = candidate;
  return (
    <>
      <span title="Times recalled by a search">{signals.recallCount}×</span>
      {(signals.usedCount ?? 0) > 0 && <span title="Searches whose result was then opened or read"> ({signals.usedCount} opened)</span>} · <span title="Mean search score when recalled">{formatUnit(signals.meanScore)}</span> ·{' '}
      <span title="Different queries that recalled it">
        {signals.uniqueQueries} {signals.uniqueQueries === 1 ? 'query' : 'queries'}
      </span>{' '}
      ·{' '}
      <span title="Different days it was recalled or written">
        {signals.uniqueDays} {signals.uniqueDays === 1 ? 'day' : 'days'}
      </span>
      <div className="muted">{signals.lastRecalledAt ? <>last recalled {formatTime(signals.lastRecalledAt)}</> : <>never recalled</>}</div>
      {signals.conceptTags.length > 0 && <div className="muted dream-tags">#{signals.conceptTags.slice(0, 6).join(' #')}</div>}
    </>
  );
}

function Components({ candidate }: { candidate: DreamCandidate }) {
  const { components } = candidate;
  return (
    <div className="dream-components">
      {COMPONENTS.filter((c) => c.key !== 'remBoost' || components.remBoost !== 0).map((c) => (
        <span key={c.key} className="dream-component" title={c.title}>
          {c.label} {formatUnit(components[c.key])}
        </span>
      ))}
    </div>
  );
}

function Gates({ candidate }: { candidate: DreamCandidate }) {
  const failed = candidate.gates.filter((gate) => !gate.passed);
  return (
    <>
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
    </>
  );
}
