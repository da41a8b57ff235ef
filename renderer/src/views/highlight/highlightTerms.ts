import { stemmer } from 'stemmer';
import { halfWidthKatakana, hasUnspacedText, STOPWORDS, unspacedRuns } from '../../../../core/src/contract/index.js';

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

/**
 * The stems of the query words search matches on: stop words ("is", "the", "what") never are.
 * Runs of scripts written without spaces (再処理, ข้าว) are kept as typed: search finds them
 * inside longer runs, and so are they marked.
 */
export function queryStems(query: string): Set<string> {
  const stems = new Set<string>();
  for (const [word] of query.matchAll(WORD)) {
    const lower = word.toLowerCase().replace(/['’]/g, '');
    if (lower.length < 2 || STOPWORDS.has(lower)) continue;
    stems.add(stemOf(lower));
  }
  for (const run of unspacedRuns(query.normalize('NFKC').toLowerCase())) stems.add(run.text).add(halfWidthKatakana(run.text));
  return stems;
}

/** Splits `text` into plain and matched pieces: whole words whose stem is a query word's ("upgrades" for "upgrading"). */
export function highlightTerms(text: string, query: string | ReadonlySet<string>): TextPiece[] {
  const stems = typeof query === 'string' ? queryStems(query) : query;
  if (stems.size === 0 || text === '') return [{ text, isMatch: false }];
  const pieces: TextPiece[] = [];
  let last = 0;
  for (const [start, end] of matchedSpans(text, stems)) {
    if (start > last) pieces.push({ text: text.slice(last, start), isMatch: false });
    pieces.push({ text: text.slice(start, end), isMatch: true });
    last = end;
  }
  if (last < text.length) pieces.push({ text: text.slice(last), isMatch: false });
  return pieces.length > 0 ? pieces : [{ text, isMatch: false }];
}

/** True when a line holds a word of the query. */
export function hasMatch(text: string, stems: ReadonlySet<string>): boolean {
  if (stems.size === 0) return false;
  for (const [word] of text.matchAll(WORD)) if (stems.has(stemOf(word))) return true;
  return unspacedIn(stems).some((run) => text.toLowerCase().includes(run));
}

/** Where the query matches in `text`, in order, never overlapping: whole words by stem, unspaced runs wherever they occur. */
function matchedSpans(text: string, stems: ReadonlySet<string>): Array<[number, number]> {
  const spans: Array<[number, number]> = [];
  for (const match of text.matchAll(WORD)) {
    if (stems.has(stemOf(match[0]))) spans.push([match.index, match.index + match[0].length]);
    else if (hasUnspacedText(match[0])) spans.push(...gluedWords(match[0], match.index, stems));
  }
  const runs = unspacedIn(stems);
  if (runs.length === 0) return spans;
  // Offsets must stay the text's: a capital that lower-cases to two units ("İ") keeps the text as it is.
  const lower = text.toLowerCase().length === text.length ? text.toLowerCase() : text;
  for (const run of runs) {
    for (let at = lower.indexOf(run); at >= 0; at = lower.indexOf(run, at + run.length)) spans.push([at, at + run.length]);
  }
  spans.sort((a, b) => a[0] - b[0] || b[1] - a[1]);
  const merged: Array<[number, number]> = [];
  for (const span of spans) {
    const prev = merged[merged.length - 1];
    if (prev && span[0] <= prev[1]) prev[1] = Math.max(prev[1], span[1]);
    else merged.push([span[0], span[1]]);
  }
  return merged;
}

/** The query's words written against an unspaced run ("Kestrel" in "Kestrelの再処理"), which search finds too. */
function gluedWords(token: string, offset: number, stems: ReadonlySet<string>): Array<[number, number]> {
  const spans: Array<[number, number]> = [];
  let at = 0;
  for (const run of [...unspacedRuns(token), { text: '', index: token.length }]) {
    const piece = token.slice(at, run.index);
    if (piece && stems.has(stemOf(piece))) spans.push([offset + at, offset + run.index]);
    at = run.index + run.text.length;
  }
  return spans;
}

function unspacedIn(stems: ReadonlySet<string>): string[] {
  return [...stems].filter(hasUnspacedText);
}
