import { describe, expect, it } from 'vitest';
import type { Backlink } from '../../core/src/contract/index.js';
import { createReverieStore } from '../src/store/store.js';
import { createFakeClient, deferred } from './fakeClient.js';

const SHA = 'a'.repeat(64);

describe('"Linked from" in the memory slice', () => {
  it('lists the backlinks of the open note, drops a late answer for a note left since, and clears on close', async () => {
    const answers = new Map<string, ReturnType<typeof deferred<{ links: Backlink[] }>>>();
    const client = createFakeClient({
      'files.read': async ({ path }) => ({ path, text: `# ${path}\n`, sha256: SHA, mtimeMs: 0, size: 3 }),
      'notes.backlinks': ({ path }) => {
        const answer = deferred<{ links: Backlink[] }>();
        answers.set(path, answer);
        return answer.promise;
      },
    });
    const store = createReverieStore(client, { confirm: () => true });
    const memory = () => store.getState().memory;

    await memory().openFile('memory/a.md');
    await memory().openFile('memory/b.md');
    answers.get('memory/b.md')!.resolve({ links: [{ path: 'memory/c.md', line: 4, text: 'See [[b]]' }] });
    answers.get('memory/a.md')!.resolve({ links: [{ path: 'memory/x.md', line: 1, text: 'old answer' }] });
    await Promise.resolve();
    await Promise.resolve();
    expect(memory().backlinksFor).toBe('memory/b.md');
    expect(memory().backlinks).toEqual([{ path: 'memory/c.md', line: 4, text: 'See [[b]]' }]);

    memory().refuseLink('“../x” points outside the workspace.');
    expect(memory().linkRefusal).toContain('outside the workspace');
    memory().closeFile();
    expect(memory().backlinks).toEqual([]);
    expect(memory().linkRefusal).toBeNull();
  });
});
