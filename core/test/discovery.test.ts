import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { discoverWorkspace } from '../src/workspace/discovery.js';
import { displayPath } from '../src/workspace/layout.js';
import { createTempWorkspace, type TempWorkspace } from './helpers/workspace.js';

let ws: TempWorkspace;
afterEach(() => ws?.cleanup());

describe('discoverWorkspace', () => {
  it('finds root files, memory/**/*.md and DREAMS.md as its own source; skips other files and folders', () => {
    ws = createTempWorkspace({
      'MEMORY.md': 'm',
      'USER.md': 'u',
      'DREAMS.md': 'd',
      'README.md': 'not memory',
      'memory/2026-01-01.md': 'a',
      'memory/deep/nested/note.md': 'b',
      'memory/notes.txt': 'not markdown',
      'memory/.git/x.md': 'hidden',
      'memory/.obsidian/y.md': 'hidden',
      'memory/node_modules/z.md': 'deps',
    });
    const { files } = discoverWorkspace({ workspaceRoot: ws.root, extraPaths: [] });
    expect(files.map((f) => [f.path, f.source])).toEqual([
      ['DREAMS.md', 'dreams'],
      ['MEMORY.md', 'memory'],
      ['USER.md', 'memory'],
      ['memory/2026-01-01.md', 'memory'],
      ['memory/deep/nested/note.md', 'memory'],
    ]);
  });

  it('names every file as displayPath does: nested folders, the workspace root as an extra path, a folder outside it, names starting with ".."', () => {
    ws = createTempWorkspace({ 'memory/a/b/c.md': 'c', 'memory/..odd.md': 'o', 'memory/x/y/..z.md': 'z', 'top.md': 't', '..top.md': 'u' });
    const outside = fs.mkdtempSync(path.join(path.dirname(ws.root), 'reverie-outside-'));
    try {
      fs.mkdirSync(path.join(outside, 'sub'));
      fs.writeFileSync(path.join(outside, 'sub', 'far.md'), 'f');
      const { files } = discoverWorkspace({ workspaceRoot: ws.root, extraPaths: ['.', outside] });
      expect(files.length).toBe(6);
      for (const file of files) expect(file.path).toBe(displayPath(ws.root, file.absPath));
      expect(files.map((f) => f.path)).toContain(`${outside.split(path.sep).join('/')}/sub/far.md`);
      expect(files.map((f) => f.path)).toContain('memory/a/b/c.md');
    } finally {
      fs.rmSync(outside, { recursive: true, force: true });
    }
  });

  it('lists a note reachable through two roots once, also when one root is reached through a linked folder', () => {
    ws = createTempWorkspace({ 'memory/projects/a.md': 'a', 'memory/projects/deep/b.md': 'b' });
    // An extra path inside memory/, and the same folder again through a link to memory/.
    fs.symlinkSync(path.join(ws.root, 'memory'), path.join(ws.root, 'memory-link'));
    const { files } = discoverWorkspace({ workspaceRoot: ws.root, extraPaths: ['memory/projects', 'memory-link/projects'] });
    expect(files.map((f) => f.path).sort()).toEqual(['memory/projects/a.md', 'memory/projects/deep/b.md']);
  });

  it('accepts lower-case memory.md and reports it as shadowed when MEMORY.md also exists', () => {
    ws = createTempWorkspace({ 'memory.md': 'lower' });
    expect(discoverWorkspace({ workspaceRoot: ws.root, extraPaths: [] }).files.map((f) => f.path)).toEqual(['memory.md']);
    ws.write('MEMORY.md', 'upper');
    const files = discoverWorkspace({ workspaceRoot: ws.root, extraPaths: [] }).files;
    const lower = files.find((f) => f.path === 'memory.md');
    // Case-insensitive disks see one file; case-sensitive ones report the shadowed copy.
    if (lower) expect(lower.skipReason).toBe('shadowed by MEMORY.md');
    expect(files.find((f) => f.path === 'MEMORY.md')?.skipReason).toBeNull();
  });

  it('reports symlinks without following them, so a symlink loop cannot hang discovery', () => {
    ws = createTempWorkspace({ 'memory/real.md': 'real' });
    fs.symlinkSync(path.join(ws.root, 'memory'), path.join(ws.root, 'memory', 'loop'));
    fs.symlinkSync(path.join(ws.root, 'memory', 'real.md'), path.join(ws.root, 'memory', 'alias.md'));
    const { files } = discoverWorkspace({ workspaceRoot: ws.root, extraPaths: [] });
    expect(files.map((f) => [f.path, f.skipReason])).toEqual([
      ['memory/alias.md', 'symlink (not followed)'],
      ['memory/loop', 'symlinked folder (not followed)'],
      ['memory/real.md', null],
    ]);
  });

  it('adds extra paths, de-duplicates real paths, and warns about missing ones', () => {
    ws = createTempWorkspace({ 'memory/a.md': 'a' });
    const outside = path.join(path.dirname(ws.root), 'extra');
    fs.mkdirSync(path.join(outside, 'sub'), { recursive: true });
    fs.writeFileSync(path.join(outside, 'sub', 'x.md'), 'x');
    const { files, warnings } = discoverWorkspace({
      workspaceRoot: ws.root,
      extraPaths: [outside, 'memory', path.join(ws.root, 'memory', 'a.md'), '/does/not/exist'],
    });
    expect(files.map((f) => f.path)).toEqual([path.join(outside, 'sub', 'x.md').split(path.sep).join('/'), 'memory/a.md']);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('/does/not/exist');
  });

  it('handles an empty workspace', () => {
    ws = createTempWorkspace();
    expect(discoverWorkspace({ workspaceRoot: ws.root, extraPaths: [] })).toEqual({ files: [], warnings: [] });
  });
});
