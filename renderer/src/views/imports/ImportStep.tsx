import { ErrorNotice } from '../../components/ErrorNotice.js';
import { useReverie } from '../../store/useReverie.js';
import { ImportReportDetails } from './ImportReportDetails.js';
import { PlanPreview } from './PlanPreview.js';
import { importProgressText } from './importText.js';

/** Preview, then import, then the report: one section that moves through the steps. */
export function ImportStep() {
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
      {planState === 'error' && <ErrorNotice title="Could not make a plan" error={planError} testId="import-plan-error" />}
      {applyState === 'error' && (
        <ErrorNotice
          title="The import did not run"
          error={applyError}
          hint={applyErrorCode === 'conflict' ? 'Preview again to review the new plan.' : undefined}
          testId="import-apply-error"
        />
      )}
      <ApplyProgress />
      {report && <ImportReportDetails report={report} />}
      {plan && !report && <PlanPreview />}
      {!plan && !report && planState === 'idle' && (
        <p className="muted">Preview lists every file that would be copied and where it would go; nothing is written until you import.</p>
      )}
    </section>
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
