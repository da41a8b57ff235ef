import { MAX_SNIPPET_CHARS } from '../contract/records/searchRecords.js';
import { hasUnspacedText } from '../contract/unspacedScripts.js';

/**
 * Line-focused snippets: the run of consecutive lines (at most `maxChars`) that covers the most
 * query weight, so a cited `path:start-end` points at the lines that matched. When the last of
 * those lines asks a question, room is kept for the line after it: that is where the answer is.
 */
export interface SnippetTerm {
  /** Forms to look for at the start of a word (the typed word and its stem). */
  forms: string[];
  weight: number;
  /** Lines (by path, 1-based) that count as matching this term whatever their words: lines whose resolved date fits the query's. */
  lines?: ReadonlyMap<string, ReadonlySet<number>>;
}

export interface Snippet {
  text: string;
  startLine: number;
  endLine: number;
  /** Query weight matched inside the snippet's lines (the sum of matched terms' weights). */
  matchedWeight: number;
  /** True when one line was longer than the room and was cut (marked with "…"). */
  cut?: boolean;
}

export interface SnippetOptions {
  maxChars?: number;
  /** Absolute line numbers already shown by a better result: never shown again, never matched. */
  exclude?: ReadonlySet<number>;
  /** Absolute line range the matched lines must come from (the snippet may still widen beyond it). */
  within?: { startLine: number; endLine: number };
  /** Neighbouring lines are added until the snippet is about this long (0: only the matched lines and an answer line). */
  contextChars?: number;
  /** The chunk's file, for terms that match given lines (SnippetTerm.lines). */
  path?: string;
}

/** Snippets grow with surrounding lines until about this size. */
const CONTEXT_CHARS = 280;
/**
 * A query word seen again on another line of the window adds this share of its weight: a
 * window covering more of the query beats one repeating a word, but among windows covering the
 * same words the one where they recur (the lines keep talking about it) wins.
 */
const REPEAT_SHARE = 0.3;

export function buildSnippet(chunkText: string, chunkStartLine: number, terms: readonly SnippetTerm[], options: SnippetOptions = {}): Snippet {
  const { maxChars = MAX_SNIPPET_CHARS, exclude, within, contextChars = CONTEXT_CHARS, path } = options;
  const lines = chunkText.split('\n');
  const matcher = buildMatcher(terms);
  const allowed = lines.map((_, i) => !exclude?.has(chunkStartLine + i));
  const found = termsOfLines(lines, chunkStartLine, terms, path, allowed);
  // A line that asks keeps room for the next line, its answer.
  const answerRoom = lines.map((line, i) => (i + 1 < lines.length && allowed[i + 1] && found[i]!.length > 0 && asks(line) ? lines[i + 1]!.length + 1 : 0));
  const canMatch = (i: number): boolean =>
    allowed[i]! && (!within || (chunkStartLine + i >= within.startLine && chunkStartLine + i <= within.endLine));

  // Every run of consecutive lines that fits: the most distinct query weight (repeats add a
  // little), the longer run on a tie. Runs start on a matching line (or the first line when
  // nothing matches).
  let best = { from: -1, to: -1, value: -1, chars: 0 };
  const counts = new Int32Array(terms.length);
  for (let from = 0; from < lines.length; from++) {
    if (!canMatch(from) || (found[from]!.length === 0 && best.from >= 0)) continue;
    counts.fill(0);
    let distinct = 0;
    let repeats = 0;
    let chars = -1;
    for (let to = from; to < lines.length && canMatch(to); to++) {
      chars += lines[to]!.length + 1;
      if (chars + answerRoom[to]! > maxChars && to > from) break;
      for (const t of found[to]!) {
        if (counts[t]!++ === 0) distinct += terms[t]!.weight;
        else repeats += terms[t]!.weight;
      }
      const value = distinct + REPEAT_SHARE * repeats;
      // On a tie the longer run wins: answers are usually the long, informative lines, while a
      // short neighbour often just repeats the question's words.
      if (value > best.value + 1e-9 || (Math.abs(value - best.value) <= 1e-9 && chars > best.chars && found[to]!.length > 0)) {
        best = { from, to, value, chars };
      }
    }
  }
  if (best.from < 0) return { text: '', startLine: chunkStartLine, endLine: chunkStartLine, matchedWeight: 0 };
  while (best.from < best.to && found[best.from]!.length === 0) best.from++;
  // Drop lines at the end that match nothing: the citation should point at what matched.
  while (best.to > best.from && found[best.to]!.length === 0) best.to--;
  const covered = new Set<number>();
  for (let i = best.from; i <= best.to; i++) for (const t of found[i]!) covered.add(t);
  const matchedWeight = [...covered].reduce((n, t) => n + terms[t]!.weight, 0);

  let size = lines.slice(best.from, best.to + 1).reduce((n, l) => n + l.length + 1, 0);
  const fits = (i: number): number => (i >= 0 && i < lines.length && allowed[i] ? lines[i]!.length + 1 : Infinity);
  // The answer to a question on the last line comes first.
  if (answerRoom[best.to]! > 0 && size + fits(best.to + 1) <= maxChars) size += fits(++best.to);
  // A lone matching line reads poorly: widen with neighbours up to a modest size.
  while (size < contextChars) {
    const next = fits(best.to + 1);
    const prev = fits(best.from - 1);
    if (Math.min(next, prev) === Infinity || size + Math.min(next, prev) > maxChars) break;
    if (next <= prev) best.to++;
    else best.from--;
    size += Math.min(next, prev);
  }

  let text = lines.slice(best.from, best.to + 1).join('\n');
  const cut = text.length > maxChars;
  if (cut) text = cutAroundFirstMatch(text, matcher, maxChars);
  return { text, startLine: chunkStartLine + best.from, endLine: chunkStartLine + best.to, matchedWeight, cut };
}

