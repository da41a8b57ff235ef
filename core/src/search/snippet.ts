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
  const matcher = buildMatcher(terms);
  const { starts, lengths, count } = lineLayout(chunkText);
  // 1: the line may be shown and matched; 2: it may also start or extend the matched run (inside `within`).
  const usable = new Uint8Array(count);
  for (let i = 0; i < count; i++) {
    const line = chunkStartLine + i;
    if (exclude?.has(line)) continue;
    usable[i] = !within || (line >= within.startLine && line <= within.endLine) ? 2 : 1;
  }
  const found = termsOfLines(chunkText, starts, count, chunkStartLine, terms, path, exclude ? usable : null);
  // A line that asks keeps room for the next line, its answer: worked out when first needed (-1 until then).
  const rooms = new Int32Array(count).fill(-1);
  const answerRoom = (i: number): number => {
    if (rooms[i]! < 0) {
      rooms[i] = i + 1 < count && usable[i + 1]! > 0 && found[i]!.length > 0 && asks(chunkText.slice(starts[i]!, starts[i]! + lengths[i]!)) ? lengths[i + 1]! + 1 : 0;
    }
    return rooms[i]!;
  };

  // Every run of consecutive lines that fits: the most distinct query weight (repeats add a
  // little), the longer run on a tie. Runs start on a matching line (or the first line when
  // nothing matches).
  let bestFrom = -1;
  let bestTo = -1;
  let bestValue = -1;
  let bestChars = 0;
  const counts = new Int32Array(terms.length);
  for (let from = 0; from < count; from++) {
    if (usable[from] !== 2 || (found[from]!.length === 0 && bestFrom >= 0)) continue;
    counts.fill(0);
    let distinct = 0;
    let repeats = 0;
    let chars = -1;
    for (let to = from; to < count && usable[to] === 2; to++) {
      chars += lengths[to]! + 1;
      const matched = found[to]!;
      if (to > from && chars + (matched.length > 0 ? answerRoom(to) : 0) > maxChars) break;
      for (const t of matched) {
        if (counts[t]!++ === 0) distinct += terms[t]!.weight;
        else repeats += terms[t]!.weight;
      }
      const value = distinct + REPEAT_SHARE * repeats;
      // On a tie the longer run wins: answers are usually the long, informative lines, while a
      // short neighbour often just repeats the question's words.
      if (value > bestValue + 1e-9 || (Math.abs(value - bestValue) <= 1e-9 && chars > bestChars && matched.length > 0)) {
        bestFrom = from;
        bestTo = to;
        bestValue = value;
        bestChars = chars;
      }
    }
  }
  if (bestFrom < 0) return { text: '', startLine: chunkStartLine, endLine: chunkStartLine, matchedWeight: 0 };
  while (bestFrom < bestTo && found[bestFrom]!.length === 0) bestFrom++;
  // Drop lines at the end that match nothing: the citation should point at what matched.
  while (bestTo > bestFrom && found[bestTo]!.length === 0) bestTo--;
  const covered = new Set<number>();
  for (let i = bestFrom; i <= bestTo; i++) for (const t of found[i]!) covered.add(t);
  const matchedWeight = [...covered].reduce((n, t) => n + terms[t]!.weight, 0);

  let size = starts[bestTo]! + lengths[bestTo]! - starts[bestFrom]! + 1;
  const fits = (i: number): number => (i >= 0 && i < count && usable[i]! > 0 ? lengths[i]! + 1 : Infinity);
  // The answer to a question on the last line comes first.
  if (answerRoom(bestTo) > 0 && size + fits(bestTo + 1) <= maxChars) size += fits(++bestTo);
  // A lone matching line reads poorly: widen with neighbours up to a modest size.
  while (size < contextChars) {
    const next = fits(bestTo + 1);
    const prev = fits(bestFrom - 1);
    if (Math.min(next, prev) === Infinity || size + Math.min(next, prev) > maxChars) break;
    if (next <= prev) bestTo++;
    else bestFrom--;
    size += Math.min(next, prev);
  }

  let text = chunkText.slice(starts[bestFrom]!, starts[bestTo]! + lengths[bestTo]!);
  const cut = text.length > maxChars;
  if (cut) text = cutAroundFirstMatch(text, matcher, maxChars);
  return { text, startLine: chunkStartLine + bestFrom, endLine: chunkStartLine + bestTo, matchedWeight, cut };
}

/**
 * The query weight each line of a chunk matches on its own (the sum of the distinct terms it
 * holds, date terms included), for choosing lines one by one rather than a window. `lines` is a
 * text split at its newlines.
 */
export function lineWeights(lines: readonly string[], chunkStartLine: number, terms: readonly SnippetTerm[], path?: string): number[] {
  const text = lines.join('\n');
  const { starts, count } = lineLayout(text);
  return termsOfLines(text, starts, count, chunkStartLine, terms, path, null).map((f) => f.reduce((n, t) => n + terms[t]!.weight, 0));
}

