import type { DreamRun } from '../../../../core/src/contract/index.js';
import { Badge } from '../../components/Badge.js';
import { ErrorNotice } from '../../components/ErrorNotice.js';
import { canRollback, rollbackKey } from '../../store/dreamsSlice.js';
import { useReverie } from '../../store/useReverie.js';
import { formatTime } from '../format.js';
import { CandidatesTable } from './CandidatesTable.js';
import { Promotions, Writes } from './Promotions.js';
import { ScoreChart } from './ScoreChart.js';
import { TechnicalDetails } from '../../components/TechnicalDetails.js';
import { STATUS_LABEL, STATUS_TONE, TRIGGER_LABEL, describeRun, formatUnit, withRunsNamed } from './dreamText.js';

/** One run: its phases, how it consolidated, every candidate against the gates, what it wrote. */
export function RunCard() {
  const selectedRunId = useReverie((s) => s.dreams.selectedRunId);
  const run = useReverie((s) => s.dreams.run);
  const state = useReverie((s) => s.dreams.runState);
  const error = useReverie((s) => s.dreams.runError);
  const selectRun = useReverie((s) => s.dreams.selectRun);
  if (!selectedRunId) return null;
  return (
    <section
      className="card dreams-section dream-run-card"
      aria-labelledby="dream-run-heading"
      data-testid="dream-run-card"
      data-state={state}
      data-run-id={run?.id ?? selectedRunId}
      data-status={run?.status}
    >
      <div className="section-head">
        <h2 id="dream-run-heading">
          {capitalize(describeRun(selectedRunId))}
        </h2>
        {run && <RunActions run={run} />}
      </div>
      {state === 'error' && (
        <ErrorNotice title="Could not load this run" error={error} testId="dream-run-error" onRetry={() => void selectRun(selectedRunId)} />
      )}
      {state === 'loading' && !run && <p className="muted">Loading…</p>}
      {run && <RunDetails run={run} />}
      <TechnicalDetails testId="dream-run-technical" facts={[{ label: 'Run id (reverie dream accepts it)', value: selectedRunId, testId: 'dream-run-id' }]} />
    </section>
  );
}

function RunActions({ run }: { run: DreamRun }) {
  const rollback = useReverie((s) => s.dreams.rollback);
  const pending = useReverie((s) => s.dreams.pending);
  const isHeld = useReverie((s) => s.undo.held?.key === rollbackKey(run.id));
  if (!canRollback(run)) return null;
  return (
    <button
      type="button"
      className="button button-small button-danger"
      data-testid="dream-run-rollback"
      disabled={pending !== null || isHeld}
      onClick={() => void rollback(run.id)}
    >
      {pending === rollbackKey(run.id) ? 'Rolling back…' : 'Roll back this run'}
    </button>
  );
}

