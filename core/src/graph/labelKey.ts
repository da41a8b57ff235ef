const ASCII = /^[\t\n\r\x20-\x7e]*$/;
/** Latin, Greek and Cyrillic letters followed by combining marks: the marks are diacritics there. */
const DIACRITIC_AFTER_CASED_LETTER = /([\p{Script=Latin}\p{Script=Greek}\p{Script=Cyrillic}])\p{M}+/gu;

/**
 * Keys already computed: an extraction asks for the same few thousand names' keys ~10 times per
 * mention (labels, lookups, votes). Emptied when full, so memory stays bounded on any workspace.
 * Labels and keys are kept as copies of their own (ownCopy): a label cut from a note's text
 * shares that text, and 20,000 of them kept every note read since the last emptying alive.
 */
const KEYS = new Map<string, string>();
const KEYS_LIMIT = 20_000;
/** Longer labels (a literal, a headline) are rarely asked twice: not kept. */
const KEYED_LABEL_MAX = 80;

/**
 * The key entities merge on: case, spacing and diacritics folded. Marks are only stripped
 * after cased-script letters, where they are accents; in Devanagari or Thai they are vowels.
 */
export function labelKey(label: string): string {
  if (label.length > KEYED_LABEL_MAX) return foldedKey(label);
  let key = KEYS.get(label);
  if (key === undefined) {
    if (KEYS.size >= KEYS_LIMIT) KEYS.clear();
    const own = ownCopy(label);
    // Folded from the copy: a key equal to its label is that copy, any other a new string.
    key = foldedKey(own);
    KEYS.set(own, key);
  }
  return key;
}

/** V8 copies shorter substrings (SlicedString::kMinLength): they hold nothing else alive. */
const V8_SLICE_MIN_LENGTH = 13;

/**
 * The string's characters in a string of their own. V8 makes a substring of 13 characters or
 * more a view into its parent (and lowercasing a lowercase string returns it as it is), so a
 * remembered label or key kept its whole note alive: ~5 MB more heap per 1,000 notes extracted
 * (the extraction thread's heap grew from 17 to 47 MB over 5,000 notes). JSON.parse always
 * builds a new string.
 */
function ownCopy(text: string): string {
  return text.length < V8_SLICE_MIN_LENGTH ? text : (JSON.parse(JSON.stringify(text)) as string);
}

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