/** Where each line of `text` starts and how long it is, as `split('\n')` would cut it. */
function lineLayout(text: string): { starts: number[]; lengths: number[]; count: number } {
  const starts = [0];
  const lengths: number[] = [];
  for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) {
    lengths.push(at - starts[starts.length - 1]!);
    starts.push(at + 1);
  }
  lengths.push(text.length - starts[starts.length - 1]!);
  return { starts, lengths, count: starts.length };
}

/** A line that matches nothing: shared, never written to. */
const NO_TERMS: readonly number[] = Object.freeze([]);

/**
 * The indexes of the terms each line matches (none for a line `usable` leaves out), in the
 * order they are met, then the date terms. The whole text is folded and scanned at once: a
 * fold and a pattern pass per line cost more than the matching itself on the ~30 candidates of
 * every search. Not remembered between calls: keeping them alive for a whole search cost more
 * in garbage collection than matching again.
 */
function termsOfLines(
  text: string,
  starts: readonly number[],
  count: number,
  chunkStartLine: number,
  terms: readonly SnippetTerm[],
  path: string | undefined,
  usable: Uint8Array | null,
): Array<readonly number[]> {
  const matcher = buildMatcher(terms);
  const found: Array<readonly number[]> = [];
  for (let i = 0; i < count; i++) found.push(NO_TERMS);
  const regex = matcher.lineRegex;
  if (regex) {
    const folded = foldLines(text, starts, count);
    regex.lastIndex = 0;
    let line = 0;
    for (let m = nextWordStart(folded, regex, matcher.unspacedForms); m; m = nextWordStart(folded, regex, matcher.unspacedForms)) {
      while (line + 1 < count && starts[line + 1]! <= m.index) line++;
      if (usable && usable[line] === 0) continue;
      const term = matcher.formToTerm.get(m[0]);
      if (term === undefined) continue;
      const f = found[line]!;
      if (f === NO_TERMS) found[line] = [term];
      else if (!f.includes(term)) (f as number[]).push(term);
    }
  }
  if (path !== undefined) {
    for (let index = 0; index < terms.length; index++) {
      const marked = terms[index]!.lines?.get(path);
      if (!marked) continue;
      for (let i = 0; i < count; i++) {
        if ((usable && usable[i] === 0) || !marked.has(chunkStartLine + i)) continue;
        const f = found[i]!;
        if (f === NO_TERMS) found[i] = [index];
        else (f as number[]).push(index);
      }
    }
  }
  return found;
}

/**
 * `fold` of every line, joined again (folding keeps lengths, so offsets stay valid). Runs of
 * lines holding only ASCII and inert characters are lower-cased at once: their characters fold
 * without regard to their neighbours.
 */
function foldLines(text: string, starts: readonly number[], count: number): string {
  NON_ASCII_RUN.lastIndex = 0;
  let run = NON_ASCII_RUN.exec(text);
  if (!run) return text.toLowerCase();
  const parts: string[] = [];
  let plainFrom = 0;
  let line = 0;
  for (; run; run = NON_ASCII_RUN.exec(text)) {
    if (onlyInertBeyondAscii(run[0])) continue;
    while (line + 1 < count && starts[line + 1]! <= run.index) line++;
    const end = line + 1 < count ? starts[line + 1]! - 1 : text.length;
    parts.push(text.slice(plainFrom, starts[line]).toLowerCase(), fold(text.slice(starts[line], end)));
    plainFrom = end;
    NON_ASCII_RUN.lastIndex = end;
  }
  parts.push(text.slice(plainFrom).toLowerCase());
  return parts.join('');
}

const NON_ASCII_RUN = /[^\x00-\x7f]+/g; // eslint-disable-line no-control-regex -- "beyond ASCII" is exactly a range from NUL

/**
 * Whether a line ends by asking something (a trailing bracketed note, such as an attachment's
 * caption or a link, does not count as the end). A '?' anywhere in the line ("What are their
 * names? Pets bring joy!") was measured with budget packing on LoCoMo folds 0–1: @1,500 / @3,500
 * 77.4 / 85.0 → 77.2 / 85.0 (fold 0 −0.4 / +0.2, fold 1 0 / −0.3), and it would change whole
 * results: not kept. The packer's own line rating already counts a '?' anywhere (lineValue.ts).
 */
export function asks(line: string): boolean {
  // Most lines hold no '?': the pattern, unanchored, would try every position.
  return line.includes('?') && /\?[\s"'”’)\]]*(?:\[[^\]]*\])?\s*$/.test(line);
}

interface Matcher {
  regex: RegExp | null;
  /**
   * The pattern without forms holding a newline (none can match inside one line): a match of
   * this one never crosses a line, so a whole chunk is scanned at once. Usually `regex` itself.
   */
  lineRegex: RegExp | null;
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
  const regex = forms.length ? new RegExp(forms.join('|'), 'g') : null;
  const lineForms = forms.filter((f) => !f.includes('\n'));
  const lineRegex = lineForms.length === forms.length ? regex : lineForms.length ? new RegExp(lineForms.join('|'), 'g') : null;
  return { regex, lineRegex, formToTerm, unspacedForms: new Set([...formToTerm.keys()].filter(hasUnspacedText)) };
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
