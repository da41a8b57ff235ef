import { describe, expect, it } from 'vitest';
import { resolveLineDates } from '../src/index/lineDates.js';
import { nextPlaceThatMayNameADay, parseDatesOn } from '../src/platform/text/dates.js';

// A note's lines are parsed for dates only where one regex says a day may be named: that must
// never hide a date the full parse would find.

const WORDS = [
  'in', 'during', 'since', 'until', 'through', 'of', 'on', 'the', 'last', 'this', 'past', 'next', 'night', 'week', 'weekend',
  'weeks', 'month', 'months', 'year', 'years', 'day', 'days', 'ago', 'back', 'a', 'few', 'couple', 'several', 'two', 'seven',
  'today', 'yesterday', 'before', 'Friday', 'sunday', 'May', 'march', 'Sept.', 'sep', 'dec', 'mid-', 'mid', 'midmarch', 'early',
  'late', '2023', '1999', '2023-02-31', '2023-05-25', '31', '29', '5th', '2nd', '10:30', 'pm', '%', ',', '.', '—', 'é', '東京',
  '\ud800', '😀', '\r', '  ', 'x', 'February', 'feb', '12', '3', 'st', 'Booked', 'LAST', 'AGO',
];

function randomLines(count: number, seed: number, joinNewlines: boolean): string[] {
  let state = seed;
  const next = (n: number): number => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    return (state >>> 8) % n;
  };
  return Array.from({ length: count }, () => {
    const parts = Array.from({ length: 1 + next(8) }, () => WORDS[next(WORDS.length)]!);
    if (joinNewlines && next(4) === 0) parts.push('\n');
    return parts.join(next(6) === 0 ? '' : ' ');
  });
}

const NOTE = 'memory/2023-02-04.md';
const OWN_DAY = Date.UTC(2023, 1, 4);

/** Line by line, every line parsed: what resolveLineDates gives without its prefilter. */
function eachLineAlone(text: string): string[] {
  return text.split('\n').flatMap((line, i) => resolveLineDates(NOTE, line).map((d) => `${i + 1}:${d.from}..${d.to}:${d.precision}`));
}

describe('where a note may name a day', () => {
  it('is found in every line the full parse finds a day in (but today)', () => {
    let dated = 0;
    for (const line of randomLines(15_000, 7, false)) {
      const days = parseDatesOn(line, OWN_DAY).dates.filter((d) => d.from !== '2023-02-04' || d.to !== '2023-02-04');
      if (days.length > 0) dated++;
      if (nextPlaceThatMayNameADay(line, 0) < 0) expect(days, JSON.stringify(line)).toEqual([]);
    }
    expect(dated).toBeGreaterThan(1500); // the lines do name days often
  });

  it('leaves a note\'s line dates as reading every line would', () => {
    for (let t = 0; t < 1500; t++) {
      const text = randomLines(t % 13, 1000 + t, true).join('\n');
      const got = resolveLineDates(NOTE, text).map((d) => `${d.line}:${d.from}..${d.to}:${d.precision}`);
      expect(got, JSON.stringify(text)).toEqual(eachLineAlone(text));
    }
  });

  it('keeps line numbers across empty, CRLF, huge, non-Latin and split lines', () => {
    const text = [
      '',
      'Booked it last\r',
      'week — no: last',
      'week we met, two weeks ago.\r',
      `${'x'.repeat(5000)} in March 2022`,
      'Дмитрий 東京 \ud800 lone, then on 25 May 2022 😀',
      'Three months ago',
      '',
    ].join('\n');
    expect(resolveLineDates(NOTE, text).map((d) => d.line)).toEqual([4, 6, 7]);
    expect(resolveLineDates(NOTE, text).map((d) => `${d.line}:${d.from}..${d.to}:${d.precision}`)).toEqual(eachLineAlone(text));
    expect(resolveLineDates(NOTE, '')).toEqual([]);
    expect(resolveLineDates(NOTE, `in March${'\n'.repeat(3)}`).map((d) => d.line)).toEqual([1]);
  });
});
