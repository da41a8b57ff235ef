import type { Backlink, FileCoverage } from '../../../core/src/contract/index.js';
import { inLineEndingsOf } from './lineEndings.js';
import { MemoryClientError, errorMessage } from '../client/memoryClient.js';
import type { DraftSnapshot, DraftSource } from './draftSource.js';
import type { SliceContext } from './types.js';

export interface LineRange {
  startLine: number;
  endLine: number;
}

/** How a file is shown when not being edited: rendered Markdown or raw text with line numbers. */
export type ReadMode = 'rendered' | 'source';

/**
 * Notes larger than this open read-only (a notice says why): reading them into an editor, saving
 * and the conflict diff would make the window sluggish; another editor can handle them.
 */
export const LARGE_NOTE_BYTES = 5 * 1024 * 1024;

export interface OpenDocument {
  path: string;
  text: string;
  /** Hash of `text` as read from disk: the save precondition (`expectedSha256`). */
  sha256: string;
  size: number;
  mtimeMs: number;
}

export interface MemorySlice {
  files: FileCoverage[];
  filesState: 'idle' | 'loading' | 'ready' | 'error';
  filesError: string | null;
  collapsedFolders: string[];

  openPath: string | null;
  doc: OpenDocument | null;
  docState: 'idle' | 'loading' | 'ready' | 'error';
  docError: string | null;
  readMode: ReadMode;
  isEditing: boolean;
  /** Lines to highlight (from a search hit); `highlightRequest` changes each time so the view scrolls again. */
  highlight: LineRange | null;
  highlightRequest: number;
  /** The search that led here: its words are marked inside the highlighted lines. */
  highlightQuery: string | null;

  /** Whether the editor's text differs from the saved text (the text itself stays in the editor). */
  hasUnsavedEdits: boolean;
  /** Changes with every edit, for views that show something derived from the text (the conflict diff). */
  draftRevision: number;
  isSaving: boolean;
  saveError: string | null;
  /** The engine's conflict message when a save was refused because the file changed on disk. */
  conflict: string | null;
  /** What is on disk now, read when a save was refused (null: deleted or unreadable), for the diff. */
  conflictDisk: string | null;
  savedAt: string | null;
  /** The file changed on disk while the editor was open (the save will be refused). */
  hasDiskChanged: boolean;

  /** Lines of other notes that `[[link]]` to the open one ("Linked from"). */
  backlinks: Backlink[];
  backlinksFor: string | null;
  /** A sentence about a link that cannot be followed (it points outside the workspace). */
  linkRefusal: string | null;

  loadFiles(): Promise<void>;
  loadBacklinks(): Promise<void>;
  refuseLink(sentence: string | null): void;
  toggleFolder(folder: string): void;
  /** Opens a file (asking first if that would drop unsaved edits). Returns whether it opened. */
  openFile(path: string, options?: { highlight?: LineRange; query?: string }): Promise<boolean>;
  /** Shows no file (after the open one was renamed or deleted). */
  closeFile(): void;
  setReadMode(mode: ReadMode): void;
  clearHighlight(): void;
  startEditing(): void;
  /** The editor being edited in, once it exists (its text survives the view being unmounted). */
  attachDraft(source: DraftSource): void;
  /** The draft attached for the open note, if any: an editor coming back picks up its state. */
  currentDraft(): DraftSource | null;
  /** The text being edited (the saved text until the editor has one). Reads the editor: call it when needed, not per render. */
  draftText(): string;
  /** The editor's text changed. */
  onDraftEdited(): void;
  save(): Promise<void>;
  cancelEditing(): void;
  /** Conflict panel: drop the edit (after asking) and show the file as it is on disk. */
  reloadFromDisk(): Promise<void>;
  /** Conflict panel: hide the panel, keep the text in the editor. */
  keepEditing(): void;
  isDirty(): boolean;
  confirmDiscardEdits(): boolean;
  onIndexReady(): Promise<void>;
}

