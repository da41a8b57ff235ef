import { describe, expect, it } from 'vitest';
import type { SearchResult } from '../src/contract/index.js';
import { packToBudget, type PackableResult } from '../src/search/budgetPacking.js';
import { STOPWORD_WEIGHT, type SnippetTerm } from '../src/search/snippet.js';

/** A chunk of three lines: the match between two lines that share only the query's stop word "the". */
function chunk(i: number): PackableResult {
  const text = [
    `- the morning was long and the tea was cold and the radio was on (${i})`,
    `- tomatoes planted in bed ${i}`,
    `- the evening was long and the wind was up and the dog was out (${i})`,
  ].join('\n');
  const path = `memory/2025-03-0${i % 10}-garden-${i}.md`;
  const result: SearchResult = { id: `chunk:${i}`, path, source: 'memory', startLine: 1, endLine: 3, snippet: text, score: 1 - i / 100, matchedBy: ['keyword'] };
  return { hit: { path, start_line: 1, text }, result };
}

const terms: SnippetTerm[] = [
  { forms: ['tomato'], weight: 2 },
  { forms: ['the'], weight: STOPWORD_WEIGHT },
];

describe('packToBudget first-pass windows', () => {
  it('shows later results by their matched lines only, so more results fit, and widens the best ones with what is left', () => {
    const items = Array.from({ length: 10 }, (_, i) => chunk(i));
    const packed = packToBudget(items, terms, 1000);
    // Windows of three lines (~170 characters) for every result would leave room for seven.
    expect(packed).toHaveLength(10);
    expect(packed.at(-1)!.snippet).toBe('- tomatoes planted in bed 9');
    // The two best results keep their context lines.
    expect(packed[0]!.snippet.split('\n')).toHaveLength(3);
    expect(packed[1]!.snippet.split('\n')).toHaveLength(3);
    const total = packed.reduce((n, r) => n + r.snippet.length, 0) + packed.length - 1;
    expect(total).toBeLessThanOrEqual(1000);
    // What was left widened the third result, the best of the tight ones.
    expect(packed[2]!.snippet.split('\n').length).toBeGreaterThan(1);
  });

  it('keeps stop-word windows for a query that has nothing but stop words', () => {
    const packed = packToBudget([chunk(0), chunk(1), chunk(2)], [{ forms: ['the'], weight: STOPWORD_WEIGHT }], 2000);
    expect(packed).toHaveLength(3);
    expect(packed[2]!.snippet).toContain('the morning');
  });
});
