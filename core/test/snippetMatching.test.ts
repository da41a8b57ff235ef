import { describe, expect, it } from 'vitest';
import { buildSnippet, lineWeights, type SnippetTerm } from '../src/search/snippet.js';

const terms = (...words: string[]): SnippetTerm[] => words.map((w) => ({ forms: [w], weight: 1 }));
const lineOf = (text: string, ...words: string[]): number => buildSnippet(text, 1, terms(...words), { maxChars: 40 }).startLine;
const weightOf = (text: string, ...words: string[]): number => buildSnippet(text, 1, terms(...words)).matchedWeight;

describe('snippet word matching', () => {
  it('matches a form at the start of a word only, in any case', () => {
    const text = ['scanary notes about nothing', 'the Canary rollout went fine', 'CANARY again'].join('\n');
    expect(lineOf(text, 'canary', 'rollout')).toBe(2);
    expect(weightOf('scanary, decanary', 'canary')).toBe(0);
    expect(weightOf('pre-canary checks', 'canary')).toBe(1); // a hyphen starts a new word
    expect(weightOf('2026canary', 'canary')).toBe(0); // after a digit: inside a word
  });

  it('treats letters outside the Basic Multilingual Plane and accents as letters', () => {
    expect(weightOf('𝐀canary', 'canary')).toBe(0); // after an astral letter: inside a word
    expect(weightOf('😀canary', 'canary')).toBe(1); // after an emoji: a new word
    expect(weightOf('Le café de Zoë', 'cafe', 'zoe')).toBe(2); // accents are folded away
    expect(weightOf('İstanbul trip, Canary notes', 'canary', 'istanbul')).toBe(1); // "İ" lower-cases to two characters: the rest still matches
  });

  it('finds a word right after a longer form failed inside a word', () => {
    // "rollouts" fails inside "xrollouts"; "rollout" must still be found at the next word.
    expect(weightOf('xrollouts rollout', 'rollouts', 'rollout')).toBe(1);
  });

  it('matches a chunk scanned at once as line by line: each match on its own line, lines folded on their own', () => {
    // "İ" lower-cases to two characters: its line alone is folded one character at a time, and the lines after keep their offsets.
    const text = ['İstanbul trip notes', 'nothing here', 'the Canary rollout', 'Le café de Zoë', 'CANARY'].join('\n');
    const byLine = (words: string[]) => [1, 2, 3, 4, 5].map((line) => buildSnippet(text, 1, terms(...words), { maxChars: 1, contextChars: 0, exclude: new Set([1, 2, 3, 4, 5].filter((l) => l !== line)) }).matchedWeight);
    expect(byLine(['canary', 'cafe', 'istanbul'])).toEqual([0, 0, 1, 1, 1]);
    expect(lineWeights(text.split('\n'), 1, terms('canary', 'rollout', 'zoe'))).toEqual([0, 0, 2, 1, 1]);
    // A line that starts with a form begins a word, whatever ended the line before it.
    expect(lineWeights(['note café', 'canary'], 1, terms('canary'))).toEqual([0, 1]);
    // A form is never matched across a line break.
    expect(weightOf('the canary\nrollout', 'canary\nrollout')).toBe(0);
  });
});

describe('snippet window choice', () => {
  it('prefers the long, informative line over a short one covering the same words', () => {
    const text = [
      '- Dave: My blog on car mods.',
      '- Filler: the weather was grey all week and nothing much happened in town.',
      '- Filler: we went for a walk along the river and had soup at the café.',
      '- Dave: The blog on car mods inspired others to start their own DIY projects at home.',
    ].join('\n');
    const snippet = buildSnippet(text, 1, terms('blog', 'car', 'mods'), { maxChars: 100, contextChars: 0 });
    expect(snippet.startLine).toBe(4);
    expect(snippet.text).toContain('inspired others');
  });
});
