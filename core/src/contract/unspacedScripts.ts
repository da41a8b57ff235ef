/**
 * Scripts written without spaces between words (Chinese, Japanese, Thai, Lao, Khmer, Myanmar).
 * A sentence in them is one long "word" to a tokenizer that splits at spaces, so search finds
 * their text by runs of characters instead (index/unspacedGrams.ts), and the window highlights
 * a searched run wherever it occurs inside a longer one. Shared so both cut text the same way.
 */

/** The letters of those scripts, and the long-vowel mark ー (Common script, but only ever inside katakana words). */
const UNSPACED_LETTER = '[\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}\\p{Script=Thai}\\p{Script=Lao}\\p{Script=Khmer}\\p{Script=Myanmar}\\u30fc]';

/** A maximal run of such letters, with the marks that belong to them (Thai vowels and tones, combining kana voicing). */
const UNSPACED_RUN = new RegExp(`(?:${UNSPACED_LETTER}\\p{M}*)+`, 'gu');
const UNSPACED_ANY = new RegExp(UNSPACED_LETTER, 'u');

/** True when `text` has a letter of a script written without spaces. */
export function hasUnspacedText(text: string): boolean {
  return UNSPACED_ANY.test(text);
}

/** The runs of unspaced-script text in `text`, in order, with where each starts (UTF-16 offset). */
export function unspacedRuns(text: string): Array<{ text: string; index: number }> {
  if (!UNSPACED_ANY.test(text)) return [];
  return [...text.matchAll(UNSPACED_RUN)].map((m) => ({ text: m[0], index: m.index }));
}

/** `text` with every unspaced-script run replaced by one space (what is left is spaced text, searched as words). */
export function withoutUnspacedRuns(text: string): string {
  return UNSPACED_ANY.test(text) ? text.replace(UNSPACED_RUN, ' ') : text;
}
