import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { SearchResult } from '../../core/src/contract/index.js';
import { queryStems } from '../src/views/highlight/highlightTerms.js';
import { rankNotes } from '../src/views/search/rankNotes.js';
import { Snippet } from '../src/views/search/Snippet.js';
import { snippetWindow } from '../src/views/search/snippetText.js';

const result = (score: number, mmr = 0): SearchResult => ({
  id: `chunk:${Math.round(score * 1000)}`,
  path: 'memory/a.md',
  source: 'memory',
  startLine: 1,
  endLine: 2,
  snippet: 'text',
  score,
  matchedBy: ['keyword'],
  breakdown: { keyword: score, vector: 0, fused: score, fusion: 'weighted', decay: 1, importance: 1, trigger: 1, mmr },
});

describe('snippetWindow', () => {
  it('hides front matter at the top of a note', () => {
    const shown = snippetWindow('---\ntitle: Backups\ntags: [ops]\n---\n\n# Backups\n- We decided about backups.', 1, queryStems('backups'));
    expect(shown.text).toBe('# Backups\n- We decided about backups.');
    expect(shown.text).not.toContain('title:');
  });

  it('keeps a snippet that only starts with a rule when it is not the top of the file', () => {
    expect(snippetWindow('---\nbackups', 12, queryStems('backups')).text).toBe('---\nbackups');
  });

  it('starts just above the first matching line when the match is below the fold', () => {
    const lines = Array.from({ length: 20 }, (_, i) => `- routine item ${i + 1}`);
    lines[14] = '- decide about backups by Friday';
    const shown = snippetWindow(lines.join('\n'), 5, queryStems('decide about backups'), 8);
    // Eight lines ending at the note's end: the match, a line above it and the lines below.
    expect(shown.text.split('\n')).toEqual(lines.slice(12, 20));
    expect(shown.hiddenAbove).toBe(12);
    expect(shown.hiddenBelow).toBe(0);
    const early = snippetWindow(lines.join('\n'), 5, queryStems('routine item 3'), 8);
    expect(early.text.split('\n')[0]).toBe('- routine item 1');
  });
});

describe('Snippet', () => {
  it('renders Markdown and marks only the query words', () => {
    const html = renderToStaticMarkup(
      createElement(Snippet, { text: '---\nkind: note\n---\n## Islands\n- **Is** the [ferry](https://x.test) to the islands booked?', startLine: 1, query: 'is the island ferry' }),
    );
    expect(html).toContain('<strong>Is</strong>');
    expect(html).toContain('<p class="snippet-heading"><mark>Islands</mark></p>');
    expect(html).toContain('<span class="snippet-link"><mark>ferry</mark></span>');
    expect(html).toContain('<mark>islands</mark>');
    expect(html).not.toContain('kind: note');
    expect(html).not.toContain('<a ');
    expect(html).not.toContain('**');
  });
});

describe('rankNotes', () => {
  it('says why a result sits below a lower score, and nothing when the order follows the scores', () => {
    expect(rankNotes([result(0.8), result(0.5), result(0.3)])).toEqual([null, null, null]);
    const notes = rankNotes([result(0.8), result(0.285), result(0.309, 0.12)]);
    expect(notes[0]).toBeNull();
    expect(notes[1]).toBeNull();
    expect(notes[2]).toMatch(/^Shown below a lower score \(0\.285\): it repeats much of a result above.+penalty 0\.120/);
  });

  it('ignores differences the shown rounding hides', () => {
    expect(rankNotes([result(0.3001), result(0.3004)])).toEqual([null, null]);
  });
});
