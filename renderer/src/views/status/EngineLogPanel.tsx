import { useEffect, useState } from 'react';
import type { LogRecord } from '../../../../core/src/contract/index.js';
import { Badge, type BadgeTone } from '../../components/Badge.js';
import { ErrorNotice } from '../../components/ErrorNotice.js';
import { useReverie } from '../../store/useReverie.js';
import { copyText } from '../../components/copyText.js';
import { formatTime } from '../format.js';
import { bugReportText } from './bugReport.js';
import './engineLogPanel.css';

/** Records listed in the panel; the bug report carries all that logs.recent returned. */
const SHOWN = 50;
const LEVEL_TONE: Record<LogRecord['level'], BadgeTone> = { debug: 'neutral', info: 'neutral', warn: 'warn', error: 'error' };

/**
 * The engine log in the Status view: whether the engine can write it, its recent warnings and
 * errors, and "Copy for a bug report". Reloaded whenever the status is.
 */
export function EngineLogPanel() {
  const log = useReverie((s) => s.status.engineLog);
  const loadError = useReverie((s) => s.status.engineLogError);
  const statusData = useReverie((s) => s.status.data);
  const loadEngineLog = useReverie((s) => s.status.loadEngineLog);
  const [copy, setCopy] = useState<{ state: 'copied' | 'manual'; text: string } | null>(null);

  useEffect(() => {
    void loadEngineLog();
  }, [loadEngineLog, statusData]);

  const copyReport = async () => {
    if (!log) return;
    const text = bugReportText(log, statusData);
    const result = await copyText(text, null);
    setCopy({ state: result === 'copied' ? 'copied' : 'manual', text });
  };

  return (
    <section className="card engine-log" aria-labelledby="engine-log-heading" data-testid="engine-log">
      <h2 id="engine-log-heading">Engine log</h2>
      {loadError && <ErrorNotice title="Could not read the engine log" error={loadError} testId="engine-log-load-error" onRetry={() => void loadEngineLog()} />}
      {log?.problem && (
        <div className="banner banner-warn" data-testid="engine-log-problem">
          {log.problem}
        </div>
      )}
      {log && log.records.length === 0 && <p className="muted" data-testid="engine-log-empty">No recent warnings or errors.</p>}
      {log && log.records.length > 0 && (
        <ul className="engine-log-records" data-testid="engine-log-records" aria-label="Recent warnings and errors">
          {log.records.slice(0, SHOWN).map((record, i) => (
            <li key={`${record.time}-${i}`} className="engine-log-record" data-level={record.level}>
              <Badge tone={LEVEL_TONE[record.level]}>{record.level}</Badge>
              <span className="engine-log-area">{record.area}</span>
              <span>
                {record.message} <span className="muted">· {formatTime(record.time)}</span>
              </span>
              {record.error && (
                <span className="engine-log-error">
                  {record.error.name}: {record.error.message}
                </span>
              )}
            </li>
          ))}
        </ul>
      )}
      {log && log.records.length > SHOWN && (
        <p className="muted">
          {log.records.length - SHOWN} older ones are in the bug report and the log folder.
        </p>
      )}
      <div className="engine-log-actions">
        <button type="button" className="button" data-testid="copy-bug-report" disabled={!log} onClick={() => void copyReport()}>
          Copy for a bug report
        </button>
        <span className="muted" role="status">
          {copy?.state === 'copied' && 'Copied: paste it into your bug report.'}
          {copy?.state === 'manual' && 'The clipboard is not available here: copy the text below.'}
        </span>
        {log && (
          <span className="muted">
            Log folder <code data-testid="engine-log-dir">{log.logDir}</code> · <code>reverie logs</code> prints it
          </span>
        )}
      </div>
      {copy?.state === 'manual' && (
        <textarea className="engine-log-report" readOnly value={copy.text} data-testid="bug-report-text" aria-label="Bug report" onFocus={(e) => e.currentTarget.select()} autoFocus />
      )}
    </section>
  );
}
