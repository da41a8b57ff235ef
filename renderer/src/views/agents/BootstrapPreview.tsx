import { useId } from 'react';
import { Badge } from '../../components/Badge.js';
import { DataTable, type Column } from '../../components/DataTable.js';
import { EmptyState } from '../../components/EmptyState.js';
import { ErrorNotice } from '../../components/ErrorNotice.js';
import type { BootstrapPreview as Preview } from '../../store/agentsSlice.js';
import { useReverie } from '../../store/useReverie.js';

type BootstrapFile = Preview['files'][number];

const FILE_COLUMNS: Array<Column<BootstrapFile>> = [
  { key: 'path', header: 'File', className: 'path-cell', minWidth: 160, cell: (file) => <code>{file.path}</code> },
  { key: 'chars', header: 'Characters', align: 'end', minWidth: 100, cell: (file) => file.chars.toLocaleString() },
  { key: 'included', header: 'Included', align: 'end', minWidth: 90, cell: (file) => file.included.toLocaleString() },
  {
    key: 'truncated',
    header: 'Truncated',
    minWidth: 90,
    cell: (file) => (file.truncated ? <Badge tone="warn">truncated</Badge> : <span className="muted">no</span>),
  },
];

/** "What would this agent get": the `context.bootstrap` answer an agent starts a session with. */
export function BootstrapPreview() {
  const budget = useReverie((s) => s.agents.bootstrapBudget);
  const project = useReverie((s) => s.agents.bootstrapProject);
  const preview = useReverie((s) => s.agents.bootstrap);
  const state = useReverie((s) => s.agents.bootstrapState);
  const error = useReverie((s) => s.agents.bootstrapError);
  const setBudget = useReverie((s) => s.agents.setBootstrapBudget);
  const setProject = useReverie((s) => s.agents.setBootstrapProject);
  const run = useReverie((s) => s.agents.previewBootstrap);
  const budgetId = useId();
  const projectId = useId();
  return (
    <section className="card agents-section" aria-labelledby="agents-bootstrap-heading" data-testid="agent-bootstrap">
      <h2 id="agents-bootstrap-heading">What would an agent get?</h2>
      <p className="muted">
        The context an agent starts with (<code>context.bootstrap</code>): the active entries of <code>USER.md</code> and{' '}
        <code>MEMORY.md</code> within a character budget, plus a project&apos;s entries when one is given. Recalled memory is framed as data,
        not instructions.
      </p>
      <form
        className="agents-bootstrap-form"
        onSubmit={(event) => {
          event.preventDefault();
          void run();
        }}
      >
        <label className="inline-field" htmlFor={budgetId}>
          Budget (characters)
        </label>
        <input
          id={budgetId}
          type="number"
          className="text-input number-input"
          data-testid="agent-bootstrap-budget"
          min={1000}
          max={200000}
          step={1000}
          value={Number.isFinite(budget) ? budget : ''}
          onChange={(event) => setBudget(event.target.valueAsNumber)}
        />
        <label className="inline-field" htmlFor={projectId}>
          Project (optional)
        </label>
        <input
          id={projectId}
          className="text-input"
          data-testid="agent-bootstrap-project"
          value={project}
          placeholder="e.g. quillfeather"
          spellCheck={false}
          onChange={(event) => setProject(event.target.value)}
        />
        <button type="submit" className="button button-primary" data-testid="agent-bootstrap-run" disabled={state === 'loading'}>
          {state === 'loading' ? 'Building…' : preview ? 'Preview again' : 'Preview'}
        </button>
      </form>
      {state === 'error' && <ErrorNotice title="Could not build the context" error={error} testId="agent-bootstrap-error" />}
      {preview && (
        <div data-testid="agent-bootstrap-result">
          <p className="muted" data-testid="agent-bootstrap-summary">
            {preview.totalChars.toLocaleString()} of {preview.budget.toLocaleString()} characters
            {preview.truncated ? ' · truncated to fit' : ''}
          </p>
          <DataTable
            className="agents-bootstrap-files"
            columns={FILE_COLUMNS}
            rows={preview.files}
            rowKey={(file) => file.path}
            rowProps={(file) => ({ 'data-testid': 'agent-bootstrap-file', 'data-path': file.path })}
          />
          {preview.text ? (
            <pre className="agents-bootstrap-text" data-testid="agent-bootstrap-text">
              {preview.text}
            </pre>
          ) : (
            <EmptyState>Nothing to give: USER.md and MEMORY.md have no active entries.</EmptyState>
          )}
        </div>
      )}
    </section>
  );
}
