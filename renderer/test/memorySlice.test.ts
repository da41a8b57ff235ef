import { describe, expect, it } from 'vitest';
import { MemoryClientError } from '../src/client/clientError.js';
import { createReverieStore } from '../src/store/store.js';
import { createFakeClient, deferred } from './fakeClient.js';
import { editorDraftOf, insertInEditor, typeInEditor } from './editorDraftFixture.js';

const SHA_A = 'a'.repeat(64);
const SHA_B = 'b'.repeat(64);

describe('memory slice', () => {
  it('saves with the hash it read, then keeps the new hash', async () => {
    const writes: Array<string | null> = [];
    const client = createFakeClient({
      'files.read': async ({ path }) => ({ path, text: 'old', sha256: SHA_A, mtimeMs: 0, size: 3 }),
      'files.write': async ({ path, expectedSha256, text }) => {
        writes.push(expectedSha256);
        return { path, sha256: SHA_B, mtimeMs: 1, size: text.length };
      },
      'files.list': async () => ({ files: [] }),
    });
    const store = createReverieStore(client, { confirm: () => true });
    const memory = () => store.getState().memory;
    await memory().openFile('MEMORY.md');
    memory().startEditing();
    typeInEditor(store, 'new');
    await memory().save();
    expect(writes).toEqual([SHA_A]);
    expect(memory().doc?.sha256).toBe(SHA_B);
    expect(memory().doc?.text).toBe('new');
    expect(memory().isEditing).toBe(false);
  });

  it('saves a note written with CRLF line ends with CRLF again: untouched lines keep their bytes', async () => {
    const writes: string[] = [];
    const client = createFakeClient({
      'files.read': async ({ path }) => ({ path, text: 'one\r\ntwo\r\n', sha256: SHA_A, mtimeMs: 0, size: 10 }),
      'files.write': async ({ path, text }) => {
        writes.push(text);
        return { path, sha256: SHA_B, mtimeMs: 1, size: text.length };
      },
      'files.list': async () => ({ files: [] }),
    });
    const store = createReverieStore(client, { confirm: () => true });
    const memory = () => store.getState().memory;
    await memory().openFile('memory/crlf.md');
    memory().startEditing();
    typeInEditor(store, 'one\ntwo\nthree\n');
    await memory().save();
    expect(writes).toEqual(['one\r\ntwo\r\nthree\r\n']);
    expect(memory().doc?.text).toBe('one\r\ntwo\r\nthree\r\n');
  });

  it('on conflict keeps the draft and the old hash, and shows the message', async () => {
    const client = createFakeClient({
      'files.read': async ({ path }) => ({ path, text: 'old', sha256: SHA_A, mtimeMs: 0, size: 3 }),
      'files.write': async () => {
        throw new MemoryClientError('conflict', 'MEMORY.md changed on disk after you opened it');
      },
    });
    const store = createReverieStore(client, { confirm: () => true });
    const memory = () => store.getState().memory;
    await memory().openFile('MEMORY.md');
    memory().startEditing();
    typeInEditor(store, 'my words');
    await memory().save();
    expect(memory().conflict).toContain('changed on disk');
    expect(memory().draftText()).toBe('my words');
    expect(memory().isEditing).toBe(true);
    expect(memory().doc?.sha256).toBe(SHA_A);
    memory().keepEditing();
    expect(memory().conflict).toBeNull();
    expect(memory().draftText()).toBe('my words');
  });

  it('asks before dropping unsaved edits, and stays put when told no', async () => {
    const client = createFakeClient({
      'files.read': async ({ path }) => ({ path, text: `text of ${path}`, sha256: SHA_A, mtimeMs: 0, size: 3 }),
    });
    const questions: string[] = [];
    const store = createReverieStore(client, {
      confirm: (q) => {
        questions.push(q);
        return false;
      },
    });
    const memory = () => store.getState().memory;
    await memory().openFile('MEMORY.md');
    memory().startEditing();
    typeInEditor(store, 'unsaved');
    expect(await memory().openFile('USER.md')).toBe(false);
    expect(memory().openPath).toBe('MEMORY.md');
    expect(memory().draftText()).toBe('unsaved');
    expect(questions).toHaveLength(1);

    // Switching views never drops the draft (it stays in the store).
    store.getState().app.setView('status');
    expect(memory().draftText()).toBe('unsaved');
  });

  it('keeps the text in the editor: the store learns only whether it changed, and saving writes exactly the typed text', async () => {
    const writes: string[] = [];
    const client = createFakeClient({
      'files.read': async ({ path }) => ({ path, text: 'line one\nline two\n', sha256: SHA_A, mtimeMs: 0, size: 18 }),
      'files.write': async ({ path, text }) => {
        writes.push(text);
        return { path, sha256: SHA_B, mtimeMs: 1, size: text.length };
      },
      'files.list': async () => ({ files: [] }),
    });
    const store = createReverieStore(client, { confirm: () => true });
    const memory = () => store.getState().memory;
    await memory().openFile('MEMORY.md');
    memory().startEditing();
    const before = memory();
    insertInEditor(store, 'x', 4);
    insertInEditor(store, 'y', 5);
    // The slice object changes for the revision, but holds no copy of the text.
    expect(memory().draftRevision).toBe(before.draftRevision + 2);
    expect(Object.values(memory()).some((value) => typeof value === 'string' && value.includes('linexy'))).toBe(false);
    expect(memory().hasUnsavedEdits).toBe(true);
    expect(memory().isDirty()).toBe(true);
    await memory().save();
    expect(writes).toEqual(['linexy one\nline two\n']);
    expect(memory().doc?.text).toBe('linexy one\nline two\n');
    expect(memory().isDirty()).toBe(false);
  });

  it('is clean again when the text is typed back to what was saved', async () => {
    const client = createFakeClient({
      'files.read': async ({ path }) => ({ path, text: 'saved', sha256: SHA_A, mtimeMs: 0, size: 5 }),
    });
    const store = createReverieStore(client, { confirm: () => true });
    const memory = () => store.getState().memory;
    await memory().openFile('MEMORY.md');
    memory().startEditing();
    insertInEditor(store, '!');
    expect(memory().isDirty()).toBe(true);
    const draft = editorDraftOf(store);
    draft.accept(draft.state.update({ changes: { from: 5, to: 6 } }).state);
    expect(memory().isDirty()).toBe(false);
    expect(memory().hasUnsavedEdits).toBe(false);
  });

  it('keeps editing after a save when the person typed on while it was written, measured against what was written', async () => {
    const write = deferred<{ path: string; sha256: string; mtimeMs: number; size: number }>();
    const writes: string[] = [];
    const client = createFakeClient({
      'files.read': async ({ path }) => ({ path, text: 'a', sha256: SHA_A, mtimeMs: 0, size: 1 }),
      'files.write': async ({ text }) => {
        writes.push(text);
        return write.promise;
      },
      'files.list': async () => ({ files: [] }),
    });
    const store = createReverieStore(client, { confirm: () => true });
    const memory = () => store.getState().memory;
    await memory().openFile('MEMORY.md');
    memory().startEditing();
    insertInEditor(store, 'b');
    const saving = memory().save();
    insertInEditor(store, 'c');
    write.resolve({ path: 'MEMORY.md', sha256: SHA_B, mtimeMs: 1, size: 2 });
    await saving;
    expect(writes).toEqual(['ab']);
    expect(memory().doc?.text).toBe('ab');
    expect(memory().isEditing).toBe(true);
    expect(memory().isDirty()).toBe(true);
    expect(memory().draftText()).toBe('abc');
    // Deleting the "c" brings it back to what is on disk: clean.
    const draft = editorDraftOf(store);
    draft.accept(draft.state.update({ changes: { from: 2, to: 3 } }).state);
    expect(memory().isDirty()).toBe(false);
  });

  it('gives a returning editor the same draft (text and undo history), and a fresh one after Cancel', async () => {
    const client = createFakeClient({
      'files.read': async ({ path }) => ({ path, text: 'disk', sha256: SHA_A, mtimeMs: 0, size: 4 }),
    });
    const store = createReverieStore(client, { confirm: () => true });
    const memory = () => store.getState().memory;
    await memory().openFile('MEMORY.md');
    memory().startEditing();
    insertInEditor(store, ' words');
    const first = editorDraftOf(store);
    store.getState().app.setView('status');
    store.getState().app.setView('memory');
    expect(editorDraftOf(store)).toBe(first);
    expect(memory().draftText()).toBe('disk words');
    memory().cancelEditing();
    expect(memory().isDirty()).toBe(false);
    memory().startEditing();
    expect(editorDraftOf(store)).not.toBe(first);
    expect(memory().draftText()).toBe('disk');
  });

  it('ignores a draft for another note (an editor that outlived its note)', async () => {
    const client = createFakeClient({
      'files.read': async ({ path }) => ({ path, text: `text of ${path}`, sha256: SHA_A, mtimeMs: 0, size: 3 }),
    });
    const store = createReverieStore(client, { confirm: () => true });
    const memory = () => store.getState().memory;
    await memory().openFile('MEMORY.md');
    memory().startEditing();
    const stale = editorDraftOf(store);
    await memory().openFile('USER.md');
    memory().startEditing();
    memory().attachDraft(stale);
    expect(memory().currentDraft()).toBeNull();
    expect(memory().draftText()).toBe('text of USER.md');
  });
});
