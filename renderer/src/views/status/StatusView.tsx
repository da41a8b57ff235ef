import type { DreamRunStatus, StatusOutput } from '../../../../core/src/contract/index.js';
import { Badge } from '../../components/Badge.js';
import { ErrorNotice } from '../../components/ErrorNotice.js';
import { TechnicalDetails } from '../../components/TechnicalDetails.js';
import { useReverie } from '../../store/useReverie.js';
import { STATUS_LABEL, STATUS_TONE, withRunsNamed } from '../dreams/dreamText.js';
import { formatTime } from '../format.js';
import { CoverageTable } from './CoverageTable.js';
import { EngineLogPanel } from './EngineLogPanel.js';
import './status.css';

export function StatusView() {
  const status = useReverie((s) => s.status);
  const lastReport = useReverie((s) => s.app.lastReport);
  const liveIndexState = useReverie((s) => s.app.indexState);
  const isPaused = useReverie((s) => s.app.isIndexingPaused);
  const { data } = status;

  if (!data) {
    return (
      <section className="view status-view" aria-labelledby="status-heading">
        <h1 id="status-heading">Status</h1>
        {status.state === 'error' ? (
          <ErrorNotice title="Could not load status" error={status.error} />
        ) : (
          <p className="muted">Loading…</p>
        )}
      </section>
    );
  }

  const { index } = data;
  const notices = [...new Set([...data.notices, ...(lastReport?.notices ?? [])])];
  // Files that are not indexed come first: they are what a person opens Status for.
  const hasProblems = index.skipped + index.failed > 0;
  return (
    <section className="view status-view" aria-labelledby="status-heading" data-testid="status-view">
      <header className="view-header">
        <h1 id="status-heading">Status</h1>
        <div className="button-row">
          <button
            type="button"
            className="button"
            data-testid="pause-indexing-button"
            aria-pressed={isPaused}
            disabled={status.isPausing}
            title={isPaused ? 'Index the changes made while paused, and keep indexing' : 'Stop indexing file changes until you resume'}
            onClick={() => void status.setIndexingPaused(!isPaused)}
          >
            {isPaused ? 'Resume indexing' : 'Pause indexing'}
          </button>
          <button
            type="button"
            className="button"
            data-testid="rebuild-button"
            disabled={status.isSyncing}
            title="Re-read and re-index every file, even unchanged ones (slow on a large workspace)"
            onClick={() => void status.reindex(true)}
          >
            Rebuild everything
          </button>
          <button
            type="button"
            className="button button-primary"
            data-testid="reindex-button"
            disabled={status.isSyncing}
            title="Index the files that changed since the last sync"
            onClick={() => void status.reindex(false)}
          >
            {status.isSyncing ? 'Indexing…' : 'Index changes'}
          </button>
        </div>
      </header>

      {status.syncError && <ErrorNotice title="Indexing failed" error={status.syncError} />}
      {status.pauseError && <ErrorNotice title={`Could not ${isPaused ? 'resume' : 'pause'} indexing`} error={status.pauseError} testId="pause-error" />}
      {isPaused && (
        <div className="banner banner-warn" data-testid="indexing-paused-notice">
          Indexing paused: file changes are indexed when you resume. "Index changes" still runs now.
        </div>
      )}
      {index.lastError && <ErrorNotice title="Last indexing error" error={index.lastError} testId="index-last-error" />}
      {notices.length > 0 && (
        <ul className="notices" data-testid="notices" aria-label="Notices">
          {notices.map((notice) => (
            <li key={notice} className="banner banner-warn">
              {notice}
            </li>
          ))}
        </ul>
      )}

      <div className="counts" data-testid="counts">
        <Count label="Files" value={index.files} testId="count-files" />
        <Count label="Indexed" value={index.indexed} testId="count-indexed" />
        <Count label="Skipped" value={index.skipped} testId="count-skipped" tone={index.skipped > 0 ? 'warn' : undefined} />
        <Count label="Failed" value={index.failed} testId="count-failed" tone={index.failed > 0 ? 'error' : undefined} />
        <Count label="Chunks" value={index.chunks} testId="count-chunks" />
      </div>

      <dl className="facts">
        <dt>Workspace</dt>
        <dd data-testid="workspace-path">
          <code>{data.workspace.path}</code>
          {!data.workspace.exists && <Badge tone="error">missing</Badge>}
        </dd>
        <dt>Data folder</dt>
        <dd data-testid="data-dir">
          <code>{data.dataDir}</code>
        </dd>
        <dt>Running in</dt>
        <dd data-testid="host">
          {data.host
            ? `${HOST_LABEL[data.host.kind]}, since ${formatTime(data.host.startedAt)}${data.host.url ? ` · ${data.host.url}` : ''}`
            : 'Nothing is running Reverie in the background'}
        </dd>
        <dt>Index state</dt>
        <dd data-testid="status-index-state">
          {liveIndexState}
          {isPaused && ' · indexing paused'}
        </dd>
        <dt>Search</dt>
        <dd data-testid="search-ready">
          {index.searchReady ? 'ready' : 'not ready yet (first index)'}
          {index.derived.state === 'done'
            ? ' · graph up to date'
            : ` · ${index.derived.kinds ? `entry kinds ${index.derived.kinds.done} of ${index.derived.kinds.total} files, ` : ''}graph ${index.derived.done} of ${index.derived.total} files${index.derived.state === 'waiting' ? ' (after the running sync)' : ''}`}
        </dd>
        <dt>Last sync</dt>
        <dd data-testid="last-sync">{index.lastSyncAt ? formatTime(index.lastSyncAt) : 'never'}</dd>
      </dl>
      <TechnicalDetails
        testId="status-technical"
        facts={[
          { label: 'Index file', value: data.indexPath, testId: 'index-path' },
          { label: 'Host', value: data.host ? data.host.kind : null },
          { label: 'Process id', value: data.host ? String(data.host.pid) : null, testId: 'host-pid' },
        ]}
      />

      {hasProblems && <CoverageTable files={data.files} />}

      {data.dreaming && <DreamingCard dreaming={data.dreaming} />}

      <EngineLogPanel />

      {!hasProblems && <CoverageTable files={data.files} />}
    </section>
  );
}

