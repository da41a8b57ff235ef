import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_SETTINGS,
  SettingsPatch,
  type OperationInput,
  type Settings,
  type StatusOutput,
} from '../../core/src/contract/index.js';
import { MemoryClientError } from '../src/client/clientError.js';
import { dreamingDraftFromSettings, dreamingFieldErrors, dreamingPatch } from '../src/store/settingsSlice.js';
import { createReverieStore, type ReverieStore } from '../src/store/store.js';
import { StoreContext } from '../src/store/useReverie.js';
import { SettingsView } from '../src/views/settings/SettingsView.js';
import { StatusView } from '../src/views/status/StatusView.js';
import { createFakeClient } from './fakeClient.js';
import { statusOutput } from './statusFixtures.js';

const SAVED: Settings = { ...DEFAULT_SETTINGS, workspace: '/home/ada/reverie' };

/** The engine's message format (`settings.set: field "patch.dreaming.minScore": …`), from the contract's own schema. */
function validate(patch: unknown): void {
  const parsed = SettingsPatch.safeParse(patch);
  if (parsed.success) return;
  const message = parsed.error.issues
    .slice(0, 3)
    .map((issue) => `settings.set: field "${['patch', ...issue.path].join('.')}": ${issue.message}`)
    .join('; ');
  throw new MemoryClientError('invalid-input', message);
}

/** A fake engine keeping settings in memory, validating and merging `dreaming` key by key like the real one. */
function settingsEngine(initial: Settings = SAVED) {
  let current: Settings = structuredClone(initial);
  const patches: Array<OperationInput<'settings.set'>['patch']> = [];
  const client = createFakeClient({
    'settings.get': async () => structuredClone(current),
    'settings.set': async ({ patch }) => {
      patches.push(patch);
      validate(patch);
      current = { ...current, ...patch, sessions: current.sessions, dreaming: { ...current.dreaming, ...patch.dreaming }, graph: { ...current.graph, ...patch.graph } };
      return structuredClone(current);
    },
    'models.list': async () => ({ models: [], active: { embedding: null, chat: null }, defaultEmbeddingUri: 'hf:x/y.gguf' }),
    status: async () => STATUS,
  });
  const store = createReverieStore(client, { confirm: () => true });
  return { store, patches, settings: () => store.getState().settings, current: () => current };
}

const STATUS: StatusOutput = statusOutput({ files: 1, chunks: 5, indexed: 1 }, { embedded: 5, total: 5 });