/**
 * The query weight each line of a chunk matches on its own (the sum of the distinct terms it
 * holds, date terms included), for choosing lines one by one rather than a window.
 */
export function lineWeights(lines: readonly string[], chunkStartLine: number, terms: readonly SnippetTerm[], path?: string): number[] {
  return termsOfLines(lines, chunkStartLine, terms, path).map((f) => f.reduce((n, t) => n + terms[t]!.weight, 0));
}

/**
 * The indexes of the terms each line matches (none for a line `allowed` leaves out). Not
 * remembered between calls: keeping them alive for a whole search cost more in garbage
 * collection than matching again.
 */
function termsOfLines(lines: readonly string[], chunkStartLine: number, terms: readonly SnippetTerm[], path: string | undefined, allowed?: readonly boolean[]): number[][] {
  const matcher = buildMatcher(terms);
  const found = lines.map((line, i) => (!allowed || allowed[i] ? termsIn(line, matcher) : []));
  if (path !== undefined) {
    terms.forEach((t, index) => {
      const marked = t.lines?.get(path);
      if (!marked) return;
      found.forEach((f, i) => {
        if ((!allowed || allowed[i]) && marked.has(chunkStartLine + i)) f.push(index);
      });
    });
  }
  return found;
}

/**
 * Whether a line ends by asking something (a trailing bracketed note, such as an attachment's
 * caption or a link, does not count as the end). A '?' anywhere in the line ("What are their
 * names? Pets bring joy!") was measured with budget packing on LoCoMo folds 0–1: @1,500 / @3,500
 * 77.4 / 85.0 → 77.2 / 85.0 (fold 0 −0.4 / +0.2, fold 1 0 / −0.3), and it would change whole
 * results: not kept. The packer's own line rating already counts a '?' anywhere (lineValue.ts).
 */