const HOST_LABEL: Record<NonNullable<StatusOutput['host']>['kind'], string> = {
  serve: 'the browser server (reverie serve)',
  desktop: 'the desktop app',
  daemon: 'the background service',
};

const isRunStatus = (status: string): status is DreamRunStatus => status in STATUS_LABEL;

/** Dreaming at a glance, from `status.dreaming`: signals, staged candidates, the last run and the next. */
function DreamingCard({ dreaming }: { dreaming: StatusOutput['dreaming'] }) {
  const { lastRun } = dreaming;
  const openRun = useReverie((s) => s.dreams.selectRun);
  const setView = useReverie((s) => s.app.setView);
  const openRunInDreams = async (id: string): Promise<void> => {
    setView('dreams');
    await openRun(id);
  };
  return (
    <section className="card status-dreaming" aria-labelledby="status-dreaming-heading" data-testid="status-dreaming">
      <h2 id="status-dreaming-heading">Dreaming</h2>
      <dl className="facts facts-compact">
        <dt>Recall signals</dt>
        <dd data-testid="dreaming-recall-signals">{dreaming.recallSignals.toLocaleString()}</dd>
        <dt>Staged candidates</dt>
        <dd data-testid="dreaming-staged">{dreaming.stagedCandidates.toLocaleString()}</dd>
        <dt>Last run</dt>
        <dd data-testid="dreaming-last-run">
          {lastRun ? (
            <>
              <Badge tone={isRunStatus(lastRun.status) ? STATUS_TONE[lastRun.status] : 'neutral'} testId="dreaming-last-run-status" data-status={lastRun.status}>
                {isRunStatus(lastRun.status) ? STATUS_LABEL[lastRun.status] : lastRun.status}
              </Badge>{' '}
              {formatTime(lastRun.startedAt)}{' '}
              <button type="button" className="link-button" data-testid="dreaming-last-run-open" onClick={() => void openRunInDreams(lastRun.id)}>
                open the run
              </button>
              {lastRun.reason && <span className="muted"> — {withRunsNamed(lastRun.reason)}</span>}
            </>
          ) : (
            'no run yet'
          )}
        </dd>
        <dt>Next sweep</dt>
        <dd data-testid="dreaming-next-run">
          {dreaming.schedule
            ? `daily at ${dreaming.schedule}${dreaming.nextRunAt ? ` · next ${formatTime(dreaming.nextRunAt)}` : ''}`
            : 'no schedule'}
        </dd>
      </dl>
    </section>
  );
}

function Count({ label, value, testId, tone }: { label: string; value: number; testId: string; tone?: 'warn' | 'error' | undefined }) {
  return (
    <div className={`count${tone ? ` count-${tone}` : ''}`}>
      <div className="count-value" data-testid={testId}>
        {value.toLocaleString()}
      </div>
      <div className="count-label">{label}</div>
    </div>
  );
}
