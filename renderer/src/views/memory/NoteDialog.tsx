import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useReverie } from '../../store/useReverie.js';

/** Asks for a new note's name (optionally `folder/name`), or a new name or place for a note. */
export function NoteDialog() {
  const dialog = useReverie((s) => s.notes.dialog);
  const error = useReverie((s) => s.notes.dialogError);
  const isBusy = useReverie((s) => s.notes.isBusy);
  const notes = useReverie((s) => s.notes);
  const inputRef = useRef<HTMLInputElement>(null);
  const initial = dialog?.kind === 'rename' ? dialog.path.replace(/^memory\//, '') : (dialog?.name ?? '');
  const [name, setName] = useState(initial);

  useEffect(() => {
    setName(initial);
    inputRef.current?.focus();
    inputRef.current?.select();
  }, [initial, dialog]);

  if (!dialog) return null;
  const isRename = dialog.kind === 'rename';

  function onSubmit(event: FormEvent): void {
    event.preventDefault();
    if (!dialog) return;
    if (dialog.kind === 'new') void notes.createNote(name);
    else void notes.renameNote(dialog.path, `memory/${name}`);
  }

  return (
    <div className="overlay" role="presentation" onMouseDown={(e) => e.target === e.currentTarget && notes.closeDialog()}>
      <form className="palette note-dialog" role="dialog" aria-modal="true" aria-labelledby="note-dialog-heading" data-testid="note-dialog" onSubmit={onSubmit}>
        <h2 id="note-dialog-heading">{isRename ? `Rename or move ${dialog.path}` : 'New note'}</h2>
        <label className="note-dialog-field">
          <span className="muted">{isRename ? 'New name (a folder before "/" moves it), under memory/' : 'Name (a folder before "/" puts it there), under memory/'}</span>
          <input
            ref={inputRef}
            data-testid="note-name"
            value={name}
            onChange={(e) => setName(e.target.value)}
            onKeyDown={(e) => e.key === 'Escape' && notes.closeDialog()}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? 'note-dialog-error' : undefined}
          />
        </label>
        {error && (
          <p className="field-error" id="note-dialog-error" role="alert" data-testid="note-dialog-error">
            {error}
          </p>
        )}
        <div className="note-dialog-actions">
          <button type="button" className="button" onClick={notes.closeDialog}>
            Cancel
          </button>
          <button type="submit" className="button button-primary" data-testid="note-dialog-submit" disabled={isBusy || name.trim() === ''}>
            {isRename ? 'Rename' : 'Create'}
          </button>
        </div>
      </form>
    </div>
  );
}
