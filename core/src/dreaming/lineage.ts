import { normalizeEntryText } from '../workspace/markdownEntries.js';
import { STOPWORDS } from '../platform/text/stopwords.js';

/**
 * Lineage: entries about the same thing (the staging database's port, the answer-length
 * preference) share a lineage, so a newer one supersedes the older instead of contradicting
 * it. Decided from the entry's subject words: values (numbers, identifiers with digits) and
 * polarity words are left out, because they are what changes between versions.
 */

const POLARITY = new Set(['always', 'never', 'prefer', 'prefers', 'preferred', 'please', 'dont', 'do', 'not', 'no', 'should', 'must', 'use', 'avoid', 'keep', 'i', 'me', 'my', 'we', 'our', 'now', 'instead', 'anymore', 'longer']);
const NUMBER_WORDS = new Set(['one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve', 'twenty', 'hundred', 'thousand']);

/** The entry's subject words, in order of first appearance. */
export function subjectWords(text: string): string[] {
  const seen = new Set<string>();
  for (const word of normalizeEntryText(text).split(' ')) {
    if (word.length < 3 || /\d/.test(word)) continue;
    if (STOPWORDS.has(word) || POLARITY.has(word) || NUMBER_WORDS.has(word)) continue;
    seen.add(word.length > 4 ? word.replace(/(?:ing|es|s)$/, '') : word);
  }
  return [...seen];
}

/** True when two entries talk about the same subject: most of the shorter one's subject words recur. */
export function isSameLineage(a: string, b: string): boolean {
  const left = new Set(subjectWords(a));
  const right = new Set(subjectWords(b));
  const smaller = Math.min(left.size, right.size);
  if (smaller < 2) return false;
  let shared = 0;
  for (const w of left) if (right.has(w)) shared++;
  return shared / smaller >= 0.6;
}

/** A readable lineage key for a new entry: its first four subject words. */
export function lineageKeyFor(text: string): string {
  const words = subjectWords(text).slice(0, 4);
  return words.length > 0 ? words.join('-') : 'entry';
}
