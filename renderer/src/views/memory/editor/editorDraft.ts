import type { EditorState, Text } from '@codemirror/state';
import type { DraftSnapshot, DraftSource } from '../../../store/draftSource.js';
import type { MemorySlice } from '../../../store/memorySlice.js';

/**
 * A note being edited: CodeMirror's state (the text, the selection and the undo history) and the
 * version last loaded or saved. It outlives the editor view, so switching views keeps all of it.
 *
 * Dirtiness compares documents with `Text.eq`, which skips the subtrees an edit left shared with
 * the saved version: a keystroke on a 1 MB note compares a few lines, not the megabyte.
 */
export class EditorDraft implements DraftSource {
  private saved: Text;

  constructor(
    readonly path: string,
    private current: EditorState,
    /** Called after each change to the text (not after selection-only updates). */
    private readonly onDidEdit: () => void,
  ) {
    this.saved = current.doc;
  }

  get state(): EditorState {
    return this.current;
  }

  /** Takes the state after an update (the editor view dispatches through here). */
  accept(state: EditorState): void {
    const isTextChanged = state.doc !== this.current.doc;
    this.current = state;
    if (isTextChanged) this.onDidEdit();
  }

  snapshot(): DraftSnapshot {
    const doc = this.current.doc;
    return {
      text: doc.toString(),
      markSaved: () => {
        this.saved = doc;
      },
    };
  }

  isDirty(): boolean {
    return !this.current.doc.eq(this.saved);
  }
}

/**
 * The draft to edit `path` in: the one the slice already holds (coming back to a note still being
 * edited keeps its text, cursor and undo history), or a new one from the text being edited.
 */
export function resumeOrStartDraft(memory: MemorySlice, path: string, createState: (text: string) => EditorState, onDidEdit: () => void): EditorDraft {
  const existing = memory.currentDraft();
  if (existing instanceof EditorDraft && existing.path === path) return existing;
  const draft = new EditorDraft(path, createState(memory.draftText()), onDidEdit);
  memory.attachDraft(draft);
  return draft;
}
