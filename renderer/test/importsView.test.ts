import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { ImportPlan, StatusOutput } from '../../core/src/contract/index.js';
import { createReverieStore, type ReverieStore } from '../src/store/store.js';
import { StoreContext } from '../src/store/useReverie.js';
import { ImportsView } from '../src/views/imports/ImportsView.js';
import { isWorkspaceEmpty } from '../src/views/search/SearchView.js';
import { createFakeClient } from './fakeClient.js';

const render = (store: ReverieStore): string =>
  renderToStaticMarkup(createElement(StoreContext.Provider, { value: { ...store, getInitialState: store.getState } }, createElement(ImportsView)));

const PLAN: ImportPlan = {
  version: 1,
  createdAt: '2026-11-03T10:00:00.000Z',
  workspaceRoot: '/w',
  sources: [{ tool: 'codex' }],
  options: { maxFileBytes: 1, maxFilesPerCollection: 2000, includeClaudeMd: true },
  items: [
    { tool: 'codex', collection: 'global', sourcePath: '/h/a.md', size: 10, sha256: 'a', destination: 'memory/imports/codex/global/a.md', status: 'new', reason: null },
    { tool: 'codex', collection: 'global', sourcePath: '/h/b.md', size: 10, sha256: 'b', destination: 'memory/imports/codex/global/b.md', status: 'conflict', reason: null },
    { tool: 'codex', collection: 'global', sourcePath: '/h/bin.md', size: 10, sha256: null, destination: 'memory/imports/codex/global/bin.md', status: 'skipped', reason: 'binary file' },
  ],
  notes: [],
  fingerprint: 'abc123',
};

describe('Imports view', () => {
  it('renders the plan grouped by collection with badges, reasons, toggles and the fingerprint', async () => {
    const client = createFakeClient({ 'import.plan': async () => PLAN });
    const store = createReverieStore(client, { confirm: () => true });
    await store.getState().imports.preview();
    store.getState().imports.toggleItem('memory/imports/codex/global/a.md');
    const html = render(store);
    expect(html).toContain('data-group="codex/global"');
    expect(html).toContain('abc123');
    expect(html).toContain('binary file');
    expect(html).toContain('data-status="conflict"');
    expect(html.match(/aria-label="Import memory\/imports/g)).toHaveLength(2);
    expect(html).toContain('Import 0 files'); // a.md unticked, b.md only with replace
  });

  it('offers the import on an empty workspace only', () => {
    const status = (files: number) => ({ files: Array.from({ length: files }, () => ({})) }) as unknown as StatusOutput;
    expect(isWorkspaceEmpty(null)).toBe(false);
    expect(isWorkspaceEmpty(status(2))).toBe(true);
    expect(isWorkspaceEmpty(status(3))).toBe(false);
  });
});
