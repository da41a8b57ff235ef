import { afterEach, describe, expect, it } from 'vitest';
import type { MemoryService } from '../src/engine/memoryService.js';
import { createTempWorkspace, openService, type TempWorkspace } from './helpers/workspace.js';

let ws: TempWorkspace;
let service: MemoryService;
afterEach(async () => {
  await service?.close();
  ws?.cleanup();
});

const NOTES = {
  'MEMORY.md': '# Memory\n\n- The tax module is in [[projects/tax]].\n',
  'memory/projects/tax.md': '# Tax module\n\nDana owns it.\n',
  'memory/archive/tax.md': '# Old tax notes\n',
  'memory/2026-03-09.md': '# 2026-03-09\n\n- Met Dana about [[Tax]] and [[Lisbon trip|the trip]].\n- Nothing here.\n- Again: [[memory/projects/tax.md|tax]]\n',
  'memory/2026-03-10.md': '# 2026-03-10\n\n`[[tax]]` in code still names it; [[archive/tax]] is the old one; [[../outside/tax]] is not a note.\n',
};

describe('backlinks ("Linked from")', () => {
  it('lists every line of another note whose [[link]] opens this note, by the window\'s own rule', async () => {
    ws = createTempWorkspace(NOTES);
    service = openService(ws);
    await service.invoke('index.sync', {});
    const { links } = await service.invoke('notes.backlinks', { path: 'memory/projects/tax.md' });
    expect(links).toEqual([
      { path: 'MEMORY.md', line: 3, text: '- The tax module is in [[projects/tax]].' },
      { path: 'memory/2026-03-09.md', line: 5, text: '- Again: [[memory/projects/tax.md|tax]]' },
    ]);
    // A bare [[Tax]] shared by two notes opens the first by path (archive/), as the window does.
    expect((await service.invoke('notes.backlinks', { path: 'memory/archive/tax.md' })).links).toEqual([
      { path: 'memory/2026-03-09.md', line: 3, text: '- Met Dana about [[Tax]] and [[Lisbon trip|the trip]].' },
      { path: 'memory/2026-03-10.md', line: 3, text: '`[[tax]]` in code still names it; [[archive/tax]] is the old one; [[../outside/tax]] is not a note.' },
    ]);
    // A note nobody links to has no backlinks.
    expect((await service.invoke('notes.backlinks', { path: 'memory/2026-03-10.md' })).links).toEqual([]);
  });

  it('follows edits: a saved link appears, a removed one goes; a path outside the workspace has none', async () => {
    ws = createTempWorkspace(NOTES);
    service = openService(ws);
    await service.invoke('index.sync', {});
    const read = await service.invoke('files.read', { path: 'memory/2026-03-10.md' });
    await service.invoke('files.write', { path: 'memory/2026-03-10.md', text: '# 2026-03-10\n\nSee [[2026-03-09]].\n', expectedSha256: read.sha256 });
    await service.invoke('index.sync', {});
    expect((await service.invoke('notes.backlinks', { path: 'memory/2026-03-09.md' })).links).toEqual([{ path: 'memory/2026-03-10.md', line: 3, text: 'See [[2026-03-09]].' }]);
    expect((await service.invoke('notes.backlinks', { path: 'memory/archive/tax.md' })).links.map((l) => l.path)).toEqual(['memory/2026-03-09.md']);
    // A path that is no note (outside the workspace, or gone) is linked from nowhere.
    expect((await service.invoke('notes.backlinks', { path: '../outside/tax.md' })).links).toEqual([]);
  });
});
