import type { TrashedNote } from '../../../core/src/contract/index.js';
import { errorMessage } from '../client/memoryClient.js';
import type { SliceContext } from './types.js';

/** How long "Deleted … Undo" stays on screen. */
export const UNDO_DELETE_MS = 8000;

/** The name dialog: a new note, or a new name (or folder) for an existing one. */
export type NoteDialog = { kind: 'new'; name: string } | { kind: 'rename'; path: string };

export interface NotesSlice {
  dialog: NoteDialog | null;
  /** The dialog's refusal, as the engine said it ("contains "/": …"). */
  dialogError: string | null;
  isBusy: boolean;
  /** The last deletion, offered for undo for a few seconds. */
  lastDeleted: TrashedNote | null;
  error: string | null;

  /** Opens the name dialog, with `name` filled in (a missing wiki-link's target). */
  requestNewNote(name?: string): void;
  requestRename(path: string): void;
  closeDialog(): void;
  /** Creates `name` (optionally `folder/name`) and opens it in the editor. Returns whether it was created. */
  createNote(nameWithFolder: string): Promise<boolean>;
  /** Opens today's daily note, creating it when missing. */
  openDailyNote(): Promise<void>;
  renameNote(path: string, to: string): Promise<boolean>;
  /** Moves a note to the trash (asking first when it has unsaved edits), then offers Undo. */
  deleteNote(path: string): Promise<void>;
  undoDelete(): Promise<void>;
  dismissUndo(): void;
}

export function createNotesSlice({ set, get, client, confirm }: SliceContext<'notes'>): NotesSlice {
  let undoTimer: ReturnType<typeof setTimeout> | null = null;
  const slice = (): NotesSlice => get().notes;

  async function openInEditor(path: string): Promise<void> {
    const state = get();
    await state.memory.loadFiles();
    state.app.setView('memory');
    if (await get().memory.openFile(path)) get().memory.startEditing();
  }

  return {
    dialog: null,
    dialogError: null,
    isBusy: false,
    lastDeleted: null,
    error: null,

    requestNewNote(name = '') {
      set({ dialog: { kind: 'new', name }, dialogError: null });
    },

    requestRename(path) {
      set({ dialog: { kind: 'rename', path }, dialogError: null });
    },

    closeDialog() {
      set({ dialog: null, dialogError: null });
    },

    async createNote(nameWithFolder) {
      const slash = nameWithFolder.lastIndexOf('/');
      const name = nameWithFolder.slice(slash + 1);
      const folder = slash < 0 ? undefined : nameWithFolder.slice(0, slash);
      set({ isBusy: true, dialogError: null });
      try {
        const note = await client.call('notes.create', { name, ...(folder ? { folder } : {}) });
        set({ isBusy: false, dialog: null });
        await openInEditor(note.path);
        return true;
      } catch (error) {
        set({ isBusy: false, dialogError: errorMessage(error) });
        return false;
      }
    },

    async openDailyNote() {
      set({ isBusy: true, error: null });
      try {
        const note = await client.call('notes.daily', {});
        set({ isBusy: false });
        await openInEditor(note.path);
      } catch (error) {
        set({ isBusy: false, error: errorMessage(error) });
      }
    },

    async renameNote(path, to) {
      const target = to.includes('/') ? to : `${path.slice(0, path.lastIndexOf('/') + 1)}${to}`;
      const memory = get().memory;
      if (memory.openPath === path && !memory.confirmDiscardEdits()) return false;
      set({ isBusy: true, dialogError: null });
      try {
        const renamed = await client.call('notes.rename', { path, to: target });
        set({ isBusy: false, dialog: null });
        await get().memory.loadFiles();
        if (get().memory.openPath === path) {
          get().memory.closeFile();
          await get().memory.openFile(renamed.path);
        }
        return true;
      } catch (error) {
        set({ isBusy: false, dialogError: errorMessage(error) });
        return false;
      }
    },

    async deleteNote(path) {
      const memory = get().memory;
      const isOpen = memory.openPath === path;
      if (isOpen && memory.isDirty()) {
        if (!confirm(`${path} has unsaved changes. Delete it anyway? The saved version goes to the trash; your unsaved text is lost.`)) return;
      }
      set({ isBusy: true, error: null });
      try {
        const expectedSha256 = isOpen && memory.doc?.path === path ? memory.doc.sha256 : null;
        const trashed = await client.call('notes.trash', { path, expectedSha256 });
        if (get().memory.openPath === path) get().memory.closeFile();
        set({ isBusy: false, lastDeleted: trashed });
        if (undoTimer) clearTimeout(undoTimer);
        undoTimer = setTimeout(() => slice().dismissUndo(), UNDO_DELETE_MS);
        await get().memory.loadFiles();
      } catch (error) {
        set({ isBusy: false, error: errorMessage(error) });
      }
    },

    async undoDelete() {
      const { lastDeleted } = slice();
      if (!lastDeleted) return;
      if (undoTimer) clearTimeout(undoTimer);
      set({ isBusy: true, error: null, lastDeleted: null });
      try {
        const restored = await client.call('notes.restore', { id: lastDeleted.id });
        set({ isBusy: false });
        await get().memory.loadFiles();
        get().app.setView('memory');
        await get().memory.openFile(restored.path);
      } catch (error) {
        set({ isBusy: false, error: errorMessage(error) });
      }
    },

    dismissUndo() {
      if (undoTimer) clearTimeout(undoTimer);
      undoTimer = null;
      set({ lastDeleted: null });
    },
  };
}
