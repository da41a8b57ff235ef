import { rememberedByWord } from './wordMemo.js';

const ASCII = /^[\t\n\r\x20-\x7e]*$/;
/** Latin, Greek and Cyrillic letters followed by combining marks: the marks are diacritics there. */
const DIACRITIC_AFTER_CASED_LETTER = /([\p{Script=Latin}\p{Script=Greek}\p{Script=Cyrillic}])\p{M}+/gu;

/**
 * The key entities merge on: case, spacing and diacritics folded. Marks are only stripped
 * after cased-script letters, where they are accents; in Devanagari or Thai they are vowels.
 * Remembered: an extraction asks for the same few thousand names' keys ~10 times per mention
 * (labels, lookups, votes).
 */
export const labelKey: (label: string) => string = rememberedByWord(foldedKey);

function foldedKey(label: string): string {
  // ASCII has nothing to decompose or fold but case (most labels: a fast path).
  if (ASCII.test(label)) return label.toLowerCase().replace(/\s+/g, ' ').trim();
  return label
    .normalize('NFKD')
    .replace(DIACRITIC_AFTER_CASED_LETTER, '$1')
    .normalize('NFC')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim();
}

/** A label as shown: spacing collapsed, never otherwise changed (scripts, emoji, RTL kept). */
export function cleanLabel(label: string): string {
  return label.replace(/\s+/g, ' ').trim();
}
