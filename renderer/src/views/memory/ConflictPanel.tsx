import { useReverie } from '../../store/useReverie.js';

/** Shown when a save was refused because the file changed on disk. The editor keeps the person's text. */
export function ConflictPanel({ message }: { message: string }) {
  const reloadFromDisk = useReverie((s) => s.memory.reloadFromDisk);
  const keepEditing = useReverie((s) => s.memory.keepEditing);
  return (
    <div className="conflict" role="alert" data-testid="conflict-panel">
      <h3 className="conflict-title">Not saved: the file changed on disk</h3>
      <p data-testid="conflict-message">{message}</p>
      <p className="muted">Your text is still in the editor below. Copy anything you want to keep before reloading.</p>
      <div className="button-row">
        <button type="button" className="button" data-testid="conflict-reload" onClick={() => void reloadFromDisk()}>
          Reload from disk
        </button>
        <button type="button" className="button button-primary" data-testid="conflict-keep" onClick={keepEditing}>
          Keep editing
        </button>
      </div>
    </div>
  );
}
