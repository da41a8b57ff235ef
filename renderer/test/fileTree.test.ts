import { describe, expect, it } from 'vitest';
import type { FileCoverage } from '../../core/src/contract/index.js';
import { buildFileTree, type FolderNode } from '../src/views/memory/fileTree.js';

const file = (path: string, status: FileCoverage['status'] = 'indexed'): FileCoverage => ({
  path,
  source: 'memory',
  status,
  reason: status === 'indexed' ? null : 'not UTF-8',
  size: 1,
  mtimeMs: 0,
  chunks: status === 'indexed' ? 1 : 0,
});

describe('buildFileTree', () => {
  it('puts root files first, folders before files inside folders, dated notes newest first', () => {
    const tree = buildFileTree([
      file('memory/2026-01-02.md'),
      file('memory/people/sam.md'),
      file('MEMORY.md'),
      file('memory/2026-03-01.md'),
      file('memory/topics.md'),
      file('USER.md'),
    ]);
    expect(tree.children.map((c) => c.name)).toEqual(['MEMORY.md', 'USER.md', 'memory']);
    const memory = tree.children[2] as FolderNode;
    expect(memory.children.map((c) => c.name)).toEqual(['people', 'topics.md', '2026-03-01.md', '2026-01-02.md']);
  });

  it('counts files that are not indexed in each folder', () => {
    const tree = buildFileTree([file('memory/a.md', 'skipped'), file('memory/x/b.md', 'failed'), file('memory/c.md')]);
    const memory = tree.children[0] as FolderNode;
    expect(memory.problemCount).toBe(2);
  });

  it('keeps absolute extra paths apart from the workspace', () => {
    const tree = buildFileTree([file('/home/ada/notes/x.md')]);
    expect(tree.children[0]?.name).toBe('/home');
  });
});
