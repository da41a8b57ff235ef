import type { SearchResult } from '../../../../core/src/api/contract.js';
import { formatCitation } from '../format.js';
import { HighlightedText } from '../highlight/HighlightedText.js';

export function resultElementId(index: number): string {
  return `search-result-${index}`;
}

interface ResultItemProps {
  index: number;
  result: SearchResult;
  query: string;
  isSelected: boolean;
  onOpen(): void;
  onHover(): void;
}

export function ResultItem({ index, result, query, isSelected, onOpen, onHover }: ResultItemProps) {
  const citation = formatCitation(result.path, result.startLine, result.endLine);
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
      title={`Open ${citation}`}
      onClick={onOpen}
      onMouseMove={isSelected ? undefined : onHover}
    >
      <div className="result-head">
        <span className="result-path" data-testid="result-path">
          {result.path}
        </span>
        <span className={`badge badge-${result.source}`}>{result.source}</span>
        <span className="result-score" data-testid="result-score" title={`Matched by ${result.matchedBy.join(', ')}`}>
          score {result.score.toFixed(2)}
        </span>
      </div>
      <div className="result-citation" data-testid="result-location">
        {citation}
      </div>
      <div className="snippet" data-testid="result-snippet">
        <HighlightedText text={result.snippet} query={query} />
      </div>
    </li>
  );
}
