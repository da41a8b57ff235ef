import { describe, expect, it } from 'vitest';
import { MemoryClientError } from '../src/client/clientError.js';
import { createReverieStore } from '../src/store/store.js';
import { createFakeClient } from './fakeClient.js';

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
    memory().setDraft('new');
    await memory().save();
    expect(writes).toEqual([SHA_A]);
    expect(memory().doc?.sha256).toBe(SHA_B);
    expect(memory().doc?.text).toBe('new');
    expect(memory().isEditing).toBe(false);
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
    memory().setDraft('my words');
    await memory().save();
    expect(memory().conflict).toContain('changed on disk');
    expect(memory().draft).toBe('my words');
    expect(memory().isEditing).toBe(true);
    expect(memory().doc?.sha256).toBe(SHA_A);
    memory().keepEditing();
    expect(memory().conflict).toBeNull();
    expect(memory().draft).toBe('my words');
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
    memory().setDraft('unsaved');
    expect(await memory().openFile('USER.md')).toBe(false);
    expect(memory().openPath).toBe('MEMORY.md');
    expect(memory().draft).toBe('unsaved');
    expect(questions).toHaveLength(1);

    // Switching views never drops the draft (it stays in the store).
    store.getState().app.setView('status');
    expect(memory().draft).toBe('unsaved');
  });
});
