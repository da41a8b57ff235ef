import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, type OperationInput, type Settings } from '../../core/src/contract/index.js';
import { MemoryClientError } from '../src/client/clientError.js';
import { fieldErrorsFromMessage, settingsPatch, draftFromSettings } from '../src/store/settingsSlice.js';
import { createReverieStore } from '../src/store/store.js';
import { createFakeClient } from './fakeClient.js';

const SAVED: Settings = { ...DEFAULT_SETTINGS, workspace: '/home/ada/reverie', extraPaths: ['/home/ada/notes'] };

/** A fake engine keeping settings in memory and validating like the real one for maxFileSizeMB. */
function settingsEngine(initial: Settings = SAVED) {
  let current = { ...initial };
  const patches: Array<OperationInput<'settings.set'>['patch']> = [];
  const client = createFakeClient({
    'settings.get': async () => ({ ...current }),
    'settings.set': async ({ patch }) => {
      patches.push(patch);
      const size = patch.maxFileSizeMB;
      if (size !== undefined && !(Number.isFinite(size) && size > 0 && size <= 1024)) {
        throw new MemoryClientError('invalid-input', 'settings.set: field "patch.maxFileSizeMB": Too big: expected number to be <=1024');
      }
      current = { ...current, ...patch, sessions: current.sessions, dreaming: { ...current.dreaming, ...patch.dreaming }, graph: { ...current.graph, ...patch.graph } };
      return { ...current };
    },
  });
  const store = createReverieStore(client, { confirm: () => true });
  return { store, patches, settings: () => store.getState().settings, current: () => current };
}

describe('settings slice', () => {
  it('loads the settings into an editable draft', async () => {
    const { settings } = settingsEngine();
    await settings().load();
    expect(settings().state).toBe('ready');
    expect(settings().draft).toEqual({ fusion: 'weighted', maxFileSizeMB: '16', watch: true, extraPaths: ['/home/ada/notes'] });
    expect(settings().isDirty()).toBe(false);
  });

  it('saves only what changed: switching fusion to RRF sends {patch: {fusion}}', async () => {
    const { settings, patches, current } = settingsEngine();
    await settings().load();
    settings().setFusion('rrf');
    expect(settings().isDirty()).toBe(true);
    await settings().save();
    expect(patches).toEqual([{ fusion: 'rrf' }]);
    expect(current().fusion).toBe('rrf');
    expect(settings().saved?.fusion).toBe('rrf');
    expect(settings().isDirty()).toBe(false);
    expect(settings().savedAt).not.toBeNull();
  });

  it('edits the extra paths list: add, change, remove; blank rows are dropped', async () => {
    const { settings, patches } = settingsEngine();
    await settings().load();
    settings().addExtraPath();
    settings().setExtraPath(1, '  journal/2026.md ');
    settings().addExtraPath(); // left blank
    expect(settings().draft?.extraPaths).toEqual(['/home/ada/notes', '  journal/2026.md ', '']);
    expect(settings().hasEdits()).toBe(true);
    settings().removeExtraPath(0);
    settings().setWatch(false);
    await settings().save();
    expect(patches).toEqual([{ watch: false, extraPaths: ['journal/2026.md'] }]);
    expect(settings().draft?.extraPaths).toEqual(['journal/2026.md']);
  });

  it('shows the engine\'s validation error on the field and keeps the edit', async () => {
    const { settings } = settingsEngine();
    await settings().load();
    settings().setMaxFileSizeMB('5000');
    await settings().save();
    expect(settings().saveError).toContain('Too big');
    expect(settings().fieldErrors).toEqual({ maxFileSizeMB: 'Too big: expected number to be <=1024' });
    expect(settings().draft?.maxFileSizeMB).toBe('5000');
    expect(settings().saved?.maxFileSizeMB).toBe(16);
    // Typing in the field clears its message; a valid value then saves.
    settings().setMaxFileSizeMB('32');
    expect(settings().fieldErrors).toEqual({});
    await settings().save();
    expect(settings().saved?.maxFileSizeMB).toBe(32);
    expect(settings().saveError).toBeNull();
  });

  it('revert throws the edits away; a reload keeps unsaved edits', async () => {
    const { settings } = settingsEngine();
    await settings().load();
    settings().addExtraPath();
    expect(settings().isDirty()).toBe(false); // a blank row changes nothing to save…
    expect(settings().hasEdits()).toBe(true); // …but there is something to revert
    settings().revert();
    expect(settings().hasEdits()).toBe(false);
    settings().setFusion('rrf');
    await settings().load();
    expect(settings().draft?.fusion).toBe('rrf');
    settings().revert();
    expect(settings().draft?.fusion).toBe('weighted');
    expect(settings().isDirty()).toBe(false);
  });

  it('reports a failed load', async () => {
    const client = createFakeClient({
      'settings.get': async () => {
        throw new MemoryClientError('network', 'Cannot reach Reverie.');
      },
    });
    const store = createReverieStore(client, { confirm: () => true });
    await store.getState().settings.load();
    expect(store.getState().settings.state).toBe('error');
    expect(store.getState().settings.loadError).toBe('Cannot reach Reverie.');
  });
});

describe('settings helpers', () => {
  it('builds a patch of the changed fields, sending an unparsable size as NaN for the engine to refuse', () => {
    const draft = draftFromSettings(SAVED);
    expect(settingsPatch(SAVED, draft)).toEqual({});
    expect(settingsPatch(SAVED, { ...draft, maxFileSizeMB: ' 8 ' })).toEqual({ maxFileSizeMB: 8 });
    expect(settingsPatch(SAVED, { ...draft, maxFileSizeMB: '' }).maxFileSizeMB).toBeNaN();
    expect(settingsPatch(SAVED, { ...draft, extraPaths: ['/home/ada/notes', ' '] })).toEqual({});
  });

  it('splits the engine\'s message into field errors', () => {
    expect(
      fieldErrorsFromMessage(
        'settings.set: field "patch.maxFileSizeMB": Too small: expected number to be >0; settings.set: field "patch.extraPaths.1": Invalid input: expected string, received number',
      ),
    ).toEqual({ maxFileSizeMB: 'Too small: expected number to be >0', 'extraPaths.1': 'Invalid input: expected string, received number' });
    expect(fieldErrorsFromMessage('The engine is shutting down.')).toEqual({});
  });
});
