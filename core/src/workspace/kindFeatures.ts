/**
 * The features the statistical kind scorer (kindScorer.ts) reads from a line: its words and word
 * pairs, its first and last words, and its shape (a question mark, a checkbox, a label before a
 * colon, a date). One function, so the training script and the scorer can never disagree.
 */

import { CHECKBOX, LIST_MARKER, withoutComments, withoutEmphasis } from './entryWords.js';

const TOKEN = /[\p{L}\p{N}'’]+/gu;
const MONTH = /^(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*$/;
const WEEKDAY = /^(?:mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun)(?:day|nesday|urday|sday)?$/;
/** Long lines are cut: the words that decide a kind are near the start, and the cost stays bounded. */
const MAX_TOKENS = 40;
const MAX_CHARS = 400;

/** First letters of the months and weekdays folded below (j f m a s o n d t w): a token starting otherwise is only lower-cased. */
const CALENDAR_INITIALS = new Set([...'jfmasondtw'].map((c) => c.charCodeAt(0)));

/** A token as the scorer knows it: lower case, numbers, months and weekdays folded to one word each. */
function foldToken(token: string): string {
  const lower = token.toLowerCase();
  const t = lower.includes('’') ? lower.replace(/’/g, "'") : lower;
  // Most words start with a letter no month or weekday starts with, or are shorter than any ("a", "to", "of"): they skip the three tests.
  const first = t.charCodeAt(0);
  if (first >= 48 && first <= 57) return /^\d+(?:st|nd|rd|th)?$/.test(t) ? '<n>' : t;
  if (t.length < 3 || !CALENDAR_INITIALS.has(first)) return t;
  if (MONTH.test(t) && t !== 'may') return '<month>';
  if (WEEKDAY.test(t)) return '<weekday>';
  return t;
}

/** The words of a line, without its list marker, checkbox and comments. */
export function lineTokens(raw: string): string[] {
  const body = withoutComments(raw.slice(0, MAX_CHARS).replace(LIST_MARKER, '').replace(CHECKBOX, ''));
  return (asciiTokens(body) ?? (body.match(TOKEN) ?? []).slice(0, MAX_TOKENS)).map(foldToken);
}

/** TOKEN's characters within ASCII: letters, digits and the apostrophe. */
const ASCII_TOKEN_CHARACTER = Uint8Array.from({ length: 0x80 }, (_, c) =>
  (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x27 ? 1 : 0,
);
const RIGHT_SINGLE_QUOTE = 0x2019;

/**
 * TOKEN's first MAX_TOKENS matches, found by character code, for a line of ASCII and ’ (nearly
 * every line); null at any other character, whose class only the Unicode regex knows. The same
 * tokens: every character up to the one that ends the last token is of that plain kind.
 */
function asciiTokens(body: string): string[] | null {
  const tokens: string[] = [];
  let start = -1;
  for (let i = 0; i < body.length; i++) {
    const code = body.charCodeAt(i);
    if (code < 0x80 ? ASCII_TOKEN_CHARACTER[code] === 1 : code === RIGHT_SINGLE_QUOTE) {
      if (start < 0) start = i;
      continue;
    }
    if (code >= 0x80) return null;
    if (start >= 0) {
      tokens.push(body.slice(start, i));
      start = -1;
      if (tokens.length === MAX_TOKENS) return tokens;
    }
  }
  if (start >= 0) tokens.push(body.slice(start));
  return tokens;
}

/**
 * Where kindFeatures' features go, one call per feature in kindFeatures' order (a feature may come
 * twice: a repeated word or pair). The scorer reads them this way without building their strings.
 */
export interface KindFeatureVisitor {
  /** `w:<token>` */
  word(token: string): void;
  /** `b:<token> <next token>` */
  pair(token: string, next: string): void;
  /** `f:<first token>` */
  first(token: string): void;
  /** `f2:<first token> <second token>` */
  firstPair(token: string, next: string): void;
  /** `l:<last token>` */
  last(token: string): void;
  /** A shape feature, named in full (`s:checkbox`). */
  shape(feature: string): void;
}

/** The features of a line, in order, told to `visit` (the one definition of the features). */
export function visitKindFeatures(full: string, visit: KindFeatureVisitor): void {
  const raw = full.slice(0, MAX_CHARS);
  const body = withoutComments(raw.replace(LIST_MARKER, '')).trim();
  const words = withoutEmphasis(body.replace(CHECKBOX, '')).trim();
  const tokens = lineTokens(raw);
  for (const t of tokens) visit.word(t);
  for (let i = 0; i + 1 < tokens.length; i++) visit.pair(tokens[i]!, tokens[i + 1]!);
  if (tokens[0]) visit.first(tokens[0]);
  if (tokens[1]) visit.firstPair(tokens[0]!, tokens[1]);
  if (tokens.length) visit.last(tokens[tokens.length - 1]!);
  if (CHECKBOX.test(body)) visit.shape('s:checkbox');
  if (/\?\s*\W*$/.test(words)) visit.shape('s:ends-question');
  else if (words.includes('?')) visit.shape('s:question-inside');
  if (/!\s*$/.test(words)) visit.shape('s:ends-exclaim');
  if (/\.\s*$/.test(words)) visit.shape('s:ends-period');
  else visit.shape('s:no-final-stop');
  if (/^[^:：]{1,25}[:：]/.test(words)) visit.shape('s:label-colon');
  if (/^[\p{L}' ]{1,25}\s[—–-]\s/u.test(words)) visit.shape('s:label-dash');
  if (/(?:^|\s)@\p{L}/u.test(words)) visit.shape('s:at-name');
  if (words.includes('->') || words.includes('=>') || words.includes('→')) visit.shape('s:arrow');
  // A clock and a numeric date both need a digit, which most lines have none of.
  const digit = /\d/.test(words);
  if (digit && /\b\d{1,2}[:.]\d{2}\b/.test(words)) visit.shape('s:clock');
  if (digit && /\b\d{1,2}[/.]\d{1,2}\b|\b\d{4}-\d{2}-\d{2}\b/.test(words)) visit.shape('s:numeric-date');
  if (/^\p{Ll}/u.test(words)) visit.shape('s:lower-start');
  if (words.includes(';') || words.includes(',')) visit.shape('s:clauses');
  visit.shape(tokens.length <= 4 ? 's:short' : tokens.length <= 10 ? 's:medium' : 's:long');
}

/** The distinct features of a line (binary: present or not), in first-seen order. */
export function kindFeatures(full: string): string[] {
  const out = new Set<string>();
  visitKindFeatures(full, {
    word: (t) => out.add(`w:${t}`),
    pair: (t, next) => out.add(`b:${t} ${next}`),
    first: (t) => out.add(`f:${t}`),
    firstPair: (t, next) => out.add(`f2:${t} ${next}`),
    last: (t) => out.add(`l:${t}`),
    shape: (feature) => out.add(feature),
  });
  return [...out];
}

const LETTER = /^\p{L}$/u;

/** Whether a line is in a language the scorer was trained on: mostly Latin letters and some words it knows. */
export function looksEnglish(raw: string): boolean {
  // Counted by char code where the answer is plain ASCII (a line is mostly that), by regex otherwise.
  let letters = 0;
  let latin = 0;
  for (let i = 0; i < raw.length; i++) {
    const code = raw.charCodeAt(i);
    if (code < 0x80) {
      if ((code >= 65 && code <= 90) || (code >= 97 && code <= 122)) {
        letters++;
        latin++;
      }
      continue;
    }
    // A code point at a time, as `for…of` reads it: a pair of surrogates is one character (a lone one is itself).
    const point = raw.codePointAt(i)!;
    if (point > 0xffff) i++;
    if (LETTER.test(String.fromCodePoint(point))) letters++;
  }
  if (letters === 0) return false;
  return latin / letters >= 0.9;
}