function RunDetails({ run }: { run: DreamRun }) {
  const { light, rem, deep } = run.phases;
  const { thresholds } = run;
  return (
    <div data-testid="dream-run-details">
      <dl className="facts facts-compact">
        <dt>Status</dt>
        <dd>
          <Badge tone={STATUS_TONE[run.status]} testId="dream-run-card-status">
            {STATUS_LABEL[run.status]}
          </Badge>
          {run.dryRun && <Badge className="badge-dreams dream-tag">dry run: nothing written</Badge>}
          {run.rolledBack && (
            <Badge tone="warn" className="dream-tag" testId="dream-run-rolled-back">
              rolled back {formatTime(run.rolledBack.at)} ({run.rolledBack.mode === 'restored' ? 'files restored' : 'lines removed'})
            </Badge>
          )}
          {run.reason && <span className="reason-cell"> — {withRunsNamed(run.reason)}</span>}
        </dd>
        <dt>When</dt>
        <dd>
          {formatTime(run.startedAt)}
          {run.finishedAt && <span className="muted"> → {formatTime(run.finishedAt)}</span>} · {TRIGGER_LABEL[run.trigger]}
          {run.backfill && (
            <span className="muted">
              {' '}
              · backfill of <code>{run.backfill.path}</code> ({run.backfill.days} {run.backfill.days === 1 ? 'day' : 'days'})
            </span>
          )}
        </dd>
        <dt>Gates</dt>
        <dd data-testid="dream-run-thresholds">
          score ≥ {formatUnit(thresholds.minScore)} · ≥ {thresholds.minRecallCount} recalls · ≥ {thresholds.minUniqueQueries} different queries · at most{' '}
          {thresholds.maxPromotions} promotions
        </dd>
        <dt>Consolidation</dt>
        <dd data-testid="dream-consolidation" data-mode={run.consolidation.mode}>
          {run.consolidation.mode === 'model' && (
            <>
              by the chat model{run.consolidation.model && <> <code>{run.consolidation.model}</code></>}
            </>
          )}
          {run.consolidation.mode === 'fallback' && <>rule-based fallback</>}
          {run.consolidation.mode === 'none' && <span className="muted">none (nothing to consolidate)</span>}
          {run.consolidation.fallbackReason && <div className="reason-cell">The model's output was not used: {run.consolidation.fallbackReason}</div>}
        </dd>
      </dl>

      <div className="dream-phases" data-testid="dream-phases">
        <div className="dream-phase" data-testid="dream-phase-light">
          <h3>Light sleep</h3>
          <p className="muted">last {light.lookbackDays} days</p>
          <ul>
            <li>
              <strong>{light.gathered}</strong> gathered
            </li>
            <li>
              <strong>{light.staged}</strong> staged
            </li>
            <li>
              <strong>{light.duplicates}</strong> duplicates
            </li>
          </ul>
        </div>
        <div className="dream-phase" data-testid="dream-phase-rem">
          <h3>REM</h3>
          <p className="muted">last {rem.lookbackDays} days</p>
          {rem.themes.length === 0 ? (
            <p className="muted">No recurring themes.</p>
          ) : (
            <ul className="dream-themes">
              {rem.themes.slice(0, 12).map((theme) => (
                <li key={theme.tag} data-testid="dream-theme" data-boosted={theme.boosted ? 'true' : 'false'}>
                  <span className="dream-theme-tag">{theme.tag}</span>{' '}
                  <span className="muted">
                    {formatUnit(theme.strength)} · {theme.days} {theme.days === 1 ? 'day' : 'days'} · {theme.candidateKeys.length}{' '}
                    {theme.candidateKeys.length === 1 ? 'entry' : 'entries'}
                  </span>
                  {theme.boosted && (
                    <Badge className="badge-dreams dream-tag" title="Its entries got the REM boost">
                      boosted
                    </Badge>
                  )}
                </li>
              ))}
              {rem.themes.length > 12 && <li className="muted">…and {rem.themes.length - 12} more</li>}
            </ul>
          )}
          {rem.reflections.length > 0 && (
            <ul className="dream-reflections" data-testid="dream-reflections">
              {rem.reflections.map((reflection, i) => (
                <li key={i}>{reflection}</li>
              ))}
            </ul>
          )}
        </div>
        <div className="dream-phase" data-testid="dream-phase-deep">
          <h3>Deep sleep</h3>
          <ul>
            <li>
              <strong>{deep.ranked}</strong> ranked
            </li>
            <li>
              <strong>{deep.passed}</strong> passed the gates
            </li>
            <li>
              <strong>{deep.promoted}</strong> promoted
            </li>
            <li>
              <strong>{deep.proposed}</strong> proposed
            </li>
          </ul>
        </div>
      </div>

      {run.narrative && (
        <blockquote className="dream-narrative" data-testid="dream-narrative">
          {run.narrative}
        </blockquote>
      )}

      <h3>Scores against the gate</h3>
      <ScoreChart candidates={run.candidates} minScore={thresholds.minScore} />

      <h3>Promotions</h3>
      <Promotions run={run} />

      <h3>Candidates</h3>
      <CandidatesTable run={run} />

      <h3>Files</h3>
      <Writes writes={run.writes} />
    </div>
  );
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
