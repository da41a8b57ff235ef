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

/** Full-width katakana (and its voiced forms) to the half-width spelling NFKC folds back: ジョブ → ｼﾞｮﾌﾞ. */
let toHalfWidth: Map<string, string> | null = null;

/**
 * `text` with its katakana written half-width, as some notes are (ｼﾞｮﾌﾞ): search folds both to
 * full width, but a snippet or a highlight must find the characters as the note has them.
 */
export function halfWidthKatakana(text: string): string {
  if (!/\p{Script=Katakana}|\u30fc/u.test(text)) return text;
  toHalfWidth ??= halfWidthTable();
  const table = toHalfWidth;
  return text.replace(/[^]/gu, (c) => table.get(c) ?? c);
}

function halfWidthTable(): Map<string, string> {
  const table = new Map<string, string>();
  for (let code = 0xff61; code <= 0xff9d; code++) {
    const half = String.fromCharCode(code);
    const full = half.normalize('NFKC');
    if (full === half || table.has(full)) continue;
    table.set(full, half);
    // Voiced (ガ) and semi-voiced (パ) forms are the base and a separate half-width mark.
    for (const [mark, halfMark] of [['\u3099', '\uff9e'], ['\u309a', '\uff9f']] as const) {
      const voiced = (full + mark).normalize('NFC');
      if (voiced.length === 1) table.set(voiced, half + halfMark);
    }
  }
  return table;
}
