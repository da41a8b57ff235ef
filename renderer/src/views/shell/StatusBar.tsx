import type { IndexState } from '../../../../core/src/contract/index.js';
import { Badge } from '../../components/Badge.js';
import { useReverie } from '../../store/useReverie.js';
import { formatTime } from '../format.js';

const LABELS: Record<IndexState, string> = {
  idle: 'Waiting for the index',
  indexing: 'Indexing…',
  ready: 'Index ready',
  error: 'Index error',
};

/** The compacted file written so far, in percent (0 while the live content is first copied aside). */
function compactedPercent(compaction: { doneBytes: number; totalBytes: number }): number {
  return compaction.totalBytes > 0 ? Math.floor((100 * compaction.doneBytes) / compaction.totalBytes) : 0;
}

export function StatusBar() {
  const indexState = useReverie((s) => s.app.indexState);
  const progress = useReverie((s) => s.app.progress);
  const embedProgress = useReverie((s) => s.app.embedProgress);
  const derivedProgress = useReverie((s) => s.app.derivedProgress);
  const indexError = useReverie((s) => s.app.indexError);
  const report = useReverie((s) => s.app.lastReport);
  const status = useReverie((s) => s.status.data);
  const lastReadyAt = useReverie((s) => s.app.lastReadyAt);
  const isPaused = useReverie((s) => s.app.isIndexingPaused);

  const files = report?.files ?? status?.index.files;
  const chunks = report?.chunks ?? status?.index.chunks;
  const lastSyncAt = lastReadyAt ?? status?.index.lastSyncAt ?? null;

  return (
    <footer className="statusbar" data-testid="status-bar">
      <span className={`state-dot state-${embedProgress && indexState === 'ready' ? 'indexing' : indexState}`} aria-hidden="true" />
      <span data-testid="index-state-label" role="status">
        {progress
          ? progress.phase === 'discover'
            ? 'Looking for files…'
            : progress.phase === 'sessions'
              ? `Reading transcripts ${progress.done} of ${progress.total}`
              : progress.phase === 'migrate'
                ? `Upgrading the index ${progress.done} of ${progress.total} chunks (search waits)`
                : `Indexing ${progress.done} of ${progress.total} files`
          : embedProgress
            ? `Embedding ${embedProgress.done}/${embedProgress.total}`
            : derivedProgress?.compaction && indexState === 'ready'
              ? `Search ready · compacting the index after an upgrade ${compactedPercent(derivedProgress.compaction)} %`
              : derivedProgress && indexState === 'ready'
                ? derivedProgress.kinds
                  ? `Search ready · entry kinds ${derivedProgress.kinds.done} of ${derivedProgress.kinds.total} files`
                  : `Search ready · graph ${derivedProgress.done} of ${derivedProgress.total} files`
                : LABELS[indexState]}
      </span>
      {progress && progress.total > 0 && (
        <progress
          className="index-progress"
          data-testid="index-progress"
          max={progress.total}
          value={progress.done}
          aria-label="Indexing progress"
        />
      )}
      {!progress && embedProgress && embedProgress.total > 0 && (
        <progress
          className="index-progress"
          data-testid="embed-progress"
          max={embedProgress.total}
          value={embedProgress.done}
          aria-label="Embedding progress"
          title="Semantic search covers the chunks embedded so far; keyword search is complete."
        />
      )}
      {isPaused && (
        <Badge tone="warn" testId="index-paused-badge" title="File changes are indexed when you resume (Status view).">
          Indexing paused
        </Badge>
      )}
      {indexState === 'error' && indexError && (
        <span className="statusbar-error" title={indexError}>
          {indexError}
        </span>
      )}
      <span className="statusbar-spacer" />
      {files !== undefined && (
        <span className="statusbar-counts">
          {files} files · {chunks} chunks
          {lastSyncAt && ` · synced ${formatTime(lastSyncAt)}`}
        </span>
      )}
    </footer>
  );
}
