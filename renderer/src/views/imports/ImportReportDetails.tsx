import type { ImportReport } from '../../../../core/src/contract/index.js';
import { Badge, type BadgeTone } from '../../components/Badge.js';
import { ErrorNotice } from '../../components/ErrorNotice.js';
import { useReverie } from '../../store/useReverie.js';
import { reportCountsText } from './importText.js';

const ACTION_TONE: Record<ImportReport['items'][number]['action'], BadgeTone> = {
  copied: 'ok',
  replaced: 'info',
  unchanged: 'neutral',
  skipped: 'warn',
};

/** What an import did: the outcome, where its report is, the files written (each opens in Memory) and those skipped. */
export function ImportReportDetails({ report }: { report: ImportReport }) {
  const openInMemory = useReverie((s) => s.imports.openInMemory);
  const whereFrom = useReverie((s) => s.imports.whereFrom);
  const reset = useReverie((s) => s.imports.reset);
  const written = report.items.filter((item) => item.action === 'copied' || item.action === 'replaced');
  const others = report.items.filter((item) => item.action === 'skipped');
  return (
    <div data-testid="import-report" data-outcome={report.outcome}>
      {report.outcome === 'failed' ? (
        <ErrorNotice title="The import failed and nothing was half-written" error={report.error ?? 'no reason given'} testId="import-report-error" />
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
                  <Badge tone={ACTION_TONE[item.action]}>{item.action}</Badge>{' '}
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
