import { useReverie } from '../../store/useReverie.js';

/** "Rejected “…”. Undo" while a Reject, Rollback or Forget waits its few seconds (see undoSlice). */
export function HeldActionToast() {
  const held = useReverie((s) => s.undo.held);
  const error = useReverie((s) => s.undo.error);
  const undo = useReverie((s) => s.undo.undo);
  const performNow = useReverie((s) => s.undo.performNow);
  const dismissError = useReverie((s) => s.undo.dismissError);
  if (held) {
    return (
      <div className="toast toast-held" role="status" data-testid="held-action" data-key={held.key}>
        <span>{held.message}</span>
        <button type="button" className="button" data-testid="held-undo" onClick={undo}>
          Undo
        </button>
        <button type="button" className="link-button" data-testid="held-now" onClick={() => void performNow()} aria-label="Do it now" title="Do it now">
          ×
        </button>
      </div>
    );
  }
  if (!error) return null;
  return (
    <div className="toast toast-held" role="alert" data-testid="held-action-error">
      <span>Not done: {error}</span>
      <button type="button" className="link-button" onClick={dismissError} aria-label="Dismiss">
        ×
      </button>
    </div>
  );
}
