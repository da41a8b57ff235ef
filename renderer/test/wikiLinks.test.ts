import { describe, expect, it } from 'vitest';
import { wikiLinkOutsideWorkspace } from '../../core/src/contract/index.js';
import { remarkWikiLinks, resolveWikiLink } from '../src/views/memory/remarkWikiLinks.js';

interface Node {
  type: string;
  value?: string;
  url?: string;
  children?: Node[];
}

function run(tree: Node): Node {
  remarkWikiLinks()(tree);
  return tree;
}

describe('wiki-links and tags in rendered notes', () => {
  it('turns [[links]], [[link|text]] and #tags in text into links, leaving code and #1 alone', () => {
    const tree = run({
      type: 'root',
      children: [
        { type: 'paragraph', children: [{ type: 'text', value: 'Ask [[Dana]] about [[projects/tax-module|the tax module]] #finance, not issue #12 or a#b.' }] },
        { type: 'code', value: '[[not a link]] #nope' },
        { type: 'paragraph', children: [{ type: 'inlineCode', value: '[[inline]]' }] },
      ],
    });
    const paragraph = tree.children![0]!.children!;
    expect(paragraph.filter((n) => n.type === 'link').map((n) => [n.url, n.children![0]!.value])).toEqual([
      ['#wiki=Dana', 'Dana'],
      ['#wiki=projects%2Ftax-module', 'the tax module'],
      ['#tag=finance', '#finance'],
    ]);
    expect(paragraph.map((n) => n.value ?? n.children![0]!.value).join('')).toBe('Ask Dana about the tax module #finance, not issue #12 or a#b.');
    expect(tree.children![1]).toEqual({ type: 'code', value: '[[not a link]] #nope' });
    expect(tree.children![2]!.children![0]).toEqual({ type: 'inlineCode', value: '[[inline]]' });
  });

  it('resolves a link by path or by file name, case-insensitively; a missing or outside note is null', () => {
    const paths = ['MEMORY.md', 'memory/projects/tax-module.md', 'memory/people/Dana.md'];
    expect(resolveWikiLink('dana', paths)).toBe('memory/people/Dana.md');
    expect(resolveWikiLink('memory/projects/tax-module', paths)).toBe('memory/projects/tax-module.md');
    expect(resolveWikiLink('Tax-Module.md', paths)).toBe('memory/projects/tax-module.md');
    expect(resolveWikiLink('Lisbon trip', paths)).toBeNull();
    expect(resolveWikiLink('../../etc/passwd', paths)).toBeNull();
  });
});

describe('wiki-links that cannot be notes', () => {
  it('refuses a target outside the workspace with a sentence, and lets names and folders through', () => {
    for (const target of ['../secrets', '/etc/passwd', '~/notes', 'C:\\notes\\x', 'projects/../../x']) {
      expect(wikiLinkOutsideWorkspace(target)).toMatch(/points outside the workspace: a wiki-link can only open a note inside it/);
    }
    for (const target of ['Lisbon trip', 'projects/tax', 'memory/2026-03-09.md', 'a..b']) expect(wikiLinkOutsideWorkspace(target)).toBeNull();
  });

  it('opens a path under memory/ written without the folder', () => {
    expect(resolveWikiLink('projects/tax', ['memory/archive/tax.md', 'memory/projects/tax.md'])).toBe('memory/projects/tax.md');
  });
});
