import type { SearchResult } from '../../../../core/src/contract/index.js';
import { breakdownRows, matchBadges } from './breakdown.js';

/** Small badges saying how a result matched. */
export function MatchBadges({ matchedBy }: { matchedBy: SearchResult['matchedBy'] }) {
  const badges = matchBadges(matchedBy);
  if (badges.length === 0) return null;
  return (
    <span className="match-badges" data-testid="match-badges">
      {badges.map((badge) => (
        <span key={badge.kind} className={`match-badge match-${badge.kind}`} data-testid="match-badge" data-match={badge.kind} title={badge.title}>
          {badge.label}
        </span>
      ))}
    </span>
  );
}

/** The "Why?" table: how the score of one result was made. */
export function ScoreBreakdown({ result, id }: { result: Pick<SearchResult, 'score' | 'breakdown' | 'matchedBy'>; id: string }) {
  const rows = breakdownRows(result);
  if (!rows) {
    return (
      <div id={id} className="breakdown breakdown-empty" data-testid="score-breakdown">
        No score breakdown for this result (matched by {result.matchedBy.join(', ') || 'nothing'}); score {result.score.toFixed(3)}.
      </div>
    );
  }
  return (
    <table id={id} className="breakdown" data-testid="score-breakdown" aria-label="Score breakdown">
      <tbody>
        {rows.map((row) => (
          <tr
            key={row.key}
            className={`breakdown-row${row.isNeutral ? ' is-neutral' : ''}${row.key === 'score' ? ' is-total' : ''}`}
            data-testid="breakdown-row"
            data-row={row.key}
          >
            <th scope="row">{row.label}</th>
            <td className="breakdown-value">{row.value}</td>
            <td className="breakdown-note">{row.note}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
