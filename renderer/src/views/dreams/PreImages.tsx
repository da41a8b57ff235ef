import { ShowMore, useShownCount } from '../shell/ShowMore.js';
import type { PreImage } from '../../../../core/src/contract/index.js';
import { restoreKey } from '../../store/dreamsSlice.js';
import { useReverie } from '../../store/useReverie.js';
import { formatBytes, formatTime } from '../format.js';

const PAGE = 10;

/** Saved copies of MEMORY.md, USER.md and DREAMS.md from before each change, newest first. */
export function PreImages() {
  const preImages = useReverie((s) => s.dreams.preImages);
  const state = useReverie((s) => s.dreams.preImagesState);
  const error = useReverie((s) => s.dreams.preImagesError);
  const { shown, showMore } = useShownCount(PAGE);
  return (
    <section className="card dreams-section" aria-labelledby="dream-preimages-heading" data-testid="dream-preimages">
      <h2 id="dream-preimages-heading">Pre-images</h2>
      <p className="muted dreams-section-intro">
        Before dreaming (or a rollback, or a restore) changes <code>MEMORY.md</code>, <code>USER.md</code> or <code>DREAMS.md</code>, the file is
        saved here. Restoring keeps the current content as a new pre-image first.
      </p>
      {state === 'error' && (
        <div className="banner banner-error" role="alert" data-testid="dream-preimages-error">
          Could not list pre-images: {error}
        </div>
      )}
      {state === 'loading' && preImages.length === 0 && <p className="muted">Loading…</p>}
      {state === 'ready' && preImages.length === 0 && (
        <p className="muted" data-testid="dream-preimages-empty">
          No pre-images yet.
        </p>
      )}
      {preImages.length > 0 && (
        <table className="coverage-table dream-preimages-table">
          <thead>
            <tr>
              <th scope="col">Saved</th>
              <th scope="col">File</th>
              <th scope="col">Replaced by</th>
              <th scope="col" className="num">
                Size
              </th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {preImages.slice(0, shown).map((preImage) => (
              <PreImageRow key={preImage.id} preImage={preImage} />
            ))}
          </tbody>
        </table>
      )}
      <ShowMore shown={shown} total={preImages.length} noun="pre-images" testId="dream-preimages-more" onShowMore={showMore} />
    </section>
  );
}

function PreImageRow({ preImage }: { preImage: PreImage }) {
  const restore = useReverie((s) => s.dreams.restore);
  const selectRun = useReverie((s) => s.dreams.selectRun);
  const pending = useReverie((s) => s.dreams.pending);
  const key = restoreKey(preImage.id);
  const actionError = useReverie((s) => (s.dreams.actionError?.key === key ? s.dreams.actionError : null));
  return (
    <tr data-testid="dream-preimage" data-id={preImage.id} data-file={preImage.file} data-run-id={preImage.runId ?? undefined}>
      <td>{formatTime(preImage.createdAt)}</td>
      <td>
        <code>{preImage.file}</code>
      </td>
      <td>
        {preImage.reason}
        {preImage.runId && (
          <>
            {' '}
            <button type="button" className="link-button" onClick={() => void selectRun(preImage.runId!)}>
              show the run
            </button>
          </>
        )}
        <div className="muted dream-sha" title={preImage.sha256}>
          sha256 {preImage.sha256.slice(0, 12)}
        </div>
      </td>
      <td className="num">{formatBytes(preImage.size)}</td>
      <td className="actions-cell">
        <button
          type="button"
          className="button button-small"
          data-testid="dream-restore"
          disabled={pending !== null}
          onClick={() => void restore(preImage)}
        >
          {pending === key ? 'Restoring…' : 'Restore'}
        </button>
        {actionError && (
          <div className="reason-cell dream-action-error" role="alert" data-testid="dream-restore-error">
            {actionError.message}
          </div>
        )}
      </td>
    </tr>
  );
}
