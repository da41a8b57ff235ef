import { Badge } from '../../components/Badge.js';
import { DataTable, type Column } from '../../components/DataTable.js';
import { EmptyState } from '../../components/EmptyState.js';
import { ErrorNotice } from '../../components/ErrorNotice.js';
import { IMPORT_TOOL_LABELS, type DetectedImportSource, type ImportReportSummary } from '../../store/importsSlice.js';
import { useReverie } from '../../store/useReverie.js';
import { formatTime } from '../format.js';
import { ImportStep } from './ImportStep.js';
import { reportCountsText } from './importText.js';
import './imports.css';

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

const fileCount = (source: DetectedImportSource): number => source.collections.reduce((n, c) => n + c.files.length, 0);
const skippedCount = (source: DetectedImportSource): number =>
  source.collections.reduce((n, c) => n + c.files.filter((f) => f.skipReason !== null).length, 0);

const SOURCE_COLUMNS: Array<Column<DetectedImportSource>> = [
  { key: 'tool', header: 'Tool', rowHeader: true, minWidth: 100, cell: (source) => IMPORT_TOOL_LABELS[source.tool] },
  { key: 'home', header: 'Home', className: 'path-cell', minWidth: 180, cell: (source) => <code>{source.home}</code> },
  {
    key: 'found',
    header: 'Found',
    minWidth: 90,
    cell: (source) => <Badge tone={source.exists ? 'ok' : 'warn'}>{source.exists ? 'found' : 'not found'}</Badge>,
  },
  { key: 'collections', header: 'Collections', align: 'end', priority: 3, minWidth: 95, cell: (source) => source.collections.length },
  {
    key: 'files',
    header: 'Files',
    align: 'end',
    minWidth: 70,
    cellProps: () => ({ 'data-testid': 'import-source-files' }),
    cell: (source) => (
      <>
        {fileCount(source)}
        {skippedCount(source) > 0 && <span className="muted"> ({skippedCount(source)} skipped)</span>}
      </>
    ),
  },
  {
    key: 'notes',
    header: 'Notes',
    priority: 2,
    minWidth: 200,
    cell: (source) => (
      <>
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
      </>
    ),
  },
];

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
      {state === 'error' && <ErrorNotice title="Could not look for sources" error={error} testId="import-sources-error" />}
      {!sources && state === 'loading' && <p className="muted">Looking for Codex, Claude Code and Hermes…</p>}
      {sources && (
        <DataTable
          className="imports-sources-table"
          aria-labelledby="imports-sources-heading"
          columns={SOURCE_COLUMNS}
          rows={sources}
          rowKey={(source) => source.tool}
          rowProps={(source) => ({ 'data-testid': `import-source-${source.tool}`, 'data-found': source.exists ? 'true' : 'false' })}
          empty={<EmptyState>No sources to look at.</EmptyState>}
        />
      )}
    </section>
  );
}

const REPORT_COLUMNS: Array<Column<ImportReportSummary>> = [
  { key: 'started', header: 'Started', minWidth: 150, cell: (report) => formatTime(report.startedAt) },
  {
    key: 'outcome',
    header: 'Outcome',
    minWidth: 120,
    cell: (report) => (
      <>
        <Badge tone={report.outcome === 'completed' ? 'ok' : 'error'}>{report.outcome}</Badge>
        {report.error && <div className="reason-cell">{report.error}</div>}
      </>
    ),
  },
  { key: 'counts', header: 'Counts', minWidth: 200, cell: (report) => reportCountsText(report) },
  {
    key: 'report',
    header: 'Report',
    className: 'path-cell',
    priority: 2,
    minWidth: 220,
    cell: (report) => <code>{report.markdownPath ?? report.reportPath}</code>,
  },
];

function EarlierReports() {
  const reports = useReverie((s) => s.imports.reports);
  const state = useReverie((s) => s.imports.reportsState);
  const error = useReverie((s) => s.imports.reportsError);
  return (
    <section className="card imports-section" aria-labelledby="imports-reports-heading" data-testid="import-reports">
      <h2 id="imports-reports-heading">Earlier imports</h2>
      {state === 'error' && <ErrorNotice title="Could not list earlier imports" error={error} />}
      {state === 'loading' && reports.length === 0 && <p className="muted">Loading…</p>}
      <DataTable
        aria-labelledby="imports-reports-heading"
        columns={REPORT_COLUMNS}
        rows={reports}
        rowKey={(report) => report.id}
        rowProps={() => ({ 'data-testid': 'import-report-row' })}
        empty={state === 'ready' ? <EmptyState>No imports yet.</EmptyState> : null}
      />
    </section>
  );
}
