import { describe, expect, it } from 'vitest';
import { highlightTerms } from '../src/views/highlight/highlightTerms.js';

const marked = (text: string, query: string): string[] =>
  highlightTerms(text, query)
    .filter((p) => p.isMatch)
    .map((p) => p.text);

describe('highlightTerms', () => {
  it('marks whole words that start with a query word, case-insensitively', () => {
    expect(marked('Postgres upgrade: the POSTGRES cluster', 'postgres')).toEqual(['Postgres', 'POSTGRES']);
  });

  it('marks inflected forms the engine matches by stem', () => {
    expect(marked('We upgraded; upgrades are dull', 'upgrading')).toEqual(['upgraded', 'upgrades']);
  });

  it('does not mark matches inside other words', () => {
    expect(marked('reheron heron', 'heron')).toEqual(['heron']);
  });

  it('keeps the text intact, including line breaks and regex characters', () => {
    const text = 'a (b)\n* c.d [e]';
    expect(
      highlightTerms(text, '(b) c.d')
        .map((p) => p.text)
        .join(''),
    ).toBe(text);
  });
});
