/** A piece of text, marked when it is (part of) a word the person searched for. */
export interface TextPiece {
  text: string;
  isMatch: boolean;
}

const WORD = /[\p{L}\p{N}]+/gu;
// The engine stems words (upgrading → upgrad), so the UI marks words that start with a crude stem too.
const SUFFIXES = ['ing', 'ed', 'es', 's'];

function formsOf(word: string): string[] {
  const forms = [word];
  for (const suffix of SUFFIXES) {
    if (word.length - suffix.length >= 4 && word.endsWith(suffix)) {
      forms.push(word.slice(0, -suffix.length));
      break;
    }
  }
  return forms;
}

/** Splits `text` into plain and matched pieces for the words of `query` (whole words from their start). */
export function highlightTerms(text: string, query: string): TextPiece[] {
  const words = [...new Set((query.toLowerCase().match(WORD) ?? []).filter((w) => w.length >= 2))];
  if (words.length === 0 || text === '') return [{ text, isMatch: false }];
  const forms = [...new Set(words.flatMap(formsOf))]
    .sort((a, b) => b.length - a.length)
    .map((f) => f.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  const matcher = new RegExp(`(?<![\\p{L}\\p{N}])(?:${forms.join('|')})[\\p{L}\\p{N}]*`, 'giu');
  const pieces: TextPiece[] = [];
  let last = 0;
  for (const match of text.matchAll(matcher)) {
    const start = match.index;
    if (start > last) pieces.push({ text: text.slice(last, start), isMatch: false });
    pieces.push({ text: match[0], isMatch: true });
    last = start + match[0].length;
  }
  if (last < text.length) pieces.push({ text: text.slice(last), isMatch: false });
  return pieces;
}
