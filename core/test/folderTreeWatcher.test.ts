import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FolderTreeWatcher } from '../src/index/folderTreeWatcher.js';
import { MemoryWatcher } from '../src/index/watcher.js';
import { isIgnoredDirName, isMarkdownName } from '../src/workspace/layout.js';

let root: string;
let tree: FolderTreeWatcher | undefined;
let memoryWatcher: MemoryWatcher | undefined;
afterEach(async () => {
  tree?.close();
  tree = undefined;
  await memoryWatcher?.close();
  memoryWatcher = undefined;
  fs.rmSync(root, { recursive: true, force: true });
});

/** Collects reported paths (relative to the root); `until` resolves once one matching path arrived. */
function recorder() {
  const seen: string[] = [];
  let waiting: { matches: (p: string) => boolean; resolve: () => void } | null = null;
  return {
    seen,
    onChange: (abs: string) => {
      const rel = path.relative(root, abs);
      seen.push(rel);
      if (waiting?.matches(rel)) {
        waiting.resolve();
        waiting = null;
      }
    },
    until: (rel: string) =>
      seen.includes(rel) ? Promise.resolve() : new Promise<void>((resolve) => (waiting = { matches: (p) => p === rel, resolve })),
  };
}

const write = (rel: string, text: string) => {
  fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
  fs.writeFileSync(path.join(root, rel), text);
};

describe('folder tree watcher', () => {
  it('reports changed notes by path, follows folders made and removed after the start, and skips ignored folders and other files', async () => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'reverie-tree-'));
    write('memory/inbox/a.md', '- a\n');
    write('memory/.git/HEAD', 'ref\n');
    const rec = recorder();
    let lost = 0;
    const ignored = (p: string) => path.relative(root, p).split(path.sep).some(isIgnoredDirName);
    tree = new FolderTreeWatcher(path.join(root, 'memory'), ignored, isMarkdownName, rec.onChange, () => lost++);
    await tree.start();
    expect(tree.folders).toBe(2); // memory/ and memory/inbox/, not .git

    fs.appendFileSync(path.join(root, 'memory/inbox/a.md'), '- more\n');
    await rec.until('memory/inbox/a.md');

    // A folder made after the start is reported, then watched: a note written in it later is seen by path.
    fs.mkdirSync(path.join(root, 'memory/trips/2027'), { recursive: true });
    await rec.until('memory/trips');
    while (tree.folders < 4) await new Promise((resolve) => setTimeout(resolve, 20)); // its watches are set up
    write('memory/trips/2027/lisbon.md', '# Lisbon\n');
    await rec.until('memory/trips/2027/lisbon.md');

    write('memory/.git/index', 'x');
    write('memory/inbox/todo.txt', 'not a note\n');
    write('memory/inbox/b.md', '- b\n');
    await rec.until('memory/inbox/b.md');
    expect(rec.seen.filter((p) => p.includes('.git') || p.endsWith('todo.txt'))).toEqual([]);

    // A removed folder is reported and its watches closed.
    const before = tree.folders;
    fs.rmSync(path.join(root, 'memory/trips'), { recursive: true });
    await rec.until('memory/trips/2027/lisbon.md'); // the file's own removal
    while (tree.folders >= before) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(tree.folders).toBe(2);
    expect(lost).toBe(0);
  });

  it('watches memory/ again after it is removed and made again', async () => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'reverie-tree-'));
    write('memory/a.md', '- a\n');
    const batches: Array<ReadonlySet<string> | 'everything'> = [];
    let delivered: (() => void) | null = null;
    memoryWatcher = new MemoryWatcher({
      workspaceRoot: root,
      extraPaths: [],
      debounceMs: 50,
      onDidChangeFiles: (changed) => {
        batches.push(changed);
        delivered?.();
      },
    });
    await memoryWatcher.start();
    const reported = (rel: string) => batches.some((b) => b !== 'everything' && [...b].some((p) => path.relative(root, p) === rel));
    const waitFor = async (rel: string) => {
      while (!reported(rel)) await new Promise<void>((resolve) => (delivered = resolve));
    };

    fs.rmSync(path.join(root, 'memory'), { recursive: true });
    await waitFor('memory');
    fs.mkdirSync(path.join(root, 'memory'));
    // The root's watcher sees the folder and watches it (when is not observable from outside): a later save is seen.
    const saved = waitFor('memory/b.md');
    for (let i = 0; !reported('memory/b.md') && i < 50; i++) {
      write('memory/b.md', `- b ${i}\n`);
      await Promise.race([saved, new Promise((resolve) => setTimeout(resolve, 200))]);
    }
    expect(reported('memory/b.md')).toBe(true);
  });
});
