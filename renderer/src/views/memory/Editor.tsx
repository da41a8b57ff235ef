import { useEffect, useRef, type KeyboardEvent } from 'react';
import { useReverie } from '../../store/useReverie.js';

export function Editor({ path }: { path: string }) {
  const draft = useReverie((s) => s.memory.draft);
  const setDraft = useReverie((s) => s.memory.setDraft);
  const save = useReverie((s) => s.memory.save);
  const textarea = useRef<HTMLTextAreaElement>(null);

  useEffect(() => textarea.current?.focus(), []);

  function onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>): void {
    if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 's') {
      event.preventDefault();
      void save();
    }
  }

  return (
    <div className="editor">
      <label htmlFor="editor-textarea" className="visually-hidden">
        Edit {path}
      </label>
      <textarea
        id="editor-textarea"
        ref={textarea}
        className="editor-textarea"
        data-testid="editor"
        spellCheck
        value={draft}
        onChange={(event) => setDraft(event.target.value)}
        onKeyDown={onKeyDown}
      />
    </div>
  );
}
