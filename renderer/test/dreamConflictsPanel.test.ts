import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { DreamConflict } from '../../core/src/contract/index.js';
import { MemoryClientError } from '../src/client/clientError.js';
import { createReverieStore, type ReverieStore } from '../src/store/store.js';
import { StoreContext } from '../src/store/useReverie.js';
import { Conflicts } from '../src/views/dreams/Conflicts.js';
import { createFakeClient } from './fakeClient.js';

const render = (store: ReverieStore): string =>
  renderToStaticMarkup(createElement(StoreContext.Provider, { value: { ...store, getInitialState: store.getState } }, createElement(Conflicts)));

const CONFLICT: DreamConflict = {
  id: 'conflict:fedcba9876543210',
  a: { text: 'Per the launch plan the artwork is due at the printer on Mar 3.', path: 'memory/2027-02-10.md', line: 5, day: '2027-02-10' },
  b: { text: 'Ola wrote that the artwork is due at the printer on Mar 5.', path: 'MEMORY.md', line: 9, day: null },
  reason: 'shares artwork, printer; differs in mar 3, mar 5',
  runId: 'dream:7',
  detectedAt: '2027-02-11T03:00:00.000Z',
  status: 'open',
  resolvedAt: null,
};

const buttonOf = (html: string, testId: string): string => html.match(new RegExp(`<button[^>]*data-testid="${testId}"[^>]*>`))?.[0] ?? '';

describe('Dreams → Conflicts panel', () => {
  it('says there are none once the list is loaded and empty', async () => {
    const store = createReverieStore(createFakeClient({ 'dream.conflicts': async () => ({ conflicts: [] }) }), { confirm: () => true });
    expect(render(store)).not.toContain('data-testid="dream-conflicts-empty"');
    await store.getState().dreams.loadConflicts();
    const html = render(store);
    expect(html).toContain('data-testid="dream-conflicts-empty"');
    expect(html).not.toContain('data-testid="dream-conflict"');
  });

  it('shows both sides with where each was written (an undated side without a day), the reason and the four decisions', async () => {
    const store = createReverieStore(createFakeClient({ 'dream.conflicts': async () => ({ conflicts: [CONFLICT] }) }), { confirm: () => true });
    await store.getState().dreams.loadConflicts();
    const html = render(store);
    expect(html).toContain(`data-id="${CONFLICT.id}"`);
    expect(html).toContain('<strong>A:</strong> Per the launch plan the artwork is due at the printer on Mar 3.');
    expect(html).toContain('(memory/2027-02-10.md:5, 2027-02-10)');
    expect(html).toContain('<strong>B:</strong> Ola wrote that the artwork is due at the printer on Mar 5.');
    expect(html).toContain('(MEMORY.md:9)');
    expect(html).toContain('shares artwork, printer; differs in mar 3, mar 5');
    for (const id of ['dream-conflict-keep-a', 'dream-conflict-keep-b', 'dream-conflict-keep-both', 'dream-conflict-dismiss']) {
      expect(buttonOf(html, id)).not.toBe('');
      expect(buttonOf(html, id)).not.toContain('disabled');
    }
    expect(html).not.toContain('data-testid="dream-conflicts-empty"');
  });

  it('disables the decisions while one is being saved, and shows a refused one beside the conflict, which stays', async () => {
    let release: () => void = () => {};
    let refuse = false;
    const client = createFakeClient({
      'dream.conflicts': async () => ({ conflicts: [CONFLICT] }),
      'dream.resolve': async () => {
        await new Promise<void>((resolve) => (release = resolve));
        if (refuse) throw new MemoryClientError('not-found', `No contradiction ${CONFLICT.id}.`);
        return { ...CONFLICT, status: 'keep-a', resolvedAt: '2027-02-11T09:00:00.000Z' };
      },
    });
    const store = createReverieStore(client, { confirm: () => true });
    await store.getState().dreams.loadConflicts();
    refuse = true;
    const saving = store.getState().dreams.resolveConflict(CONFLICT.id, 'keep-b');
    expect(buttonOf(render(store), 'dream-conflict-keep-a')).toContain('disabled');
    release();
    await saving;
    const html = render(store);
    expect(buttonOf(html, 'dream-conflict-keep-a')).not.toContain('disabled');
    expect(html).toContain('data-testid="dream-conflict-error"');
    expect(html).toContain('The decision was not saved');
    expect(html).toContain(`data-id="${CONFLICT.id}"`);
  });

  it('names a failed listing instead of showing an empty panel', async () => {
    const store = createReverieStore(
      createFakeClient({
        'dream.conflicts': async () => {
          throw new MemoryClientError('network', 'The engine is not running.');
        },
      }),
      { confirm: () => true },
    );
    await store.getState().dreams.loadConflicts();
    const html = render(store);
    expect(html).toContain('data-testid="dream-conflicts-error"');
    expect(html).toContain('Could not list conflicts');
    expect(html).not.toContain('data-testid="dream-conflicts-empty"');
  });
});
