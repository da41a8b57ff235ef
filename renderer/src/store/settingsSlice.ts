import type { DreamSettings, Settings, SettingsPatch } from '../../../core/src/contract/index.js';
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

/** What the Dreaming section edits. Numbers and the time stay text while typing; the engine validates on save. */
export interface DreamingDraft {
  /** The daily sweep is on (off saves `schedule: null`). */
  scheduleEnabled: boolean;
  /** `HH:MM`, local time; kept while the sweep is off so turning it back on restores it. */
  scheduleTime: string;
  reviewBeforeWriting: boolean;
  minScore: string;
  minRecallCount: string;
  minUniqueQueries: string;
  maxPromotions: string;
  modelTimeoutSeconds: string;
  memoryBudgetChars: string;
}

/** The numeric dreaming settings, edited as text. */
export const DREAMING_NUMBER_FIELDS = [
  'minScore',
  'minRecallCount',
  'minUniqueQueries',
  'maxPromotions',
  'modelTimeoutSeconds',
  'memoryBudgetChars',
] as const;
export type DreamingNumberField = (typeof DREAMING_NUMBER_FIELDS)[number];

/** The Dreaming section's own state: it loads, saves and fails apart from the Search section. */
export interface DreamingSection {
  state: 'idle' | 'loading' | 'ready' | 'error';
  loadError: string | null;
  draft: DreamingDraft | null;
  isSaving: boolean;
  saveError: string | null;
  /** Per-field messages from the engine, keyed by the dreaming key (`minScore`, `schedule`, …). */
  fieldErrors: Record<string, string>;
  savedAt: string | null;
}

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

  /** The Graph section: the chat-model extraction switch, saved as soon as it is flipped. */
  graphSaving: boolean;
  graphError: string | null;
  setGraphModelExtraction(modelExtraction: boolean): Promise<void>;

  /** The Dreaming section (its saved values are `saved.dreaming`). */
  dreaming: DreamingSection;
  setDreamingSchedule(enabled: boolean, time?: string): void;
  setDreamingReview(reviewBeforeWriting: boolean): void;
  setDreamingNumber(field: DreamingNumberField, value: string): void;
  revertDreaming(): void;
  saveDreaming(): Promise<void>;
  /** The dreaming keys that differ from the saved ones (sent as `{patch: {dreaming: …}}`). */
  dreamingPatch(): Partial<DreamSettings>;
  isDreamingDirty(): boolean;
  hasDreamingEdits(): boolean;
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

/** The schedule time shown when the sweep is off (turning it on proposes the default time). */
const DEFAULT_SCHEDULE_TIME = '03:00';

export function dreamingDraftFromSettings(dreaming: DreamSettings): DreamingDraft {
  return {
    scheduleEnabled: dreaming.schedule !== null,
    scheduleTime: dreaming.schedule ?? DEFAULT_SCHEDULE_TIME,
    reviewBeforeWriting: dreaming.reviewBeforeWriting,
    minScore: String(dreaming.minScore),
    minRecallCount: String(dreaming.minRecallCount),
    minUniqueQueries: String(dreaming.minUniqueQueries),
    maxPromotions: String(dreaming.maxPromotions),
    modelTimeoutSeconds: String(dreaming.modelTimeoutSeconds),
    memoryBudgetChars: String(dreaming.memoryBudgetChars),
  };
}

/**
 * The dreaming keys that changed. Numbers are sent as typed (blank or unparsable as NaN, which
 * travels as null) so the engine's validation speaks for itself; an enabled sweep with a blank
 * time sends '' for the same reason.
 */
export function dreamingPatch(saved: DreamSettings, draft: DreamingDraft): Partial<DreamSettings> {
  const patch: Partial<DreamSettings> = {};
  const schedule = draft.scheduleEnabled ? draft.scheduleTime.trim() : null;
  if (schedule !== saved.schedule) patch.schedule = schedule;
  if (draft.reviewBeforeWriting !== saved.reviewBeforeWriting) patch.reviewBeforeWriting = draft.reviewBeforeWriting;
  for (const field of DREAMING_NUMBER_FIELDS) {
    const text = draft[field].trim();
    const value = text === '' ? Number.NaN : Number(text);
    if (value !== saved[field]) patch[field] = value;
  }
  return patch;
}

