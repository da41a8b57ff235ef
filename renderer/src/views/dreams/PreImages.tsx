import type { PreImage } from '../../../../core/src/contract/index.js';
import { DataTable, type Column } from '../../components/DataTable.js';
import { EmptyState } from '../../components/EmptyState.js';
import { ErrorNotice } from '../../components/ErrorNotice.js';
import { restoreKey } from '../../store/dreamsSlice.js';
import { useReverie } from '../../store/useReverie.js';
import { formatBytes, formatTime } from '../format.js';
import { TechnicalDetails } from '../../components/TechnicalDetails.js';
import { withRunsNamed } from './dreamText.js';

const PAGE = 10;

const COLUMNS: Array<Column<PreImage>> = [
  { key: 'saved', header: 'Saved', minWidth: 150, cell: (preImage) => formatTime(preImage.createdAt) },
  { key: 'file', header: 'File', minWidth: 100, cell: (preImage) => <code>{preImage.file}</code> },
  { key: 'reason', header: 'Replaced by', priority: 2, minWidth: 220, cell: (preImage) => <ReplacedBy preImage={preImage} /> },
  { key: 'size', header: 'Size', align: 'end', priority: 3, minWidth: 80, cell: (preImage) => formatBytes(preImage.size) },
  { key: 'actions', header: 'Actions', headerHidden: true, className: 'actions-cell', minWidth: 100, cell: (preImage) => <RestorePreImage preImage={preImage} /> },
];

/** Saved copies of MEMORY.md, USER.md and DREAMS.md from before each change, newest first. */
export function PreImages() {
  const preImages = useReverie((s) => s.dreams.preImages);
  const state = useReverie((s) => s.dreams.preImagesState);
  const error = useReverie((s) => s.dreams.preImagesError);
  return (
    <section className="card dreams-section" aria-labelledby="dream-preimages-heading" data-testid="dream-preimages">
      <h2 id="dream-preimages-heading">Pre-images</h2>
      <p className="muted dreams-section-intro">
        Before dreaming (or a rollback, or a restore) changes <code>MEMORY.md</code>, <code>USER.md</code> or <code>DREAMS.md</code>, the file is
        saved here. Restoring keeps the current content as a new pre-image first.
      </p>
      {state === 'error' && <ErrorNotice title="Could not list pre-images" error={error} testId="dream-preimages-error" />}
      {state === 'loading' && preImages.length === 0 && <p className="muted">Loading…</p>}
      <DataTable
        className="dream-preimages-table"
        aria-labelledby="dream-preimages-heading"
        columns={COLUMNS}
        rows={preImages}
        rowKey={(preImage) => preImage.id}
        rowProps={(preImage) => ({
          'data-testid': 'dream-preimage',
          'data-id': preImage.id,
          'data-file': preImage.file,
          'data-run-id': preImage.runId ?? undefined,
        })}
        pageSize={PAGE}
        noun="pre-images"
        moreTestId="dream-preimages-more"
        empty={state === 'ready' ? <EmptyState testId="dream-preimages-empty">No pre-images yet.</EmptyState> : null}
      />
    </section>
  );
}

function ReplacedBy({ preImage }: { preImage: PreImage }) {
  const selectRun = useReverie((s) => s.dreams.selectRun);
  return (
    <>
      {withRunsNamed(preImage.reason)}
      {preImage.runId && (
        <>
          {' '}
          <button type="button" className="link-button" onClick={() => void selectRun(preImage.runId!)}>
            show the run
          </button>
        </>
      )}
      <TechnicalDetails
        facts={[
          { label: 'Pre-image', value: preImage.id },
          { label: 'SHA-256', value: preImage.sha256 },
        ]}
      />
    </>
  );
}

function RestorePreImage({ preImage }: { preImage: PreImage }) {
  const restore = useReverie((s) => s.dreams.restore);
  const pending = useReverie((s) => s.dreams.pending);
  const key = restoreKey(preImage.id);
  const actionError = useReverie((s) => (s.dreams.actionError?.key === key ? s.dreams.actionError : null));
  return (
    <>
      <button type="button" className="button button-small" data-testid="dream-restore" disabled={pending !== null} onClick={() => void restore(preImage)}>
        {pending === key ? 'Restoring…' : 'Restore'}
      </button>
      {actionError && <ErrorNotice variant="inline" error={actionError.message} testId="dream-restore-error" />}
    </>
  );
}
