import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SettingsStore } from '../src/workspace/settingsStore.js';
import { DEFAULT_DREAM_SETTINGS } from '../src/contract/index.js';

let dir: string | undefined;
afterEach(() => {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

describe('settings store', () => {
  it('reads the file again only when it changed, by hand or by update, and hands out copies', () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'reverie-settings-'));
    const store = new SettingsStore(dir);
    expect(store.read().fusion).toBe('weighted');
    store.update({ fusion: 'rrf' });
    expect(store.read().fusion).toBe('rrf');

    // A hand edit of the same size is still seen (the stamp has the file's inode and mtime in ns).
    const text = fs.readFileSync(store.file, 'utf8');
    fs.writeFileSync(store.file, text.replace('"rrf"', '"xyz"'));
    expect(() => store.read()).toThrow(/setting "fusion" is invalid/);
    fs.writeFileSync(store.file, text);
    const read = store.read();
    expect(read.fusion).toBe('rrf');

    // Changing what read() returned changes nothing stored.
    read.fusion = 'weighted';
    read.dreaming.minScore = 0.1;
    expect(store.read()).toMatchObject({ fusion: 'rrf', dreaming: { minScore: DEFAULT_DREAM_SETTINGS.minScore } });

    fs.writeFileSync(store.file, '{ not json');
    expect(() => store.read()).toThrow(/is not valid JSON/);
    fs.rmSync(store.file);
    expect(store.read().fusion).toBe('weighted');
  });

  it('shares one frozen copy on the hot path until the file changes, by update or by hand', () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'reverie-settings-'));
    const store = new SettingsStore(dir);
    const defaults = store.current();
    expect(defaults.fusion).toBe('weighted');
    expect(store.current()).toBe(defaults);
    expect(() => {
      (defaults.dreaming as { minScore: number }).minScore = 0.1;
    }).toThrow(TypeError);
    store.update({ fusion: 'rrf' });
    const updated = store.current();
    expect(updated.fusion).toBe('rrf');
    expect(store.current()).toBe(updated);
    expect(Object.isFrozen(updated.dreaming)).toBe(true);
    // read() still hands out a copy the caller may change.
    const copy = store.read();
    copy.fusion = 'weighted';
    expect(store.current().fusion).toBe('rrf');
    fs.writeFileSync(store.file, fs.readFileSync(store.file, 'utf8').replace('"rrf"', '"weighted"'));
    expect(store.current().fusion).toBe('weighted');
    expect(DEFAULT_DREAM_SETTINGS.minScore).not.toBe(0.1);
  });

  it('gives a settings file from before the graph section its defaults, key by key, and patches one key of it', () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'reverie-settings-'));
    const store = new SettingsStore(dir);
    fs.writeFileSync(store.file, JSON.stringify({ fusion: 'rrf' }));
    expect(store.read().graph).toEqual({ modelExtraction: false, modelTimeoutSeconds: 60 });
    fs.writeFileSync(store.file, JSON.stringify({ graph: { modelTimeoutSeconds: 5 } }));
    expect(store.read().graph).toEqual({ modelExtraction: false, modelTimeoutSeconds: 5 });
    expect(store.update({ graph: { modelExtraction: true } }).graph).toEqual({ modelExtraction: true, modelTimeoutSeconds: 5 });
    fs.writeFileSync(store.file, JSON.stringify({ graph: { modelTimeoutSeconds: -1 } }));
    expect(() => store.read()).toThrow(/setting "graph.modelTimeoutSeconds" is invalid/);
  });

  it('reads transcript homes keyed by the CLI flag (files written before tool ids had one spelling) by tool id, and merges a patch of one tool', () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'reverie-settings-'));
    const store = new SettingsStore(dir);
    fs.writeFileSync(store.file, JSON.stringify({ sessions: { claude: '/old/claude', codex: '/h/codex', gone: '/x' } }));
    expect(store.read().sessions).toEqual({ codex: '/h/codex', 'claude-code': '/old/claude', openclaw: null });
    // Both spellings in one file: the tool id wins.
    fs.writeFileSync(store.file, JSON.stringify({ sessions: { 'claude-code': '/new/claude', claude: '/old/claude' } }));
    expect(store.read().sessions['claude-code']).toBe('/new/claude');
    expect(store.update({ sessions: { openclaw: '/h/openclaw' } }).sessions).toEqual({ codex: null, 'claude-code': '/new/claude', openclaw: '/h/openclaw' });
  });
});
