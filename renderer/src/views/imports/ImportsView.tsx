import type { ImportReport } from '../../../../core/src/contract/index.js';
import {
  IMPORT_TOOL_LABELS,
  groupPlanItems,
  isSelectable,
  planCounts,
  type DetectedImportSource,
  type ImportPlanGroup,
  type ImportPlanItem,
} from '../../store/importsSlice.js';
import { useReverie } from '../../store/useReverie.js';
import { formatBytes, formatTime } from '../format.js';
import { importProgressText, reportCountsText } from './importText.js';

/** Import memory other coding agents wrote: detect → preview → import → report. */
export function ImportsView() {
  return (
    <section className="view imports-view" aria-labelledby="imports-heading" data-testid="imports-view">
      <header className="view-header">
        <h1 id="imports-heading">Imports</h1>
      </header>
      <p className="muted imports-intro">
        Copies the memory files Codex, Claude Code and Hermes keep into <code>memory/imports/</code>. The originals are never
        changed; files already imported are skipped, and conflicting ones are only overwritten when you ask (with a backup).
      </p>
      <DetectedSources />
      <ImportStep />
      <EarlierReports />
    </section>
  );
}

function DetectedSources() {
  const sources = useReverie((s) => s.imports.sources);
  const state = useReverie((s) => s.imports.sourcesState);
  const error = useReverie((s) => s.imports.sourcesError);
  const detect = useReverie((s) => s.imports.detect);
  return (
    <section className="card imports-section" aria-labelledby="imports-sources-heading" data-testid="import-sources">
      <div className="section-head">
        <h2 id="imports-sources-heading">Detected sources</h2>
        <button type="button" className="button" onClick={() => void detect()} disabled={state === 'loading'}>
          Look again
        </button>
      </div>
      {state === 'error' && (
        <div className="banner banner-error" role="alert" data-testid="import-sources-error">
          Could not look for sources: {error}
        </div>
      )}
      {!sources && state === 'loading' && <p className="muted">Looking for Codex, Claude Code and Hermes…</p>}
      {sources && sources.length === 0 && <p className="muted">No sources to look at.</p>}
      {sources && sources.length > 0 && (
        <table className="coverage-table imports-sources-table">
          <thead>
            <tr>
              <th scope="col">Tool</th>
              <th scope="col">Home</th>
              <th scope="col">Found</th>
              <th scope="col" className="num">
                Collections
              </th>
              <th scope="col" className="num">
                Files
              </th>
              <th scope="col">Notes</th>
            </tr>
          </thead>
          <tbody>
            {sources.map((source) => (
              <SourceRow key={source.tool} source={source} />
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

function SourceRow({ source }: { source: DetectedImportSource }) {
  const files = source.collections.reduce((n, c) => n + c.files.length, 0);
  const skipped = source.collections.reduce((n, c) => n + c.files.filter((f) => f.skipReason !== null).length, 0);
  return (
    <tr data-testid={`import-source-${source.tool}`} data-found={source.exists ? 'true' : 'false'}>
      <th scope="row">{IMPORT_TOOL_LABELS[source.tool]}</th>
      <td className="path-cell">
        <code>{source.home}</code>
      </td>
      <td>
        <span className={`badge ${source.exists ? 'badge-indexed' : 'badge-skipped'}`}>{source.exists ? 'found' : 'not found'}</span>
      </td>
      <td className="num">{source.collections.length}</td>
      <td className="num" data-testid="import-source-files">
        {files}
        {skipped > 0 && <span className="muted"> ({skipped} skipped)</span>}
      </td>
      <td>
        {source.transcripts > 0 && (
          <div className="muted">
            {source.transcripts} {source.transcripts === 1 ? 'transcript' : 'transcripts'} (searchable as sessions, not copied)
          </div>
        )}
        {source.notes.map((note, i) => (
          <div key={i} className="muted">
            {note}
          </div>
        ))}
      </td>
    </tr>
  );
}

function ImportStep() {
  const plan = useReverie((s) => s.imports.plan);
  const planState = useReverie((s) => s.imports.planState);
  const planError = useReverie((s) => s.imports.planError);
  const applyState = useReverie((s) => s.imports.applyState);
  const applyError = useReverie((s) => s.imports.applyError);
  const applyErrorCode = useReverie((s) => s.imports.applyErrorCode);
  const report = useReverie((s) => s.imports.report);
  const preview = useReverie((s) => s.imports.preview);
  const isApplying = applyState === 'applying';

  return (
    <section className="card imports-section" aria-labelledby="imports-plan-heading" data-testid="import-plan-section">
      <div className="section-head">
        <h2 id="imports-plan-heading">{report ? 'Import report' : 'Preview'}</h2>
        <button
          type="button"
          className={plan || report ? 'button' : 'button button-primary'}
          data-testid="import-preview"
          onClick={() => void preview()}
          disabled={planState === 'loading' || isApplying}
        >
          {plan || report ? 'Preview again' : 'Preview import'}
        </button>
      </div>
      {planState === 'loading' && <p className="muted">Reading the sources…</p>}
      {planState === 'error' && (
        <div className="banner banner-error" role="alert" data-testid="import-plan-error">
          Could not make a plan: {planError}
        </div>
      )}
      {applyState === 'error' && (
        <div className="banner banner-error" role="alert" data-testid="import-apply-error">
          <span>
            The import did not run: {applyError}
            {applyErrorCode === 'conflict' && ' Preview again to review the new plan.'}
          </span>
        </div>
      )}
      <ApplyProgress />
      {report && <ReportDetails report={report} />}
      {plan && !report && <PlanPreview />}
      {!plan && !report && planState === 'idle' && (
        <p className="muted">Preview lists every file that would be copied and where it would go; nothing is written until you import.</p>
      )}
    </section>
  );
}

function PlanPreview() {
  const plan = useReverie((s) => s.imports.plan);
  const excluded = useReverie((s) => s.imports.excluded);
  const replace = useReverie((s) => s.imports.replace);
  const applyState = useReverie((s) => s.imports.applyState);
  const setReplace = useReverie((s) => s.imports.setReplace);
  const apply = useReverie((s) => s.imports.apply);
  if (!plan) return null;

  const counts = planCounts(plan.items);
  const groups = groupPlanItems(plan.items);
  const unticked = new Set(excluded);
  const isApplying = applyState === 'applying';
  const willWrite = plan.items.filter(
    (item) => isSelectable(item) && !unticked.has(item.destination) && (item.status === 'new' || replace),
  ).length;

  return (
    <div data-testid="import-plan">
      <dl className="facts facts-compact">
        <dt>Items</dt>
        <dd data-testid="import-plan-counts">
          {counts.new} new · {counts.conflict} conflicting · {counts.unchanged} unchanged · {counts.skipped} skipped
        </dd>
        <dt>Fingerprint</dt>
        <dd>
          <code data-testid="import-plan-fingerprint">{plan.fingerprint}</code>
        </dd>
        <dt>Planned</dt>
        <dd>{formatTime(plan.createdAt)}</dd>
      </dl>
      {plan.notes.length > 0 && (
        <ul className="imports-notes">
          {plan.notes.map((note, i) => (
            <li key={i} className="muted">
              {note}
            </li>
          ))}
        </ul>
      )}
      {plan.items.length === 0 && <p className="muted">Nothing to import: no memory files were found.</p>}
      {groups.map((group) => (
        <PlanGroup key={group.key} group={group} unticked={unticked} replace={replace} disabled={isApplying} />
      ))}
      <div className="button-row imports-apply-row">
        <label className="checkbox" title="Conflicting files in memory/imports/ are backed up, then overwritten">
          <input
            type="checkbox"
            data-testid="import-replace"
            checked={replace}
            disabled={isApplying}
            onChange={(event) => setReplace(event.target.checked)}
          />
          Replace existing imports{counts.conflict > 0 && ` (${counts.conflict} conflicting)`}
        </label>
        <button
          type="button"
          className="button button-primary"
          data-testid="import-apply"
          disabled={isApplying}
          onClick={() => void apply()}
        >
          {isApplying ? 'Importing…' : `Import ${willWrite} ${willWrite === 1 ? 'file' : 'files'}`}
        </button>
      </div>
    </div>
  );
}

const STATUS_BADGE: Record<ImportPlanItem['status'], string> = {
  new: 'badge-indexed',
  unchanged: '',
  conflict: 'badge-failed',
  skipped: 'badge-skipped',
};

function PlanGroup({ group, unticked, replace, disabled }: { group: ImportPlanGroup; unticked: Set<string>; replace: boolean; disabled: boolean }) {
  const toggleItem = useReverie((s) => s.imports.toggleItem);
  const setGroupIncluded = useReverie((s) => s.imports.setGroupIncluded);
  const selectable = group.items.filter(isSelectable);
  const ticked = selectable.filter((item) => !unticked.has(item.destination)).length;
  const headingId = `import-group-${group.key.replace(/[^\w-]/g, '-')}`;
  return (
    <div className="imports-group" data-testid="import-group" data-group={group.key}>
      <div className="imports-group-head">
        <h3 id={headingId}>
          {IMPORT_TOOL_LABELS[group.tool]} <span className="muted">· {group.collection}</span>
        </h3>
        {selectable.length > 0 && (
          <label className="checkbox">
            <input
              type="checkbox"
              checked={ticked === selectable.length}
              ref={(el) => {
                if (el) el.indeterminate = ticked > 0 && ticked < selectable.length;
              }}
              disabled={disabled}
              onChange={(event) => setGroupIncluded(group.key, event.target.checked)}
            />
            All ({ticked}/{selectable.length})
          </label>
        )}
      </div>
      <table className="coverage-table imports-plan-table" aria-labelledby={headingId}>
        <thead>
          <tr>
            <th scope="col">
              <span className="visually-hidden">Include</span>
            </th>
            <th scope="col">Status</th>
            <th scope="col">Source</th>
            <th scope="col">Destination</th>
            <th scope="col" className="num">
              Size
            </th>
          </tr>
        </thead>
        <tbody>
          {group.items.map((item, i) => {
            const canToggle = isSelectable(item);
            const isTicked = canToggle && !unticked.has(item.destination);
            return (
              <tr
                key={`${item.sourcePath}:${i}`}
                className={`import-item import-${item.status}${canToggle && !isTicked ? ' is-excluded' : ''}`}
                data-testid="import-item"
                data-status={item.status}
              >
                <td>
                  {canToggle && (
                    <input
                      type="checkbox"
                      aria-label={`Import ${item.destination}`}
                      checked={isTicked}
                      disabled={disabled}
                      onChange={() => toggleItem(item.destination)}
                    />
                  )}
                </td>
                <td>
                  <span className={`badge ${STATUS_BADGE[item.status]}`}>{item.status}</span>
                  {item.status === 'conflict' && isTicked && (
                    <div className="muted imports-hint">{replace ? 'will be replaced' : 'kept as is'}</div>
                  )}
                </td>
                <td className="path-cell">
                  <code>{item.sourcePath}</code>
                  {item.reason && <div className="reason-cell">{item.reason}</div>}
                </td>
                <td className="path-cell">{item.destination ? <code>{item.destination}</code> : <span className="muted">—</span>}</td>
                <td className="num">{formatBytes(item.size)}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

function ApplyProgress() {
  const progress = useReverie((s) => s.imports.progress);
  const applyState = useReverie((s) => s.imports.applyState);
  if (applyState !== 'applying') return null;
  return (
    <div className="imports-progress" data-testid="import-progress" role="status">
      <span>{progress ? importProgressText(progress) : 'Starting…'}</span>
      <progress
        className="index-progress"
        max={progress && progress.total > 0 ? progress.total : undefined}
        value={progress && progress.total > 0 ? progress.done : undefined}
        aria-label="Import progress"
      />
    </div>
  );
}

const ACTION_BADGE: Record<ImportReport['items'][number]['action'], string> = {
  copied: 'badge-indexed',
  replaced: 'badge-memory',
  unchanged: '',
  skipped: 'badge-skipped',
};

function ReportDetails({ report }: { report: ImportReport }) {
  const openInMemory = useReverie((s) => s.imports.openInMemory);
  const whereFrom = useReverie((s) => s.imports.whereFrom);
  const reset = useReverie((s) => s.imports.reset);
  const written = report.items.filter((item) => item.action === 'copied' || item.action === 'replaced');
  const others = report.items.filter((item) => item.action === 'skipped');
  return (
    <div data-testid="import-report" data-outcome={report.outcome}>
      {report.outcome === 'failed' ? (
        <div className="banner banner-error" role="alert" data-testid="import-report-error">
          The import failed and nothing was half-written: {report.error ?? 'no reason given'}
        </div>
      ) : (
        <div className="banner banner-ok" role="status">
          Import finished.
        </div>
      )}
      <dl className="facts facts-compact">
        <dt>Counts</dt>
        <dd data-testid="import-report-counts">{reportCountsText(report)}</dd>
        <dt>Report</dt>
        <dd>{report.reportPath ? <code data-testid="import-report-path">{report.reportPath}</code> : <span className="muted">not written</span>}</dd>
        {report.markdownPath && (
          <>
            <dt>Summary</dt>
            <dd>
              <code>{report.markdownPath}</code>
            </dd>
          </>
        )}
        {report.backupDir && (
          <>
            <dt>Backups</dt>
            <dd>
              <code>{report.backupDir}</code>
            </dd>
          </>
        )}
        <dt>Fingerprint</dt>
        <dd>
          <code>{report.planFingerprint}</code>
        </dd>
      </dl>
      {written.length > 0 && (
        <>
          <h3>Imported files</h3>
          <ul className="imports-written" data-testid="import-report-written">
            {written.map((item, i) =>
              item.destination ? (
                <li key={`${item.destination}:${i}`}>
                  <span className={`badge ${ACTION_BADGE[item.action]}`}>{item.action}</span>{' '}
                  <button type="button" className="link-button" data-testid="import-open-memory" onClick={() => void openInMemory(item.destination!)}>
                    {item.destination}
                  </button>{' '}
                  <button type="button" className="why-button" data-testid="import-where-from" onClick={() => void whereFrom(item.destination!)}>
                    Where from?
                  </button>
                  {item.backupPath && <span className="muted"> · backup {item.backupPath}</span>}
                </li>
              ) : null,
            )}
          </ul>
        </>
      )}
      {others.length > 0 && (
        <>
          <h3>Skipped</h3>
          <ul className="imports-skipped" data-testid="import-report-skipped">
            {others.map((item, i) => (
              <li key={`${item.sourcePath}:${i}`}>
                <code>{item.destination ?? item.sourcePath}</code>
                {item.reason && <span className="reason-cell"> — {item.reason}</span>}
              </li>
            ))}
          </ul>
        </>
      )}
      <div className="button-row">
        <button type="button" className="button" onClick={reset}>
          Close report
        </button>
      </div>
    </div>
  );
}

function EarlierReports() {
  const reports = useReverie((s) => s.imports.reports);
  const state = useReverie((s) => s.imports.reportsState);
  const error = useReverie((s) => s.imports.reportsError);
  return (
    <section className="card imports-section" aria-labelledby="imports-reports-heading" data-testid="import-reports">
      <h2 id="imports-reports-heading">Earlier imports</h2>
      {state === 'error' && (
        <div className="banner banner-error" role="alert">
          Could not list earlier imports: {error}
        </div>
      )}
      {state === 'loading' && reports.length === 0 && <p className="muted">Loading…</p>}
      {state === 'ready' && reports.length === 0 && <p className="muted">No imports yet.</p>}
      {reports.length > 0 && (
        <table className="coverage-table">
          <thead>
            <tr>
              <th scope="col">Started</th>
              <th scope="col">Outcome</th>
              <th scope="col">Counts</th>
              <th scope="col">Report</th>
            </tr>
          </thead>
          <tbody>
            {reports.map((report) => (
              <tr key={report.id} data-testid="import-report-row">
                <td>{formatTime(report.startedAt)}</td>
                <td>
                  <span className={`badge ${report.outcome === 'completed' ? 'badge-indexed' : 'badge-failed'}`}>{report.outcome}</span>
                  {report.error && <div className="reason-cell">{report.error}</div>}
                </td>
                <td>{reportCountsText(report)}</td>
                <td className="path-cell">
                  <code>{report.markdownPath ?? report.reportPath}</code>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
