import { describe, expect, it } from 'vitest';
import { classifyEntry } from '../src/workspace/entryKind.js';
import { entryWords } from '../src/workspace/entryWords.js';
import { timeBound } from '../src/workspace/entryValidity.js';
import { lineTokens, looksEnglish } from '../src/workspace/kindFeatures.js';

// The classifier's cheap looks (a digit, a weekday, a ?, an @, ASCII tokens by character code)
// must never change what it says: each is compared here with the way it replaced, or with what
// the rules said before it. Lines written for these tests.
const NOTE_DAY = '2026-10-20';

/** lineTokens as it was: every TOKEN match, the first 40, folded (the folding is shared, so compared lower-cased). */
function tokensByRegex(raw: string): string[] {
  const body = raw.slice(0, 400).replace(/^\s*(?:[-*+]|\d+[.)])\s+/, '').replace(/^(?:\[[ xX\-/>~*]?\]|\(\s?[xX]?\s?\)|[☐☑☒✅🔲⬜▢])\s*/u, '');
  return (body.replace(/<!--[\s\S]*?-->/g, ' ').match(/[\p{L}\p{N}'’]+/gu) ?? []).slice(0, 40);
}

/** looksEnglish as it was: a code point at a time. */
function looksEnglishByCodePoint(raw: string): boolean {
  let letters = 0;
  let latin = 0;
  for (const c of raw) {
    const code = c.charCodeAt(0);
    if (code < 0x80) {
      if ((code >= 65 && code <= 90) || (code >= 97 && code <= 122)) {
        letters++;
        latin++;
      }
    } else if (/^\p{L}$/u.test(c)) letters++;
  }
  return letters > 0 && latin / letters >= 0.9;
}

const forty = Array.from({ length: 40 }, (_, i) => `w${i}`).join(' ');
const TRICKY_LINES = [
  '- Ask Dana about the staging DB (it’s down again)',
  "- [x] don't forget the 3rd invoice",
  `${forty} café after the fortieth`,
  `${forty.slice(0, -1)}é then more`,
  `${forty}, plus more words after the fortieth and a café`,
  'Kestrel は請求サービスです。',
  'emoji 🎉 between words 🎉x and a lone \ud800 surrogate \udc00 here',
  'naïve résumé: Zoë’s café',
  '<!-- kind: fact --> commented out words',
  '',
  '   ',
  'ALL CAPS MARCH MONDAY 12th',
];

describe('the kind features by character code', () => {
  it.each(TRICKY_LINES)('tokens as the Unicode regex reads them: %s', (line) => {
    // A token alone is its own one token, folded: the folding lineTokens gives every token.
    expect(lineTokens(line)).toEqual(tokensByRegex(line).map((t) => lineTokens(t)[0]));
  });

  it.each(TRICKY_LINES)('letters counted a code point at a time: %s', (line) => {
    expect(looksEnglish(line)).toBe(looksEnglishByCodePoint(line));
  });
});

describe('the rules behind cheap looks say what they said before', () => {
  it.each([
    ['away until the 18th', '2026-11-18', 'away until the 18th'],
    ['Flight to Lisbon on Monday', '2026-10-26', 'Flight to Lisbon on Monday'],
    ['Workshop Tue–Thu', '2026-10-22', 'Tue–Thu'],
    ['Rhys off Mon–Wed, Ffion covers', '2026-10-21', 'Mon–Wed'],
    ['Mon–Wed next week Dana is on holiday', '2026-10-28', 'Mon–Wed'],
    ['Priya is on holiday Nov 2–6', '2026-11-06', 'Nov 2–6'],
    ['the office is closed tomorrow', '2026-10-21', 'tomorrow'],
    ['Epic downtime Sun 10/25 01:00–05:00', '2026-10-25', 'Sun 10/25'],
  ])('%s ends %s', (line, validUntil, cue) => {
    expect(timeBound(line, NOTE_DAY)).toEqual({ validUntil, cue });
  });

  it.each(['dinner Thu–Sun', 'back on the 3rd of each month', 'Nothing here names a day'])('%s names no end', (line) => {
    expect(timeBound(line, NOTE_DAY)).toBeNull();
  });

  it('reads an end without a note day as an end it cannot date', () => {
    expect(timeBound('away until the 18th', null)).toEqual({ validUntil: null, cue: 'away until the 18th' });
  });

  it('finds an addressed errand and an answered question as before', () => {
    expect(classifyEntry('ping @Arjun please review the retry PR', NOTE_DAY)).toMatchObject({ kind: 'task', cue: '"ping"' });
    expect(classifyEntry('Tue: @Lena please send the slides', NOTE_DAY).kind).toBe('task');
    expect(classifyEntry('is the cert renewed?', NOTE_DAY)).toMatchObject({ kind: 'question', cue: 'a question mark' });
  });

  it('folds runs of spaces, tabs and other whitespace, and leaves single spaces as they are', () => {
    expect(entryWords('- the   spacing\tis odd\u00a0 today ').words).toBe('the spacing is odd today');
    expect(entryWords('- plain words only').words).toBe('plain words only');
  });
});
