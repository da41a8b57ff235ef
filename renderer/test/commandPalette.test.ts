import { describe, expect, it } from 'vitest';
import { createReverieStore } from '../src/store/store.js';
import { filterCommands, paletteCommands } from '../src/views/palette/commands.js';
import { createFakeClient } from './fakeClient.js';

function storeWithFiles(paths: string[]) {
  const client = createFakeClient({
    'files.list': async () => ({ files: [] }),
    'files.read': async ({ path }) => ({ path, text: 'x', sha256: 'a'.repeat(64), mtimeMs: 0, size: 1 }),
  });
  const store = createReverieStore(client, { confirm: () => true });
  store.setState((s) => ({
    memory: { ...s.memory, files: paths.map((path) => ({ path }) as (typeof s.memory.files)[number]) },
  }));
  return store;
}

describe('command palette', () => {
  it('finds views, settings sections and notes by a few letters, label starts first', () => {
    const store = storeWithFiles(['memory/projects/tax-module.md', 'memory/2026-03-09.md', 'MEMORY.md']);
    const all = paletteCommands(store.getState());
    expect(filterCommands(all, 'tax').map((c) => c.id)).toEqual(['file:memory/projects/tax-module.md']);
    expect(filterCommands(all, 'models')[0]?.id).toBe('settings:models');
    expect(filterCommands(all, 'go dre').map((c) => c.id)).toEqual(['view:dreams']);
    // A folder name finds the notes in it.
    expect(filterCommands(all, 'projects').map((c) => c.id)).toEqual(['file:memory/projects/tax-module.md']);
    expect(filterCommands(all, 'zzz')).toEqual([]);
  });

  it('running a file command opens it in Memory', async () => {
    const store = storeWithFiles(['memory/projects/tax-module.md']);
    const [command] = filterCommands(paletteCommands(store.getState()), 'tax-module');
    command!.run(store.getState());
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(store.getState().app.view).toBe('memory');
    expect(store.getState().memory.openPath).toBe('memory/projects/tax-module.md');
  });
});
