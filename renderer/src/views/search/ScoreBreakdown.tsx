import type { SearchResult } from '../../../../core/src/contract/index.js';
import { DataTable, type Column } from '../../components/DataTable.js';
import { breakdownRows, matchBadges, type BreakdownRow } from './breakdown.js';

const COLUMNS: Array<Column<BreakdownRow>> = [
  { key: 'label', header: 'Component', rowHeader: true, cell: (row) => row.label },
  { key: 'value', header: 'Value', className: 'breakdown-value', cell: (row) => row.value },
  { key: 'note', header: 'Note', className: 'breakdown-note', cell: (row) => row.note },
];

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
    <DataTable
      id={id}
      className="breakdown"
      testId="score-breakdown"
      aria-label="Score breakdown"
      headersHidden
      stickyHeader={false}
      columns={COLUMNS}
      rows={rows}
      rowKey={(row) => row.key}
      rowProps={(row) => ({
        className: `breakdown-row${row.isNeutral ? ' is-neutral' : ''}${row.key === 'score' ? ' is-total' : ''}`,
        'data-testid': 'breakdown-row',
        'data-row': row.key,
      })}
    />
  );
}
