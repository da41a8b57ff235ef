import { stemmer } from 'stemmer';
import { STOPWORDS } from '../../../../core/src/contract/index.js';

/** A piece of text, marked when it is a word the person searched for. */
export interface TextPiece {
  text: string;
  isMatch: boolean;
}

// The engine's word: letters and digits of any script, with an apostrophe inside ("don't").
const WORD = /[\p{L}\p{N}]+(?:['’][\p{L}]+)?/gu;

/** A word as search compares it: lower case, apostrophes dropped, Porter-stemmed when it is plain English. */
export function stemOf(word: string): string {
  const lower = word.normalize('NFKC').toLowerCase().replace(/['’]/g, '');
  // The Porter stemmer only knows ASCII English (as in core/src/search/queryTerms.ts); other words stay whole.
  return /^[a-z]+$/.test(lower) ? stemmer(lower) : lower.normalize('NFD').replace(/\p{M}/gu, '');
}

/** The stems of the query words search matches on: stop words ("is", "the", "what") never are. */
export function queryStems(query: string): Set<string> {
  const stems = new Set<string>();
  for (const [word] of query.matchAll(WORD)) {
    const lower = word.toLowerCase().replace(/['’]/g, '');
    if (lower.length < 2 || STOPWORDS.has(lower)) continue;
    stems.add(stemOf(lower));
  }
  return stems;
}

/** Splits `text` into plain and matched pieces: whole words whose stem is a query word's ("upgrades" for "upgrading"). */
export function highlightTerms(text: string, query: string | ReadonlySet<string>): TextPiece[] {
  const stems = typeof query === 'string' ? queryStems(query) : query;
  if (stems.size === 0 || text === '') return [{ text, isMatch: false }];
  const pieces: TextPiece[] = [];
  let last = 0;
  for (const match of text.matchAll(WORD)) {
    if (!stems.has(stemOf(match[0]))) continue;
    if (match.index > last) pieces.push({ text: text.slice(last, match.index), isMatch: false });
    pieces.push({ text: match[0], isMatch: true });
    last = match.index + match[0].length;
  }
  if (last < text.length) pieces.push({ text: text.slice(last), isMatch: false });
  return pieces.length > 0 ? pieces : [{ text, isMatch: false }];
}

/** True when a line holds a word of the query. */
export function hasMatch(text: string, stems: ReadonlySet<string>): boolean {
  if (stems.size === 0) return false;
  for (const [word] of text.matchAll(WORD)) if (stems.has(stemOf(word))) return true;
  return false;
}
