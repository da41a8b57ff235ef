import { describe, expect, it } from 'vitest';
import { highlightTerms, queryStems } from '../src/views/highlight/highlightTerms.js';

const marked = (text: string, query: string): string[] =>
  highlightTerms(text, query)
    .filter((p) => p.isMatch)
    .map((p) => p.text);

describe('highlightTerms', () => {
  it('marks whole words of the query, case-insensitively', () => {
    expect(marked('Postgres upgrade: the POSTGRES cluster', 'postgres')).toEqual(['Postgres', 'POSTGRES']);
  });

  it('marks inflected forms the engine matches by stem', () => {
    expect(marked('We upgraded; upgrades are dull', 'upgrading')).toEqual(['upgraded', 'upgrades']);
    expect(marked('She decided about the backups.', 'decide about backup')).toEqual(['decided', 'backups']);
  });

  it('never marks stop words, nor a query word inside a longer word', () => {
    expect(marked('This island is where the islands meet', 'what is the island')).toEqual(['island', 'islands']);
    expect(marked('Is it islands?', 'is')).toEqual([]);
    expect(queryStems('what is the')).toEqual(new Set());
    expect(marked('reheron heron', 'heron')).toEqual(['heron']);
    expect(marked('postgresql and postgres', 'post')).toEqual([]);
  });

  it('marks words of other scripts whole, and accents as search folds them', () => {
    expect(marked('Café in Zürich, 東京', 'cafe zurich 東京')).toEqual(['Café', 'Zürich', '東京']);
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
