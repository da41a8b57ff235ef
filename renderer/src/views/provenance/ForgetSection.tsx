import { useEffect, useRef } from 'react';
import type { ForgetReport, ProvenanceChain } from '../../../../core/src/contract/index.js';
import { ErrorNotice } from '../../components/ErrorNotice.js';
import { forgetTargetOf, type ForgetFlow } from '../../store/provenanceSlice.js';
import { useReverie } from '../../store/useReverie.js';
import { formatLineRanges } from './origin.js';

const plural = (n: number, one: string, many = `${one}s`): string => `${n.toLocaleString()} ${n === 1 ? one : many}`;

/**
 * "Forget this session" / "Stop indexing this file": a dry run first that shows exactly what
 * would be removed, then an explicit confirmation. Markdown on disk is never changed.
 */
export function ForgetSection({ chain }: { chain: ProvenanceChain }) {
  const forget = useReverie((s) => s.provenance.forget);
  const previewForget = useReverie((s) => s.provenance.previewForget);
  const target = forgetTargetOf(chain);
  const isSession = target.kind === 'session';
  const actionLabel = isSession ? 'Forget this session' : 'Stop indexing this file';

  return (
    <section className="prov-section prov-forget" aria-labelledby="prov-forget-title" data-testid="forget-section">
      <h3 id="prov-forget-title">Forget</h3>
      {!forget && (
        <>
          <p className="prov-explain">
            {isSession
              ? 'Removes every indexed line of this session, and its vectors, from the index, and keeps the session out of later ingestion.'
              : 'Removes this file’s text and vectors from the index and keeps the file out of later indexing.'}{' '}
            Your Markdown is never changed. You will see what would be removed before anything happens.
          </p>
          <button type="button" className="button button-danger" data-testid="forget-start" onClick={() => void previewForget()}>
            {actionLabel}…
          </button>
        </>
      )}
      {forget && <ForgetFlowView flow={forget} isSession={isSession} />}
    </section>
  );
}

function ForgetFlowView({ flow, isSession }: { flow: ForgetFlow; isSession: boolean }) {
  const { confirmForget, cancelForget, previewForget } = useReverie((s) => s.provenance);
  const undo = useReverie((s) => s.undo.undo);
  const focusTarget = useRef<HTMLDivElement>(null);

  // The button that started this step is gone: keep keyboard focus in the flow.
  useEffect(() => {
    if (flow.state === 'preview' || flow.state === 'done' || flow.state === 'error') focusTarget.current?.focus();
  }, [flow.state]);

  if (flow.state === 'previewing') {
    return (
      <p className="muted" role="status" data-testid="forget-previewing">
        Checking what would be removed…
      </p>
    );
  }
  if (flow.state === 'error') {
    return (
      <ErrorNotice
        ref={focusTarget}
        focusable
        title="Could not check what would be removed"
        error={flow.error}
        testId="forget-error"
        onRetry={() => void previewForget()}
        actions={
          <button type="button" className="button button-small" onClick={cancelForget}>
            Cancel
          </button>
        }
      />
    );
  }
  if (flow.state === 'held') {
    return (
      <div className="forget-held" role="status" data-testid="forget-held">
        <p>
          <strong>{isSession ? 'Forgetting this session' : 'Stopping indexing this file'} in a few seconds.</strong> Changed your mind? Undo now and nothing is
          removed.
        </p>
        <div className="button-row">
          <button type="button" className="button" data-testid="forget-undo" onClick={undo}>
            Undo
          </button>
        </div>
      </div>
    );
  }
  if (flow.state === 'done' && flow.report) {
    return (
      <div ref={focusTarget} tabIndex={-1} className="forget-done" role="status" data-testid="forget-done">
        <p>
          <strong>{isSession ? 'Session forgotten.' : 'No longer indexed.'}</strong> Removed {removedSummary(flow.report)} from the index; it will not be
          indexed again. Search results were refreshed.
        </p>
        <StillInWorkspace report={flow.report} />
      </div>
    );
  }
  const preview = flow.preview;
  if (!preview) return null;
  const isForgetting = flow.state === 'forgetting';
  return (
    <div ref={focusTarget} tabIndex={-1} className="forget-preview" data-testid="forget-preview" aria-labelledby="forget-preview-title">
      <p id="forget-preview-title">
        <strong>This would remove from the index</strong> (nothing has been removed yet):
      </p>
      <ul className="forget-counts">
        <li data-testid="forget-files">
          {plural(preview.removed.files.length, 'file')}
          {preview.removed.files.length > 0 && (
            <>
              : <FileList files={preview.removed.files} />
            </>
          )}
        </li>
        <li data-testid="forget-chunks">{plural(preview.removed.chunks, 'chunk')}</li>
        <li data-testid="forget-vectors">{plural(preview.removed.vectors, 'vector')}</li>
      </ul>
      <StillInWorkspace report={preview} />
      <p className="muted prov-sub">
        A tombstone for {preview.tombstone.kind} <code>{preview.tombstone.key}</code> keeps it out of later {isSession ? 'ingestion' : 'indexing'}.
      </p>
      {flow.error && <ErrorNotice title="Not forgotten" error={flow.error} testId="forget-error" />}
      <div className="button-row">
        <button
          type="button"
          className="button button-danger-solid"
          data-testid="forget-confirm"
          disabled={isForgetting}
          onClick={() => void confirmForget()}
        >
          {isForgetting ? 'Forgetting…' : isSession ? 'Forget this session' : 'Stop indexing this file'}
        </button>
        <button type="button" className="button" data-testid="forget-cancel" disabled={isForgetting} onClick={cancelForget}>
          Cancel
        </button>
      </div>
    </div>
  );
}

function StillInWorkspace({ report }: { report: ForgetReport }) {
  const files = report.stillInWorkspace;
  return (
    <div className="forget-still" data-testid="forget-still">
      <p>
        <strong>Your Markdown is not changed</strong>
        {files.length > 0 ? '; these files still contain the text:' : '; no workspace file contains this text.'}
      </p>
      {files.length > 0 && (
        <ul>
          {files.map((f) => (
            <li key={f.path} data-testid="forget-still-file" data-path={f.path}>
              <code>{f.path}</code>
              {f.lines.length > 0 && (
                <span className="muted">
                  {' '}
                  ({f.lines.length === 1 ? 'line' : 'lines'} {formatLineRanges(f.lines)})
                </span>
              )}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function FileList({ files }: { files: readonly string[] }) {
  const shown = files.slice(0, 5);
  return (
    <>
      {shown.map((f, i) => (
        <span key={f}>
          {i > 0 && ', '}
          <code>{f}</code>
        </span>
      ))}
      {files.length > shown.length && ` and ${files.length - shown.length} more`}
    </>
  );
}

function removedSummary(report: ForgetReport): string {
  const { files, chunks, vectors } = report.removed;
  return `${plural(chunks, 'chunk')} and ${plural(vectors, 'vector')} (${plural(files.length, 'file')})`;
}