/** True when `saved` carries a dreaming section this form can edit (an older engine may not). */
const hasDreaming = (saved: Settings | null): saved is Settings & { dreaming: DreamSettings } =>
  saved !== null && typeof saved.dreaming === 'object' && saved.dreaming !== null;

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

  function setDreamingSection(changes: Partial<DreamingSection>): void {
    set((settings) => ({ dreaming: { ...settings.dreaming, ...changes } }));
  }

  function editDreaming(changes: Partial<DreamingDraft>, clearField: string): void {
    const { draft, fieldErrors } = slice().dreaming;
    if (!draft) return;
    const { [clearField]: _cleared, ...rest } = fieldErrors;
    setDreamingSection({ draft: { ...draft, ...changes }, fieldErrors: rest, savedAt: null });
  }

  /** The dreaming draft after `saved` changed: unsaved dreaming edits survive. */
  function dreamingAfter(saved: Settings): Partial<DreamingSection> {
    if (!hasDreaming(saved)) {
      return { state: 'error', loadError: 'This engine does not report dreaming settings.', draft: null };
    }
    const { draft } = slice().dreaming;
    const keep = draft !== null && slice().isDreamingDirty();
    return { state: 'ready', loadError: null, draft: keep ? draft : dreamingDraftFromSettings(saved.dreaming) };
  }

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
    dreaming: { state: 'idle', loadError: null, draft: null, isSaving: false, saveError: null, fieldErrors: {}, savedAt: null },
    graphSaving: false,
    graphError: null,

    async setGraphModelExtraction(modelExtraction) {
      const { saved, graphSaving } = slice();
      if (!saved || graphSaving) return;
      set({ graphSaving: true, graphError: null });
      try {
        const next = await client.call('settings.set', { patch: { graph: { modelExtraction } } });
        set({ saved: next, graphSaving: false });
        // The next graph update adds the model's items (or removes them): start it now rather than at the next edit.
        void client.call('index.sync', {}).catch(() => undefined);
      } catch (error) {
        set({ graphSaving: false, graphError: errorMessage(error) });
      }
    },

    async load() {
      const request = ++latestLoad;
      if (!slice().saved) set({ state: 'loading' });
      if (!slice().dreaming.draft) setDreamingSection({ state: 'loading' });
      try {
        const saved = await client.call('settings.get', {});
        if (request !== latestLoad) return;
        // Unsaved edits survive a reload (switching views and back must not lose them).
        const keepDraft = slice().isDirty();
        const dreaming = dreamingAfter(saved);
        set({ saved, draft: keepDraft ? slice().draft : draftFromSettings(saved), state: 'ready', loadError: null });
        setDreamingSection(dreaming);
      } catch (error) {
        if (request !== latestLoad) return;
        const message = errorMessage(error);
        set({ state: 'error', loadError: message });
        setDreamingSection({ state: 'error', loadError: message });
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
        const dreaming = dreamingAfter(next);
        set({ saved: next, draft: draftFromSettings(next), isSaving: false, savedAt: new Date().toLocaleTimeString() });
        setDreamingSection(dreaming);
        // Results already on screen were ranked with the old fusion mode.
        if (patch.fusion !== undefined) get().search.rerun();
      } catch (error) {
        const message = errorMessage(error);
        set({ isSaving: false, saveError: message, fieldErrors: fieldErrorsFromMessage(message) });
      }
    },

    setDreamingSchedule(enabled, time) {
      const { draft } = slice().dreaming;
      if (!draft) return;
      editDreaming({ scheduleEnabled: enabled, scheduleTime: time ?? draft.scheduleTime }, 'schedule');
    },

    setDreamingReview(reviewBeforeWriting) {
      editDreaming({ reviewBeforeWriting }, 'reviewBeforeWriting');
    },

    setDreamingNumber(field, value) {
      editDreaming({ [field]: value }, field);
    },

    revertDreaming() {
      const { saved } = slice();
      if (!hasDreaming(saved)) return;
      setDreamingSection({ draft: dreamingDraftFromSettings(saved.dreaming), saveError: null, fieldErrors: {}, savedAt: null });
    },

    dreamingPatch() {
      const { saved } = slice();
      const { draft } = slice().dreaming;
      return hasDreaming(saved) && draft ? dreamingPatch(saved.dreaming, draft) : {};
    },

    isDreamingDirty() {
      return Object.keys(slice().dreamingPatch()).length > 0;
    },

    hasDreamingEdits() {
      const { saved } = slice();
      const { draft, fieldErrors } = slice().dreaming;
      if (!hasDreaming(saved) || !draft) return false;
      const clean = dreamingDraftFromSettings(saved.dreaming);
      return Object.keys(fieldErrors).length > 0 || (Object.keys(clean) as Array<keyof DreamingDraft>).some((key) => draft[key] !== clean[key]);
    },

    async saveDreaming() {
      const { saved, dreaming } = slice();
      if (dreaming.isSaving || !hasDreaming(saved)) return;
      const changes = slice().dreamingPatch();
      if (Object.keys(changes).length === 0) return;
      setDreamingSection({ isSaving: true, saveError: null, fieldErrors: {}, savedAt: null });
      try {
        const patch: SettingsPatch = { dreaming: changes };
        const next = await client.call('settings.set', { patch });
        // Only the dreaming keys were sent: the Search section's draft (and its edits) stays as it is.
        set({ saved: next });
        const after = hasDreaming(next)
          ? { draft: dreamingDraftFromSettings(next.dreaming), state: 'ready' as const, loadError: null }
          : dreamingAfter(next);
        setDreamingSection({ ...after, isSaving: false, savedAt: new Date().toLocaleTimeString() });
      } catch (error) {
        const message = errorMessage(error);
        setDreamingSection({ isSaving: false, saveError: message, fieldErrors: dreamingFieldErrors(message) });
      }
    },
  };
}

/** The engine's field messages for a dreaming patch, keyed without the `dreaming.` prefix. */
export function dreamingFieldErrors(message: string): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const [field, text] of Object.entries(fieldErrorsFromMessage(message))) {
    const key = field.startsWith('dreaming.') ? field.slice('dreaming.'.length) : field;
    if (!(key in errors)) errors[key] = text;
  }
  return errors;
}
