import type { DiaryEntry } from '../../../../core/src/contract/index.js';
import { Badge } from '../../components/Badge.js';
import { EmptyState } from '../../components/EmptyState.js';
import { ErrorNotice } from '../../components/ErrorNotice.js';
import { ShowMore, useShownCount } from '../../components/ShowMore.js';
import { useReverie } from '../../store/useReverie.js';
import { formatTime } from '../format.js';
import { diaryNewestFirst } from './dreamText.js';

const PAGE = 8;

/** The dream diary (Reverie's or OpenClaw's DREAMS.md) as a timeline, newest first. */
export function DiaryTimeline() {
  const diary = useReverie((s) => s.dreams.diary);
  const state = useReverie((s) => s.dreams.diaryState);
  const error = useReverie((s) => s.dreams.diaryError);
  const { shown, showMore } = useShownCount(PAGE);
  const entries = diary ? diaryNewestFirst(diary.entries) : [];
  return (
    <section className="card dreams-section" aria-labelledby="dream-diary-heading" data-testid="dream-diary">
      <div className="section-head">
        <h2 id="dream-diary-heading">Diary</h2>
        {diary && (
          <code className="muted" data-testid="dream-diary-path">
            {diary.path}
          </code>
        )}
      </div>
      {state === 'error' && <ErrorNotice title="Could not read the diary" error={error} testId="dream-diary-error" />}
      {state === 'loading' && !diary && <p className="muted">Loading…</p>}
      {diary && diary.problems.length > 0 && (
        <div className="banner banner-warn dream-diary-problems" role="note" data-testid="dream-diary-problems">
          <span>
            Parts of the diary could not be read cleanly:{' '}
            {diary.problems.slice(0, 3).join('; ')}
            {diary.problems.length > 3 && ` (and ${diary.problems.length - 3} more)`}
          </span>
        </div>
      )}
      {diary && !diary.exists && <EmptyState>No diary yet: the first dream run starts it.</EmptyState>}
      {diary && diary.exists && entries.length === 0 && <EmptyState>The diary has no entries yet.</EmptyState>}
      {entries.length > 0 && (
        <ol className="dream-timeline" data-testid="dream-timeline">
          {entries.slice(0, shown).map((entry) => (
            <DiaryItem key={`${entry.startLine}-${entry.endLine}`} entry={entry} />
          ))}
        </ol>
      )}
      <ShowMore shown={shown} total={entries.length} noun="entries" testId="dream-diary-more" onShowMore={showMore} />
      {diary && diary.history.length > 0 && (
        <details className="dream-history" data-testid="dream-history">
          <summary>Consolidation history ({diary.history.length})</summary>
          <ul>
            {diary.history.slice(0, 50).map((item, i) => (
              <li key={`${item.at}:${i}`}>
                <span className="muted">{formatTime(item.at)}</span> · {item.added} added · {item.merged} merged · {item.superseded} superseded
                {item.highlights.length > 0 && <div className="muted">{item.highlights.slice(0, 3).join(' · ')}</div>}
              </li>
            ))}
          </ul>
        </details>
      )}
      {diary && diary.deepSleep.length > 0 && (
        <details className="dream-history" data-testid="dream-deep-sleep">
          <summary>Deep sleep notes ({diary.deepSleep.length})</summary>
          <ul>
            {diary.deepSleep.slice(0, 50).map((line, i) => (
              <li key={i}>{line}</li>
            ))}
          </ul>
        </details>
      )}
    </section>
  );
}

function DiaryItem({ entry }: { entry: DiaryEntry }) {
  const selectRun = useReverie((s) => s.dreams.selectRun);
  const openProvenance = useReverie((s) => s.provenance.open);
  const diaryPath = useReverie((s) => s.dreams.diary?.path ?? 'DREAMS.md');
  // The inspector takes workspace paths; a diary outside the workspace (absolute) gets no link.
  const isWorkspacePath = !/^(?:\/|[A-Za-z]:[\\/])/.test(diaryPath);
  // A day's entry tells of every run that day (a second sweep, a review, a rollback note).
  const runs = entry.runIds ?? (entry.runId ? [entry.runId] : []);
  return (
    <li
      className={`dream-timeline-item dream-entry-${entry.kind}`}
      data-testid="dream-diary-entry"
      data-kind={entry.kind}
      data-run-id={entry.runId ?? undefined}
      data-date={entry.date ?? undefined}
    >
      <div className="dream-timeline-head">
        <em className="dream-date-line">{entry.dateLine}</em>
        {entry.kind === 'backfill' && <Badge className="badge-dreams">backfill</Badge>}
        {runs.map((runId, i) => (
          <button key={runId} type="button" className="link-button" data-testid="dream-diary-run" data-run-id={runId} onClick={() => void selectRun(runId)}>
            {runs.length === 1 ? 'show the run' : `show run ${i + 1} of ${runs.length}`}
          </button>
        ))}
        {isWorkspacePath ? (
          <button
            type="button"
            className="link-button"
            title="Where from? Open the Provenance inspector on these diary lines"
            onClick={() => void openProvenance(`${diaryPath}:${entry.startLine}-${entry.endLine}`)}
          >
            lines {entry.startLine}–{entry.endLine}
          </button>
        ) : (
          <span className="muted">
            lines {entry.startLine}–{entry.endLine}
          </span>
        )}
      </div>
      <div className="dream-timeline-body" data-testid="dream-diary-body">
        {entry.body}
      </div>
    </li>
  );
}
