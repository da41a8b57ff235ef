import { useState, type MouseEvent } from 'react';
import type { SearchResult } from '../../../../core/src/contract/index.js';
import { Badge } from '../../components/Badge.js';
import { formatCitation, formatScore } from '../format.js';
import { KindBadges } from '../provenance/KindBadge.js';
import { OriginBadge, SessionKindBadge } from '../provenance/OriginBadge.js';
import { MatchBadges, ScoreBreakdown } from './ScoreBreakdown.js';
import { Snippet } from './Snippet.js';

export function resultElementId(index: number): string {
  return `search-result-${index}`;
}

interface ResultItemProps {
  index: number;
  result: SearchResult;
  query: string;
  isSelected: boolean;
  /** Why this result sits below one with a lower score (rankNotes), or null when it does not. */
  rankNote?: string | null;
  onOpen(): void;
  onHover(): void;
  /** Opens the Provenance inspector for this result. */
  onWhereFrom(): void;
}

export function ResultItem({ index, result, query, isSelected, rankNote = null, onOpen, onHover, onWhereFrom }: ResultItemProps) {
  const citation = formatCitation(result.path, result.startLine, result.endLine);
  const [showWhy, setShowWhy] = useState(false);
  const breakdownId = `${resultElementId(index)}-why`;
  const isTranscript = result.source === 'sessions';
  // The whole card opens the result; the "Why?" and "Where from?" buttons and the table must not.
  const keepClick = (event: MouseEvent): void => event.stopPropagation();
  return (
    <li
      id={resultElementId(index)}
      role="option"
      aria-selected={isSelected}
      className={`result${isSelected ? ' is-selected' : ''}`}
      data-testid="search-result"
      data-path={result.path}
      data-start-line={result.startLine}
      data-end-line={result.endLine}
      data-origin={result.origin}
      title={isTranscript ? `Show where ${citation} came from` : `Open ${citation}`}
      onClick={onOpen}
      onMouseMove={isSelected ? undefined : onHover}
    >
      <div className="result-head">
        <span className="result-path" data-testid="result-path">
          {result.path}
        </span>
        <Badge className={`badge-${result.source}`}>{result.source}</Badge>
        {result.origin && <OriginBadge origin={result.origin} />}
        {result.sessionKind && <SessionKindBadge kind={result.sessionKind} />}
        <KindBadges spans={result.entryKinds} />
        <MatchBadges matchedBy={result.matchedBy} />
        <span className="result-score" data-testid="result-score" title={`Matched by ${result.matchedBy.join(', ')}`}>
          score {formatScore(result.score)}
        </span>
        <button
          type="button"
          className={`why-button${showWhy ? ' is-open' : ''}`}
          data-testid="why-button"
          aria-label={`Why this result? ${showWhy ? 'Hide' : 'Show'} how the score of ${citation} was made`}
          title={showWhy ? 'Hide the score breakdown' : 'Why this result? Show how its score was made'}
          aria-expanded={showWhy}
          aria-controls={showWhy ? breakdownId : undefined}
          onClick={(event) => {
            keepClick(event);
            setShowWhy((v) => !v);
          }}
        >
          Why?
        </button>
        <button
          type="button"
          className="why-button where-button"
          data-testid="where-from-button"
          aria-label={`Where is ${citation} from? Open the Provenance inspector`}
          title="Where from? Who wrote this, and where the original text is"
          onClick={(event) => {
            keepClick(event);
            onWhereFrom();
          }}
        >
          Where from?
        </button>
      </div>
      <div className="result-citation" data-testid="result-location">
        {citation}
        {result.alsoIn && result.alsoIn.length > 0 && (
          <span
            className="result-also-in"
            data-testid="result-also-in"
            title={`The same entry is also in:\n${result.alsoIn.map((p) => formatCitation(p.path, p.startLine, p.endLine)).join('\n')}`}
          >
            {' '}
            · also in {result.alsoIn.length} other {result.alsoIn.length === 1 ? 'place' : 'places'}
          </span>
        )}
      </div>
      {rankNote && (
        <div className="result-rank-note" data-testid="result-rank-note">
          {rankNote}
        </div>
      )}
      <Snippet text={result.snippet} startLine={result.startLine} query={query} />
      {showWhy && (
        <div className="breakdown-wrap" onClick={keepClick}>
          <ScoreBreakdown result={result} id={breakdownId} />
        </div>
      )}
    </li>
  );
}
