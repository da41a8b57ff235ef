import { Badge } from '../../components/Badge.js';
import { ErrorNotice } from '../../components/ErrorNotice.js';
import { useReverie } from '../../store/useReverie.js';
import { formatTime } from '../format.js';
import { Conflicts } from './Conflicts.js';
import { DiaryTimeline } from './DiaryTimeline.js';
import { PreImages } from './PreImages.js';
import { RunCard } from './RunCard.js';
import { RunsList } from './RunsList.js';
import { STATUS_LABEL, STATUS_TONE, progressText } from './dreamText.js';
import './dreams.css';

/** Dreaming: what the nightly sweep promoted and why, the diary it keeps, and how to undo it. */
export function DreamsView() {
  const starting = useReverie((s) => s.dreams.starting);
  const runNow = useReverie((s) => s.dreams.runNow);
  const running = useReverie((s) => s.dreams.schedule?.running ?? false);
  const busy = starting !== null || running;
  return (
    <section className="view dreams-view" aria-labelledby="dreams-heading" data-testid="dreams-view">
      <header className="view-header">
        <h1 id="dreams-heading">Dreams</h1>
        <div className="button-row">
          <button
            type="button"
            className="button"
            data-testid="dream-dry-run"
            disabled={busy}
            title="Run every phase and show what would be promoted, without writing anything"
            onClick={() => void runNow({ dryRun: true })}
          >
            {starting?.dryRun ? 'Dry run…' : 'Dry run'}
          </button>
          <button
            type="button"
            className="button button-primary"
            data-testid="dream-now"
            disabled={busy}
            title="Run one dreaming sweep now, with the gates from Settings"
            onClick={() => void runNow()}
          >
            {starting && !starting.dryRun ? 'Dreaming…' : 'Dream now'}
          </button>
        </div>
      </header>
      <p className="muted dreams-intro">
        Dreaming promotes what you keep coming back to from your daily notes into <code>MEMORY.md</code>: entries recalled often, by
        different searches, on different days. Every promotion can be reviewed, rejected or rolled back.
      </p>
      <RunStatus />
      <ScheduleLine />
      <Conflicts />
      <RunsList />
      <RunCard />
      <DiaryTimeline />
      <PreImages />
    </section>
  );
}

function RunStatus() {
  const starting = useReverie((s) => s.dreams.starting);
  const progress = useReverie((s) => s.dreams.progress);
  const startError = useReverie((s) => s.dreams.startError);
  const notice = useReverie((s) => s.dreams.notice);
  const dismiss = useReverie((s) => s.dreams.dismissNotice);
  const selectRun = useReverie((s) => s.dreams.selectRun);
  return (
    <>
      {(starting || progress) && (
        <div className="dreams-progress" data-testid="dream-progress" role="status" data-phase={progress?.phase ?? 'starting'}>
          <span>{progress ? progressText(progress) : starting?.dryRun ? 'Starting a dry run…' : 'Starting to dream…'}</span>
          <progress
            className="index-progress"
            max={progress && progress.total > 0 ? progress.total : undefined}
            value={progress && progress.total > 0 ? progress.done : undefined}
            aria-label="Dreaming progress"
          />
        </div>
      )}
      {startError && <ErrorNotice title="The dream run did not start" error={startError} testId="dream-start-error" />}
      {notice && !starting && (
        <div
          className={`banner ${notice.status === 'failed' ? 'banner-error' : notice.status === 'ok' ? 'banner-ok' : 'banner-info'}`}
          role="status"
          data-testid="dream-notice"
          data-status={notice.status}
          data-run-id={notice.runId}
        >
          <span>
            {notice.dryRun ? 'Dry run finished' : 'Dream run finished'}:{' '}
            <Badge tone={STATUS_TONE[notice.status]}>{STATUS_LABEL[notice.status]}</Badge>
            {notice.reason && <> — {notice.reason}</>}{' '}
            <button type="button" className="link-button" onClick={() => void selectRun(notice.runId)}>
              Show the run
            </button>
          </span>
          <button type="button" className="button button-small" onClick={dismiss}>
            Dismiss
          </button>
        </div>
      )}
    </>
  );
}

function ScheduleLine() {
  const schedule = useReverie((s) => s.dreams.schedule);
  const showSettingsSection = useReverie((s) => s.app.showSettingsSection);
  if (!schedule) return null;
  return (
    <p className="dreams-schedule" data-testid="dream-schedule" data-enabled={schedule.enabled ? 'true' : 'false'}>
      {schedule.enabled && schedule.time ? (
        <>
          Dreams every night at <strong>{schedule.time}</strong>
          {schedule.nextRunAt && <> · next run {formatTime(schedule.nextRunAt)}</>}
        </>
      ) : (
        <>The nightly sweep is off</>
      )}
      {schedule.lastRunAt ? <> · last run {formatTime(schedule.lastRunAt)}</> : <> · no run yet</>}
      {schedule.running && <> · a run is in progress</>}{' '}
      <button type="button" className="link-button" data-testid="dream-open-settings" onClick={() => showSettingsSection('dreaming')}
      >
        Change in Settings
      </button>
    </p>
  );
}
