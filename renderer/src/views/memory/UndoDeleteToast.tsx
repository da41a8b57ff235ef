import { useReverie } from '../../store/useReverie.js';

/** "Moved … to the trash. Undo" for a few seconds after a delete; note errors show here too. */
export function UndoDeleteToast() {
  const lastDeleted = useReverie((s) => s.notes.lastDeleted);
  const error = useReverie((s) => s.notes.error);
  const notes = useReverie((s) => s.notes);
  if (!lastDeleted && !error) return null;
  return (
    <div className="toast" role="status" data-testid={lastDeleted ? 'undo-delete' : 'note-error'}>
      {lastDeleted ? (
        <>
          <span>Moved {lastDeleted.path} to the trash.</span>
          <button type="button" className="button" data-testid="undo-delete-button" onClick={() => void notes.undoDelete()}>
            Undo
          </button>
        </>
      ) : (
        <span>{error}</span>
      )}
      <button type="button" className="link-button" onClick={notes.dismissUndo} aria-label="Dismiss">
        ×
      </button>
    </div>
  );
}
