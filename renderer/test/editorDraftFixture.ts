import { EditorState } from '@codemirror/state';
import type { ReverieStore } from '../src/store/store.js';
import { resumeOrStartDraft, type EditorDraft } from '../src/views/memory/editor/editorDraft.js';

/** The open note's editor draft, started as the Editor view starts it (CodeMirror's state, no view). */
export function editorDraftOf(store: ReverieStore): EditorDraft {
  const memory = store.getState().memory;
  const path = memory.doc?.path;
  if (!path || !memory.isEditing) throw new Error('editorDraftOf: open a note and start editing first.');
  return resumeOrStartDraft(memory, path, (text) => EditorState.create({ doc: text }), () => store.getState().memory.onDraftEdited());
}

/** Replaces the editor's text in one transaction, as a paste over select-all would. */
export function typeInEditor(store: ReverieStore, text: string): void {
  const draft = editorDraftOf(store);
  draft.accept(draft.state.update({ changes: { from: 0, to: draft.state.doc.length, insert: text } }).state);
}

/** Inserts `text` at `at` (the end when omitted), as typing there would. */
export function insertInEditor(store: ReverieStore, text: string, at?: number): void {
  const draft = editorDraftOf(store);
  const position = at ?? draft.state.doc.length;
  draft.accept(draft.state.update({ changes: { from: position, insert: text } }).state);
}
