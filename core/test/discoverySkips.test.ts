import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { discoverWorkspace } from '../src/workspace/discovery.js';
import { createTempWorkspace, type TempWorkspace } from './helpers/workspace.js';

let ws: TempWorkspace;
afterEach(() => {
  vi.restoreAllMocks();
  ws?.cleanup();
});

const skipsOf = (root: string): Array<[string, string | null]> =>
  discoverWorkspace({ workspaceRoot: root, extraPaths: [] })
    .files.filter((f) => f.skipReason)
    .map((f) => [f.path, f.skipReason]);

describe('discoverWorkspace reports every skip with a reason', () => {
  it('reports a symlinked memory/ folder and never walks it', () => {
    ws = createTempWorkspace({ 'MEMORY.md': 'm', 'elsewhere/secret.md': 's' });
    fs.symlinkSync(path.join(ws.root, 'elsewhere'), path.join(ws.root, 'memory'));
    const { files } = discoverWorkspace({ workspaceRoot: ws.root, extraPaths: [] });
    expect(files.map((f) => [f.path, f.skipReason])).toEqual([
      ['MEMORY.md', null],
      ['memory', 'symlinked folder (not followed)'],
    ]);
  });

  it('reports a folder symlink loop inside memory/ once and does not recurse', () => {
    ws = createTempWorkspace({ 'memory/a.md': 'a' });
    fs.symlinkSync('.', path.join(ws.root, 'memory/loop'));
    expect(skipsOf(ws.root)).toEqual([['memory/loop', 'symlinked folder (not followed)']]);
  });

  it('reports MEMORY.md that is a folder', () => {
    ws = createTempWorkspace({ 'MEMORY.md/inner.txt': 'x' });
    expect(skipsOf(ws.root)).toEqual([['MEMORY.md', 'a folder, not a file']]);
  });

  it('reports a named pipe ending in .md without opening it', () => {
    ws = createTempWorkspace({ 'memory/a.md': 'a' });
    execFileSync('mkfifo', [path.join(ws.root, 'memory/pipe.md')]);
    expect(skipsOf(ws.root)).toEqual([['memory/pipe.md', 'not a regular file (named pipe); never opened']]);
  });

  // chmod cannot lock root out, so this runs only as an ordinary user.
  it.skipIf(process.getuid?.() === 0)('reports an unreadable folder as a coverage entry, not only a warning', () => {
    ws = createTempWorkspace({ 'memory/locked/a.md': 'a' });
    fs.chmodSync(path.join(ws.root, 'memory/locked'), 0o000);
    try {
      expect(skipsOf(ws.root)).toEqual([['memory/locked', expect.stringContaining('unreadable folder (EACCES)')]]);
    } finally {
      fs.chmodSync(path.join(ws.root, 'memory/locked'), 0o755);
    }
  });

  // The same coverage path as root (where chmod locks no one out): the folder's read fails as it would for a user.
  it('reports a folder whose listing fails with EACCES as a coverage entry, whoever runs it', () => {
    ws = createTempWorkspace({ 'memory/locked/a.md': 'a', 'memory/open/b.md': 'b' });
    const locked = path.join(ws.root, 'memory/locked');
    const readdir = fs.readdirSync;
    vi.spyOn(fs, 'readdirSync').mockImplementation(((dir: fs.PathLike, options?: unknown) => {
      if (path.resolve(String(dir)) === locked) throw Object.assign(new Error(`EACCES: permission denied, scandir '${locked}'`), { code: 'EACCES' });
      return (readdir as (d: fs.PathLike, o?: unknown) => unknown)(dir, options);
    }) as typeof fs.readdirSync);
    const { files, warnings } = discoverWorkspace({ workspaceRoot: ws.root, extraPaths: [] });
    expect(files.map((f) => [f.path, f.skipReason])).toEqual([
      ['memory/locked', 'unreadable folder (EACCES); its notes are not indexed'],
      ['memory/open/b.md', null],
    ]);
    expect(warnings).toEqual([`Cannot read folder ${locked} (EACCES); its notes are not indexed.`]);
  });
});
