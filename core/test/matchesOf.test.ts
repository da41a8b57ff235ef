import { describe, expect, it } from 'vitest';
import { matchesOf } from '../src/platform/text/matchesOf.js';

const asFound = (ms: RegExpMatchArray[]) => ms.map((m) => ({ text: [...m], index: m.index, groups: m.groups }));

describe('matchesOf', () => {
  it('gives what matchAll gives, empty matches and surrogate pairs included', () => {
    const cases: Array<[RegExp, string]> = [
      [/\p{Lu}\p{Ll}+/gu, 'Dana met Priya in Lisbon.'],
      [/(?<word>\w+)@(\w+)/g, 'a@b c@d e@'],
      [/x*/g, 'axxb'],
      [/(?:)/gu, 'a😀b'],
      [/\b/g, 'one two'],
      [/q/g, 'nothing here'],
    ];
    for (const [pattern, text] of cases) expect(asFound(matchesOf(pattern, text)), String(pattern)).toEqual(asFound([...text.matchAll(pattern)]));
  });

  it('keeps match indices of a d-flag pattern and leaves lastIndex at 0', () => {
    const pattern = /(b+)/dg;
    const [first] = matchesOf(pattern, 'abbc');
    expect(first!.indices![1]).toEqual([1, 3]);
    expect(pattern.lastIndex).toBe(0);
  });

  it('refuses a pattern without the g flag, as matchAll does', () => {
    expect(() => matchesOf(/a/, 'a')).toThrow(/global/);
  });
});
