/**
 * The text of the note being edited. It lives in the editor (CodeMirror's state) and is read only
 * when needed (saving, the conflict diff): copying a 1 MB note into the store on every keystroke
 * made typing lag. The store keeps only whether it differs from the saved text, and a revision.
 */
export interface DraftSource {
  /** The note this text belongs to. */
  readonly path: string;
  /** The text now, and a way to mark exactly that text as saved (the person may type on while it is written). */
  snapshot(): DraftSnapshot;
  /** Whether the text differs from what was last loaded or saved. */
  isDirty(): boolean;
}

export interface DraftSnapshot {
  readonly text: string;
  /** From now on, dirtiness is measured against this text. */
  markSaved(): void;
}