const render = (store: ReverieStore, view: () => ReturnType<typeof createElement>): string =>
  renderToStaticMarkup(createElement(StoreContext.Provider, { value: { ...store, getInitialState: store.getState } }, view()));

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('dreaming settings', () => {
  it('loads the dreaming settings into their own draft, numbers as text', async () => {
    const { settings } = settingsEngine();
    await settings().load();
    expect(settings().dreaming.state).toBe('ready');
    expect(settings().dreaming.draft).toEqual({
      scheduleEnabled: true,
      scheduleTime: '03:00',
      reviewBeforeWriting: false,
      minScore: String(DEFAULT_SETTINGS.dreaming.minScore),
      minRecallCount: '3',
      minUniqueQueries: '3',
      maxPromotions: String(DEFAULT_SETTINGS.dreaming.maxPromotions),
      modelTimeoutSeconds: '60',
      memoryBudgetChars: '10000',
    });
    expect(settings().isDreamingDirty()).toBe(false);
    expect(settings().hasDreamingEdits()).toBe(false);
  });

  it('saves only the changed dreaming keys as {patch: {dreaming: …}}', async () => {
    const { settings, patches, current } = settingsEngine();
    await settings().load();
    settings().setDreamingSchedule(true, '04:30');
    settings().setDreamingNumber('minRecallCount', '2');
    settings().setDreamingReview(true);
    expect(settings().dreamingPatch()).toEqual({ schedule: '04:30', minRecallCount: 2, reviewBeforeWriting: true });
    // The Search section has nothing to save.
    expect(settings().isDirty()).toBe(false);
    await settings().saveDreaming();
    expect(patches).toEqual([{ dreaming: { schedule: '04:30', minRecallCount: 2, reviewBeforeWriting: true } }]);
    expect(current().dreaming).toEqual({ ...DEFAULT_SETTINGS.dreaming, schedule: '04:30', minRecallCount: 2, reviewBeforeWriting: true });
    expect(settings().saved?.dreaming.schedule).toBe('04:30');
    expect(settings().isDreamingDirty()).toBe(false);
    expect(settings().dreaming.savedAt).not.toBeNull();
    // Nothing changed: save sends nothing.
    await settings().saveDreaming();
    expect(patches).toHaveLength(1);
  });

  it('turning the sweep off saves schedule: null, and back on restores the time', async () => {
    const { settings, patches } = settingsEngine();
    await settings().load();
    settings().setDreamingSchedule(false);
    expect(settings().dreaming.draft?.scheduleTime).toBe('03:00');
    await settings().saveDreaming();
    expect(patches).toEqual([{ dreaming: { schedule: null } }]);
    expect(settings().dreaming.draft?.scheduleEnabled).toBe(false);
    settings().setDreamingSchedule(true);
    expect(settings().dreamingPatch()).toEqual({ schedule: '03:00' });
  });

  it('shows the engine\'s validation errors on their fields and saves nothing', async () => {
    const { store, settings, current } = settingsEngine();
    await settings().load();
    settings().setDreamingNumber('minScore', '2');
    settings().setDreamingNumber('minRecallCount', '');
    await settings().saveDreaming();
    expect(settings().dreaming.saveError).toMatch(/patch\.dreaming\.minScore/);
    expect(Object.keys(settings().dreaming.fieldErrors).sort()).toEqual(['minRecallCount', 'minScore']);
    expect(settings().dreaming.fieldErrors.minScore).toMatch(/<=1/);
    expect(current().dreaming).toEqual(DEFAULT_SETTINGS.dreaming);
    expect(settings().dreaming.draft?.minScore).toBe('2');

    const html = render(store, () => createElement(SettingsView));
    expect(html).toMatch(/data-testid="dreaming-minScore"[^>]*aria-invalid="true"/);
    expect(html).toMatch(/data-testid="dreaming-field-error-minScore" role="alert">Too big[^<]*&lt;=1/);
    expect(html).toContain('fix the fields marked above');

    // Typing in the field clears its message; a valid value then saves.
    settings().setDreamingNumber('minScore', '0.5');
    settings().setDreamingNumber('minRecallCount', '4');
    expect(settings().dreaming.fieldErrors).toEqual({});
    await settings().saveDreaming();
    expect(current().dreaming).toEqual({ ...DEFAULT_SETTINGS.dreaming, minScore: 0.5, minRecallCount: 4 });
    expect(settings().dreaming.saveError).toBeNull();
  });

  it('revert throws the dreaming edits away and leaves the Search draft alone', async () => {
    const { settings } = settingsEngine();
    await settings().load();
    settings().setFusion('rrf');
    settings().setDreamingNumber('maxPromotions', '3');
    expect(settings().hasDreamingEdits()).toBe(true);
    settings().revertDreaming();
    expect(settings().dreaming.draft?.maxPromotions).toBe(String(DEFAULT_SETTINGS.dreaming.maxPromotions));
    expect(settings().hasDreamingEdits()).toBe(false);
    expect(settings().draft?.fusion).toBe('rrf');
    // A reload keeps unsaved dreaming edits, and saving Search keeps them too.
    settings().setDreamingNumber('maxPromotions', '3');
    await settings().load();
    expect(settings().dreaming.draft?.maxPromotions).toBe('3');
    await settings().save();
    expect(settings().saved?.fusion).toBe('rrf');
    expect(settings().dreaming.draft?.maxPromotions).toBe('3');
    expect(settings().isDreamingDirty()).toBe(true);
    // …and saving Dreaming keeps an unsaved Search edit.
    settings().setFusion('weighted');
    await settings().saveDreaming();
    expect(settings().draft?.fusion).toBe('weighted');
    expect(settings().isDirty()).toBe(true);
  });

  it('fails on its own: a failed load shows in the section while Models still loads', async () => {
    const client = createFakeClient({
      'settings.get': async () => {
        throw new MemoryClientError('network', 'Cannot reach Reverie.');
      },
      'models.list': async () => ({ models: [], active: { embedding: null, chat: null }, defaultEmbeddingUri: 'hf:x/y.gguf' }),
      status: async () => STATUS,
    });
    const store = createReverieStore(client, { confirm: () => true });
    store.getState().app.setView('settings');
    await tick();
    expect(store.getState().settings.dreaming.state).toBe('error');
    const html = render(store, () => createElement(SettingsView));
    expect(html).toContain('data-testid="dreaming-load-error"');
    expect(html).toContain('Could not load the dreaming settings: Cannot reach Reverie.');
    expect(html).toContain('data-testid="models-empty"');
  });

  it('an engine without dreaming settings fails only the Dreaming section', async () => {
    const { dreaming: _dreaming, ...withoutDreaming } = SAVED;
    const { store, settings } = settingsEngine(withoutDreaming as Settings);
    store.getState().app.setView('settings');
    await tick();
    expect(settings().state).toBe('ready');
    expect(settings().dreaming.state).toBe('error');
    const html = render(store, () => createElement(SettingsView));
    expect(html).toContain('data-testid="settings-form"');
    expect(html).toContain('data-testid="dreaming-load-error"');
  });

  it('renders the section with its anchor, help lines and a disabled save', async () => {
    const { store } = settingsEngine({ ...SAVED, dreaming: { ...SAVED.dreaming, schedule: null } });
    store.getState().app.setView('settings');
    await tick();
    const html = render(store, () => createElement(SettingsView));
    expect(html).toContain('id="settings-dreaming"');
    expect(html).toContain('An entry must be recalled at least this many times before it can be promoted.');
    expect(html).toMatch(/data-testid="dreaming-schedule-time"[^>]*disabled=""/);
    expect(html).toMatch(/data-testid="dreaming-save" disabled=""/);
  });
});

