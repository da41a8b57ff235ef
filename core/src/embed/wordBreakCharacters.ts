/**
 * Non-ASCII characters that only ever separate words in a hash embedding (hashProvider.ts): a
 * dash, a curly quote, an ellipsis, a bullet. The embedding reads words from the text's NFKC
 * form, lowercased; a character is a plain break when that form of it holds no letter, digit or
 * combining mark (so it is itself a break and cannot join, or be joined by, its neighbours) and
 * no surrogate. Text made of ASCII and such characters has the same words whether it is
 * normalised first or not, which lets nearly every chunk skip the normalisation and the
 * Unicode regex. Decided once per character, on first sight.
 */
const UNKNOWN = 0;
const BREAK = 1;
const NOT_BREAK = 2;
const verdicts = new Uint8Array(0x10000);
const WORDLIKE = /[\p{L}\p{N}\p{M}\p{Cs}]/u;

/** Whether the UTF-16 code unit `code` (≥ 0x80) is a plain word break in every context. */
export function isPlainWordBreak(code: number): boolean {
  let verdict = verdicts[code]!;
  if (verdict === UNKNOWN) {
    const char = String.fromCharCode(code);
    verdict = WORDLIKE.test(char) || WORDLIKE.test(char.normalize('NFKC').toLowerCase()) ? NOT_BREAK : BREAK;
    verdicts[code] = verdict;
  }
  return verdict === BREAK;
}
