import type { Settings } from '../../../core/src/api/contract.js';
import { errorMessage } from '../client/memoryClient.js';
import type { SliceContext } from './types.js';

export type FusionMode = Settings['fusion'];

/** What the Settings form edits. Numbers stay text while typing; the engine validates on save. */
export interface SettingsDraft {
  fusion: FusionMode;
  maxFileSizeMB: string;
  watch: boolean;
  extraPaths: string[];
}

/** The fields the Settings view edits (the workspace is chosen elsewhere). */
export type EditableSetting = keyof SettingsDraft;

export interface SettingsSlice {
  /** Settings as the engine last reported them. */
  saved: Settings | null;
  draft: SettingsDraft | null;
  state: 'idle' | 'loading' | 'ready' | 'error';
  loadError: string | null;
  isSaving: boolean;
  /** The engine's message when a save was refused. */
  saveError: string | null;
  /** Per-field messages from the engine's validation, keyed `maxFileSizeMB`, `extraPaths.2`, … */
  fieldErrors: Record<string, string>;
  /** Local time of the last successful save, for a short "Saved" note. */
  savedAt: string | null;

  load(): Promise<void>;
  setFusion(fusion: FusionMode): void;
  setMaxFileSizeMB(value: string): void;
  setWatch(watch: boolean): void;
  setExtraPath(index: number, value: string): void;
  addExtraPath(): void;
  removeExtraPath(index: number): void;
  /** Throws the edits away and shows the saved settings again. */
  revert(): void;
  save(): Promise<void>;
  /** The settings that differ from the saved ones, as a `settings.set` patch. */
  patch(): Partial<Settings>;
  isDirty(): boolean;
  /** True when the form differs from the saved settings at all (even by a blank row): Revert has something to do. */
  hasEdits(): boolean;
}

export function draftFromSettings(settings: Settings): SettingsDraft {
  return {
    fusion: settings.fusion,
    maxFileSizeMB: String(settings.maxFileSizeMB),
    watch: settings.watch,
    extraPaths: [...settings.extraPaths],
  };
}

/**
 * The `settings.set` patch for a draft: only fields that changed. Blank extra-path rows are
 * dropped; the size is sent as typed (as a number) so the engine's validation speaks for itself.
 */
export function settingsPatch(saved: Settings, draft: SettingsDraft): Partial<Settings> {
  const patch: Partial<Settings> = {};
  if (draft.fusion !== saved.fusion) patch.fusion = draft.fusion;
  const text = draft.maxFileSizeMB.trim();
  const size = text === '' ? Number.NaN : Number(text);
  if (size !== saved.maxFileSizeMB) patch.maxFileSizeMB = size;
  if (draft.watch !== saved.watch) patch.watch = draft.watch;
  const extraPaths = draft.extraPaths.map((p) => p.trim()).filter((p) => p !== '');
  if (extraPaths.length !== saved.extraPaths.length || extraPaths.some((p, i) => p !== saved.extraPaths[i])) {
    patch.extraPaths = extraPaths;
  }
  return patch;
}

const FIELD_ISSUE = /field "(?:patch\.)?([\w.]+)": ([^;]+)/g;

/**
 * Splits the engine's validation message (`settings.set: field "patch.maxFileSizeMB": Too big…;
 * …`) into per-field messages. A message without field issues gives an empty record.
 */
export function fieldErrorsFromMessage(message: string): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const match of message.matchAll(FIELD_ISSUE)) {
    const [, field, text] = match;
    if (field && text && !(field in errors)) errors[field] = text.trim();
  }
  return errors;
}

export function createSettingsSlice({ set, get, client }: SliceContext<'settings'>): SettingsSlice {
  const slice = () => get().settings;
  let latestLoad = 0;

  function edit(changes: Partial<SettingsDraft>, clearField: string): void {
    const { draft, fieldErrors } = slice();
    if (!draft) return;
    const { [clearField]: _cleared, ...rest } = fieldErrors;
    set({ draft: { ...draft, ...changes }, fieldErrors: rest, savedAt: null });
  }

  return {
    saved: null,
    draft: null,
    state: 'idle',
    loadError: null,
    isSaving: false,
    saveError: null,
    fieldErrors: {},
    savedAt: null,

    async load() {
      const request = ++latestLoad;
      if (!slice().saved) set({ state: 'loading' });
      try {
        const saved = await client.call('settings.get', {});
        if (request !== latestLoad) return;
        // Unsaved edits survive a reload (switching views and back must not lose them).
        const keepDraft = slice().isDirty();
        set({ saved, draft: keepDraft ? slice().draft : draftFromSettings(saved), state: 'ready', loadError: null });
      } catch (error) {
        if (request !== latestLoad) return;
        set({ state: 'error', loadError: errorMessage(error) });
      }
    },

    setFusion(fusion) {
      edit({ fusion }, 'fusion');
    },

    setMaxFileSizeMB(maxFileSizeMB) {
      edit({ maxFileSizeMB }, 'maxFileSizeMB');
    },

    setWatch(watch) {
      edit({ watch }, 'watch');
    },

    setExtraPath(index, value) {
      const { draft } = slice();
      if (!draft || index < 0 || index >= draft.extraPaths.length) return;
      edit({ extraPaths: draft.extraPaths.map((p, i) => (i === index ? value : p)) }, `extraPaths.${index}`);
    },

    addExtraPath() {
      const { draft } = slice();
      if (!draft) return;
      edit({ extraPaths: [...draft.extraPaths, ''] }, 'extraPaths');
    },

    removeExtraPath(index) {
      const { draft, fieldErrors } = slice();
      if (!draft) return;
      // Row numbers shift, so per-row messages no longer point at the right rows.
      const kept = Object.fromEntries(Object.entries(fieldErrors).filter(([field]) => !field.startsWith('extraPaths')));
      set({ draft: { ...draft, extraPaths: draft.extraPaths.filter((_, i) => i !== index) }, fieldErrors: kept, savedAt: null });
    },

    revert() {
      const { saved } = slice();
      if (!saved) return;
      set({ draft: draftFromSettings(saved), saveError: null, fieldErrors: {}, savedAt: null });
    },

    patch() {
      const { saved, draft } = slice();
      return saved && draft ? settingsPatch(saved, draft) : {};
    },

    isDirty() {
      return Object.keys(slice().patch()).length > 0;
    },

    hasEdits() {
      const { saved, draft, fieldErrors } = slice();
      if (!saved || !draft) return false;
      const clean = draftFromSettings(saved);
      return (
        Object.keys(fieldErrors).length > 0 ||
        draft.fusion !== clean.fusion ||
        draft.maxFileSizeMB !== clean.maxFileSizeMB ||
        draft.watch !== clean.watch ||
        draft.extraPaths.length !== clean.extraPaths.length ||
        draft.extraPaths.some((p, i) => p !== clean.extraPaths[i])
      );
    },

    async save() {
      const { isSaving, saved } = slice();
      if (isSaving || !saved) return;
      const patch = slice().patch();
      if (Object.keys(patch).length === 0) return;
      set({ isSaving: true, saveError: null, fieldErrors: {}, savedAt: null });
      try {
        const next = await client.call('settings.set', { patch });
        set({ saved: next, draft: draftFromSettings(next), isSaving: false, savedAt: new Date().toLocaleTimeString() });
        // Results already on screen were ranked with the old fusion mode.
        if (patch.fusion !== undefined) get().search.rerun();
      } catch (error) {
        const message = errorMessage(error);
        set({ isSaving: false, saveError: message, fieldErrors: fieldErrorsFromMessage(message) });
      }
    },
  };
}