export function asks(line: string): boolean {
  return /\?[\s"'”’)\]]*(?:\[[^\]]*\])?\s*$/.test(line);
}

interface Matcher {
  regex: RegExp | null;
  formToTerm: Map<string, number>;
  /** The forms written in an unspaced script (they match inside a word too), looked up once per query rather than once per match. */
  unspacedForms: ReadonlySet<string>;
}

/** One query's terms are matched against every candidate chunk: compile their pattern once. */
const matchers = new WeakMap<readonly SnippetTerm[], Matcher>();

function buildMatcher(terms: readonly SnippetTerm[]): Matcher {
  const cached = matchers.get(terms);
  if (cached) return cached;
  const matcher = compileMatcher(terms);
  matchers.set(terms, matcher);
  return matcher;
}

function compileMatcher(terms: readonly SnippetTerm[]): Matcher {
  const formToTerm = new Map<string, number>();
  terms.forEach((t, i) => t.forms.forEach((form) => {
    const f = fold(form); // as the lines are (a query's kana keep their voicing marks, the lines' lose them)
    if (f && !formToTerm.has(f)) formToTerm.set(f, i);
  }));
  const forms = [...formToTerm.keys()].sort((a, b) => b.length - a.length).map(escapeRegex);
  // Lines are folded to lower case before matching, and a word start is checked by hand: the
  // 'iu' flags and a Unicode lookbehind made this pattern twice as slow, and snippets of every
  // candidate are scored on every search.
  return { regex: forms.length ? new RegExp(forms.join('|'), 'g') : null, formToTerm, unspacedForms: new Set([...formToTerm.keys()].filter(hasUnspacedText)) };
}

/**
 * The next match of a form in `folded` at the start of a word (not right after a letter or
 * digit), or null. A run of an unspaced script (Japanese, Chinese, Thai) matches anywhere: its
 * words have nothing between them.
 */
function nextWordStart(folded: string, regex: RegExp, unspacedForms: ReadonlySet<string>): RegExpExecArray | null {
  for (let m = regex.exec(folded); m; m = regex.exec(folded)) {
    // A match is always one of the forms: whether it is unspaced was worked out with the pattern.
    if (m.index === 0 || !wordCharBefore(folded, m.index) || (unspacedForms.size > 0 && unspacedForms.has(m[0]))) return m;
    regex.lastIndex = m.index + 1;
  }
  return null;
}

/** Whether a letter or digit ends `text` before `at`: by character code for ASCII (nearly every line), else by the Unicode rule. */
function wordCharBefore(text: string, at: number): boolean {
  const c = text.charCodeAt(at - 1);
  if (c < 0x80) return (c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a);
  return WORD_CHAR_BEFORE.test(text.slice(Math.max(0, at - 2), at));
}

function termsIn(line: string, matcher: Matcher): number[] {
  const { regex } = matcher;
  if (!regex) return [];
  const folded = fold(line);
  const found: number[] = [];
  regex.lastIndex = 0;
  for (let m = nextWordStart(folded, regex, matcher.unspacedForms); m; m = nextWordStart(folded, regex, matcher.unspacedForms)) {
    const term = matcher.formToTerm.get(m[0]);
    if (term !== undefined && !found.includes(term)) found.push(term);
  }
  return found;
}

function cutAroundFirstMatch(text: string, matcher: Matcher, maxChars: number): string {
  let first = -1;
  if (matcher.regex) {
    matcher.regex.lastIndex = 0;
    first = nextWordStart(fold(text), matcher.regex, matcher.unspacedForms)?.index ?? -1;
  }
  const start = Math.max(0, Math.min(first < 0 ? 0 : first - Math.floor(maxChars / 4), text.length - maxChars + 2));
  let piece = text.slice(start, start + maxChars - 2);
  // Do not leave half a surrogate pair at either end.
  if (/^[\uDC00-\uDFFF]/.test(piece)) piece = piece.slice(1);
  if (/[\uD800-\uDBFF]$/.test(piece)) piece = piece.slice(0, -1);
  return (start > 0 ? '…' : '') + piece + (start + maxChars - 2 < text.length ? '…' : '');
}

/** Lower-case, strip diacritics and narrow full-width letters without changing string length (so offsets stay valid). */
function fold(text: string): string {
  // Plain ASCII (most lines) has no diacritics to strip: skip the two normalisations. So does
  // text whose other characters are inert (dashes, arrows, quotes).
  if (ASCII_ONLY.test(text) || onlyInertBeyondAscii(text)) return text.toLowerCase();
  // Full-width ＡＰＩ is searched as API (queries are NFKC-folded): one UTF-16 unit each way.
  const lower = text.replace(FULL_WIDTH_ASCII, (c) => String.fromCharCode(c.charCodeAt(0) - 0xfee0)).toLowerCase();
  // A few capitals lower-case to two characters ("İ"): lower-case the rest one by one.
  if (lower.length !== text.length) return text.replace(/[^]/gu, (c) => (c.toLowerCase().length === c.length ? c.toLowerCase() : c));
  const stripped = lower.normalize('NFD').replace(/\p{M}/gu, '').normalize('NFC');
  return stripped.length === text.length ? stripped : lower;
}

const FULL_WIDTH_ASCII = /[\uff01-\uff5e]/g;

/** Whether each character code beyond ASCII met so far is inert (see `isInert`). */
const inertChars = new Map<number, boolean>();

/** Whether every character of `text` is ASCII or inert: then folding it is only lower-casing it. */
function onlyInertBeyondAscii(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) continue;
    let inert = inertChars.get(c);
    if (inert === undefined) {
      inert = isInert(c);
      if (inertChars.size < 4096) inertChars.set(c, inert);
    }
    if (!inert) return false;
  }
  return true;
}

/**
 * A character `fold` leaves as it is whatever surrounds it: no case, no canonical
 * decomposition, not a mark (marks are stripped and combine), not full-width ASCII, not a half of
 * a surrogate pair, not Hangul (jamo compose with their neighbours without being marks).
 */
function isInert(code: number): boolean {
  if ((code >= 0xd800 && code <= 0xdfff) || (code >= 0xff01 && code <= 0xff5e)) return false;
  if ((code >= 0x1100 && code <= 0x11ff) || (code >= 0x3130 && code <= 0x318f) || (code >= 0xa960 && code <= 0xa97f) || (code >= 0xac00 && code <= 0xd7ff)) return false;
  const c = String.fromCharCode(code);
  return c.toLowerCase() === c && c.normalize('NFD') === c && c.normalize('NFC') === c && !/\p{M}/u.test(c);
}

/** A letter or digit ends the text (one or two code units: astral letters are surrogate pairs). */
const WORD_CHAR_BEFORE = /[\p{L}\p{N}]$/u;

// eslint-disable-next-line no-control-regex -- "every character is ASCII" is exactly a range from NUL
const ASCII_ONLY = /^[\x00-\x7f]*$/;

function escapeRegex(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