export function createMemorySlice({ set, get, client, confirm }: SliceContext<'memory'>): MemorySlice {
  let latestRead = 0;
  let latestList = 0;
  let latestBacklinks = 0;
  // Not state: the store must not copy the text on every keystroke (see DraftSource).
  let draft: DraftSource | null = null;

  const slice = (): MemorySlice => get().memory;

  /** The draft for the open note, or null (not editing, or the editor has not started yet). */
  function openDraft(): DraftSource | null {
    const { isEditing, doc } = slice();
    return isEditing && draft !== null && draft.path === doc?.path ? draft : null;
  }

  function draftSnapshot(): DraftSnapshot {
    return openDraft()?.snapshot() ?? { text: slice().doc?.text ?? '', markSaved: () => undefined };
  }

  async function readInto(path: string): Promise<void> {
    const request = ++latestRead;
    set({ docState: 'loading', docError: null });
    try {
      const file = await client.call('files.read', { path });
      if (request !== latestRead) return;
      set({ doc: file, docState: 'ready', hasDiskChanged: false });
    } catch (error) {
      if (request !== latestRead) return;
      set({ doc: null, docState: 'error', docError: errorMessage(error) });
    }
  }

  return {
    files: [],
    filesState: 'idle',
    filesError: null,
    collapsedFolders: [],
    openPath: null,
    doc: null,
    docState: 'idle',
    docError: null,
    readMode: 'rendered',
    isEditing: false,
    highlight: null,
    highlightRequest: 0,
    highlightQuery: null,
    hasUnsavedEdits: false,
    draftRevision: 0,
    isSaving: false,
    saveError: null,
    conflict: null,
    conflictDisk: null,
    savedAt: null,
    hasDiskChanged: false,
    backlinks: [],
    backlinksFor: null,
    linkRefusal: null,

    async loadBacklinks() {
      const path = slice().openPath;
      const request = ++latestBacklinks;
      if (!path) return set({ backlinks: [], backlinksFor: null });
      try {
        const { links } = await client.call('notes.backlinks', { path });
        if (request === latestBacklinks) set({ backlinks: links, backlinksFor: path });
      } catch (error) {
        // The list is a convenience beside the note: without it the note still opens and saves.
        console.warn('Reverie: could not list the notes linking here', error);
        if (request === latestBacklinks) set({ backlinks: [], backlinksFor: path });
      }
    },

    refuseLink(linkRefusal) {
      set({ linkRefusal });
    },

    async loadFiles() {
      const request = ++latestList;
      if (slice().filesState !== 'ready') set({ filesState: 'loading' });
      try {
        const { files } = await client.call('files.list', {});
        if (request !== latestList) return;
        set({ files, filesState: 'ready', filesError: null });
      } catch (error) {
        if (request !== latestList) return;
        set({ filesState: 'error', filesError: errorMessage(error) });
      }
    },

    toggleFolder(folder) {
      set((m) => ({
        collapsedFolders: m.collapsedFolders.includes(folder)
          ? m.collapsedFolders.filter((f) => f !== folder)
          : [...m.collapsedFolders, folder],
      }));
    },

    async openFile(path, options = {}) {
      if (!slice().confirmDiscardEdits()) return false;
      const highlight = options.highlight ?? null;
      draft = null;
      set((m) => ({
        openPath: path,
        doc: m.doc?.path === path ? m.doc : null,
        isEditing: false,
        hasUnsavedEdits: false,
        conflict: null,
        saveError: null,
        savedAt: null,
        highlight,
        highlightRequest: m.highlightRequest + 1,
        highlightQuery: highlight ? (options.query ?? null) : null,
        // A search hit is easiest to see in the raw text with line numbers.
        readMode: highlight ? 'source' : m.readMode,
        linkRefusal: null,
        ...(m.backlinksFor === path ? {} : { backlinks: [], backlinksFor: null }),
      }));
      void slice().loadBacklinks();
      await readInto(path);
      return true;
    },

    closeFile() {
      latestRead++;
      latestBacklinks++;
      draft = null;
      set({ openPath: null, doc: null, docState: 'idle', docError: null, isEditing: false, hasUnsavedEdits: false, conflict: null, saveError: null, savedAt: null, highlight: null, highlightQuery: null, backlinks: [], backlinksFor: null, linkRefusal: null });
    },

    setReadMode(readMode) {
      set((m) => ({ readMode, highlightRequest: m.highlightRequest + 1 }));
    },

    clearHighlight() {
      set({ highlight: null, highlightQuery: null });
    },

    startEditing() {
      const { doc } = slice();
      if (!doc || doc.size > LARGE_NOTE_BYTES) return;
      draft = null;
      set({ isEditing: true, hasUnsavedEdits: false, conflict: null, saveError: null, savedAt: null, hasDiskChanged: false });
    },

    attachDraft(source) {
      if (!slice().isEditing || source.path !== slice().doc?.path) return;
      draft = source;
      set({ hasUnsavedEdits: source.isDirty() });
    },

    currentDraft() {
      return openDraft();
    },

    draftText() {
      return draftSnapshot().text;
    },

    onDraftEdited() {
      const source = openDraft();
      if (!source) return;
      const hasUnsavedEdits = source.isDirty();
      set((m) => ({ draftRevision: m.draftRevision + 1, ...(m.hasUnsavedEdits === hasUnsavedEdits ? {} : { hasUnsavedEdits }) }));
    },

    async save() {
      const { doc, isSaving } = slice();
      if (!doc || isSaving) return;
      const source = openDraft();
      const snapshot = draftSnapshot();
      set({ isSaving: true, saveError: null, conflict: null });
      try {
        const text = inLineEndingsOf(doc.text, snapshot.text);
        const written = await client.call('files.write', { path: doc.path, text, expectedSha256: doc.sha256 });
        snapshot.markSaved();
        // Typed on while the file was written: keep editing, measured against what is now on disk.
        const stillTyping = source !== null && source === openDraft() && source.isDirty();
        if (!stillTyping && draft === source) draft = null;
        set({
          doc: { ...doc, text, sha256: written.sha256, size: written.size, mtimeMs: written.mtimeMs },
          isSaving: false,
          isEditing: stillTyping,
          hasUnsavedEdits: stillTyping,
          hasDiskChanged: false,
          savedAt: new Date().toLocaleTimeString(),
        });
        void slice().loadFiles();
      } catch (error) {
        // Never touch the draft here: the person's text stays in the editor whatever happened.
        if (error instanceof MemoryClientError && error.code === 'conflict') {
          set({ isSaving: false, conflict: error.message, conflictDisk: null });
          try {
            const onDisk = await client.call('files.read', { path: doc.path });
            if (slice().conflict === error.message) set({ conflictDisk: onDisk.text });
          } catch (readError) {
            // Deleted or unreadable now: the panel's message already says so; no diff to show.
            console.warn('Reverie: could not read the file for the conflict diff', readError);
          }
        } else {
          set({ isSaving: false, saveError: errorMessage(error) });
        }
      }
    },

    cancelEditing() {
      if (!slice().confirmDiscardEdits()) return;
      draft = null;
      set({ isEditing: false, hasUnsavedEdits: false, conflict: null, saveError: null });
    },

    async reloadFromDisk() {
      const { doc } = slice();
      if (!doc) return;
      if (!confirm('Discard your edit and load the version that is on disk now? Your unsaved text will be lost.')) return;
      draft = null;
      set({ isEditing: false, hasUnsavedEdits: false, conflict: null, saveError: null });
      await readInto(doc.path);
    },

    keepEditing() {
      set({ conflict: null });
    },

    isDirty() {
      const { isEditing, doc, hasUnsavedEdits } = slice();
      return isEditing && doc !== null && hasUnsavedEdits;
    },

    confirmDiscardEdits() {
      const m = slice();
      if (!m.isDirty()) return true;
      return confirm(`You have unsaved changes to ${m.doc?.path ?? 'this file'}. Discard them?`);
    },

    async onIndexReady() {
      void slice().loadFiles();
      // Another note may have gained or lost a link here.
      if (slice().openPath) void slice().loadBacklinks();
      const { doc, isSaving } = slice();
      if (!doc || isSaving) return;
      let onDisk;
      try {
        onDisk = await client.call('files.read', { path: doc.path });
      } catch {
        return; // a deleted or unreadable file shows its error on the next explicit open
      }
      const now = slice();
      if (now.doc?.path !== doc.path || now.isSaving || onDisk.sha256 === now.doc.sha256) return;
      // While editing, only warn: the save precondition keeps the old hash, so nothing is overwritten.
      if (now.isEditing) set({ hasDiskChanged: true });
      else set({ doc: onDisk });
    },
  };
}