describe('dreaming helpers', () => {
  it('builds a patch of the changed keys, unparsable numbers as NaN for the engine to refuse', () => {
    const saved = SAVED.dreaming;
    const draft = dreamingDraftFromSettings(saved);
    expect(dreamingPatch(saved, draft)).toEqual({});
    expect(dreamingPatch(saved, { ...draft, minScore: ' 0.8 ' })).toEqual({ minScore: 0.8 });
    expect(dreamingPatch(saved, { ...draft, memoryBudgetChars: '' }).memoryBudgetChars).toBeNaN();
    expect(dreamingPatch(saved, { ...draft, scheduleEnabled: false })).toEqual({ schedule: null });
    expect(dreamingPatch(saved, { ...draft, scheduleTime: '' })).toEqual({ schedule: '' });
  });

  it('maps the engine\'s dreaming field paths to the section\'s fields', () => {
    expect(
      dreamingFieldErrors(
        'settings.set: field "patch.dreaming.minScore": Too big: expected number to be <=1; settings.set: field "patch.dreaming.schedule": schedule must be HH:MM (24-hour, local time) or null',
      ),
    ).toEqual({ minScore: 'Too big: expected number to be <=1', schedule: 'schedule must be HH:MM (24-hour, local time) or null' });
  });
});

describe('status dreaming card', () => {
  it('shows signals, staged candidates, the last run and the next sweep', async () => {
    const client = createFakeClient({
      status: async () => ({
        ...STATUS,
        dreaming: {
          recallSignals: 1234,
          stagedCandidates: 7,
          lastRun: { id: 'dream:abc', status: 'failed', startedAt: '2026-03-01T03:00:00.000Z', reason: 'the chat model timed out' },
          schedule: '03:00',
          nextRunAt: '2026-03-02T03:00:00.000Z',
        },
      }),
    });
    const store = createReverieStore(client, { confirm: () => true });
    store.getState().app.setView('status');
    await tick();
    const html = render(store, () => createElement(StatusView));
    expect(html).toContain('data-testid="status-dreaming"');
    expect(html).toContain('data-testid="dreaming-recall-signals">1,234<');
    expect(html).toContain('data-testid="dreaming-staged">7<');
    // The run is named by when it started, never by its id (issue 22: no internal ids on screen).
    expect(html).not.toContain('dream:abc');
    expect(html).toContain('data-testid="dreaming-last-run-open"');
    expect(html).toMatch(/class="badge badge-failed" data-testid="dreaming-last-run-status" data-status="failed">failed</);
    expect(html).toContain('the chat model timed out');
    expect(html).toMatch(/data-testid="dreaming-next-run">daily at 03:00 · next /);
  });

  it('says "no schedule" and "no run yet" when there are none', async () => {
    const store = createReverieStore(createFakeClient({ status: async () => STATUS }), { confirm: () => true });
    store.getState().app.setView('status');
    await tick();
    const html = render(store, () => createElement(StatusView));
    expect(html).toContain('data-testid="dreaming-last-run">no run yet<');
    expect(html).toContain('data-testid="dreaming-next-run">no schedule<');
  });
});
