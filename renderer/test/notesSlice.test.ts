import { describe, expect, it, vi } from 'vitest';
import { MemoryClientError } from '../src/client/clientError.js';
import { createReverieStore } from '../src/store/store.js';
import { UNDO_DELETE_MS } from '../src/store/notesSlice.js';
import { visibleRows, buildFileTree } from '../src/views/memory/fileTree.js';
import { createFakeClient } from './fakeClient.js';
import { typeInEditor } from './editorDraftFixture.js';

const SHA = 'a'.repeat(64);

function notesWindow(confirmAnswer = true) {
  const disk = new Map<string, string>([['memory/a.md', 'A']]);
  const calls: string[] = [];
  const client = createFakeClient({
    'files.list': async () => ({ files: [...disk.keys()].map((path) => ({ path, source: 'memory', status: 'indexed', reason: null, chunks: 1 }) as never) }),
    'files.read': async ({ path }) => ({ path, text: disk.get(path) ?? '', sha256: SHA, mtimeMs: 0, size: 1 }),
    'notes.create': async ({ name, folder }) => {
      if (name.includes('?')) throw new MemoryClientError('invalid-input', `"${name}" contains "?", which some systems do not allow in file names. Leave it out.`);
      const path = `memory/${folder ? `${folder}/` : ''}${name}.md`;
      disk.set(path, `# ${name}\n`);
      return { path, sha256: SHA, created: true };
    },
    'notes.trash': async ({ path, expectedSha256 }) => {
      calls.push(`trash ${path} ${expectedSha256 ?? 'null'}`);
      disk.delete(path);
      return { id: 'trash-20260101T000000-0000abcd', path, trashedAt: '2026-01-01T00:00:00.000Z', size: 1 };
    },
    'notes.restore': async ({ id }) => {
      calls.push(`restore ${id}`);
      disk.set('memory/a.md', 'A');
      return { path: 'memory/a.md' };
    },
  });
  const store = createReverieStore(client, { confirm: () => confirmAnswer, reloadPage: () => undefined });
  return { store, disk, calls };
}

describe('notes in the window', () => {
  it('creates a note in a folder and opens it in the editor; a refused name keeps the dialog with the sentence', async () => {
    const { store } = notesWindow();
    store.getState().notes.requestNewNote();
    expect(await store.getState().notes.createNote('why?')).toBe(false);
    expect(store.getState().notes.dialog).toEqual({ kind: 'new', name: '' });
    expect(store.getState().notes.dialogError).toMatch(/contains "\?"/);

    expect(await store.getState().notes.createNote('projects/Tax module')).toBe(true);
    const { notes, memory, app } = store.getState();
    expect(notes.dialog).toBeNull();
    expect(app.view).toBe('memory');
    expect(memory.openPath).toBe('memory/projects/Tax module.md');
    expect(memory.isEditing).toBe(true);
  });

  it('deletes the open note with its hash, offers Undo for a few seconds, and Undo restores it', async () => {
    vi.useFakeTimers();
    try {
      const { store, disk, calls } = notesWindow();
      await store.getState().memory.openFile('memory/a.md');
      await store.getState().notes.deleteNote('memory/a.md');
      expect(calls).toEqual([`trash memory/a.md ${SHA}`]);
      expect(store.getState().memory.openPath).toBeNull();
      expect(store.getState().notes.lastDeleted?.path).toBe('memory/a.md');
      await store.getState().notes.undoDelete();
      expect(calls.at(-1)).toBe('restore trash-20260101T000000-0000abcd');
      expect(disk.has('memory/a.md')).toBe(true);
      expect(store.getState().memory.openPath).toBe('memory/a.md');

      await store.getState().notes.deleteNote('memory/a.md');
      vi.advanceTimersByTime(UNDO_DELETE_MS + 1);
      expect(store.getState().notes.lastDeleted).toBeNull();
    } finally {
      vi.useRealTimers();
    }
  });

  it('asks before deleting a note with unsaved edits, and keeps it when the person says no', async () => {
    const { store, calls } = notesWindow(false);
    await store.getState().memory.openFile('memory/a.md');
    store.getState().memory.startEditing();
    typeInEditor(store, 'unsaved words');
    await store.getState().notes.deleteNote('memory/a.md');
    expect(calls).toEqual([]);
    expect(store.getState().memory.draftText()).toBe('unsaved words');
  });
});

describe('file tree rows', () => {
  const files = ['MEMORY.md', 'memory/2026-01-01.md', 'memory/projects/tax-module.md', 'memory/projects/garden.md', 'memory/people/dana.md'].map(
    (path) => ({ path, source: 'memory', status: 'indexed', reason: null, chunks: 1 }) as never,
  );

  it('hides what a collapsed folder holds, and a filter opens folders to show only matching files', () => {
    const tree = buildFileTree(files);
    const paths = (rows: ReturnType<typeof visibleRows>) => rows.map((r) => r.node.path);
    expect(paths(visibleRows(tree, new Set(['memory/projects']), ''))).toEqual(['MEMORY.md', 'memory', 'memory/people', 'memory/people/dana.md', 'memory/projects', 'memory/2026-01-01.md']);
    expect(paths(visibleRows(tree, new Set(['memory/projects']), 'TAX'))).toEqual(['memory', 'memory/projects', 'memory/projects/tax-module.md']);
    expect(visibleRows(tree, new Set(), 'nothing-like-this')).toEqual([]);
  });
});
