import { STOPWORDS } from '../platform/text/stopwords.js';

const WIKI_LINK = /\[\[([^\]|#]{1,80})(?:[#|][^\]]*)?\]\]/g;
const HASH_TAG = /(?:^|\s)#([\p{L}\p{N}][\p{L}\p{N}_/-]{1,40})/gu;
/** Host names, package names, identifiers with digits or separators: `ledgerd-prod-2`, `fly.io`, `snake_case`. */
const IDENTIFIER = /\b[a-z][a-z0-9]*(?:[-_.][a-z0-9]+)+\b/gi;
const CAPITALISED_SPAN = /\b[A-Z][\p{L}\p{N}'’-]*(?:\s+[A-Z][\p{L}\p{N}'’-]*)*/gu;
const WORD = /[\p{L}][\p{L}\p{N}'-]*/gu;
const MAX_KEYWORDS = 3;

/**
 * Words about when, never about what: months, weekdays, time zones, parts of the day, and the
 * shorthand of task lists. Capitalised in notes ("expires Oct 30", "10:00 UTC", "TODO"), they
 * would otherwise pass for names and become the week's "themes".
 */
const TIME_WORDS: ReadonlySet<string> = new Set(
  `january february march april may june july august september october november december
  jan feb mar apr jun jul aug sep sept oct nov dec
  monday tuesday wednesday thursday friday saturday sunday mon tue tues wed thu thur thurs fri sat sun
  today tomorrow yesterday tonight morning afternoon evening night noon midnight weekend week weeks month months year years
  am pm a.m p.m utc gmt z cet cest eet eest wet west bst est edt cst cdt mst mdt pst pdt akst akdt hst jst kst ist aest aedt nzst nzdt msk
  q1 q2 q3 q4 h1 h2 eod eow eta asap todo fixme tbd wip fyi`
    .split(/\s+/)
    .filter(Boolean),
);

/** True for a word (or an identifier) that only says when something happens. */
function isTimeWord(word: string): boolean {
  const w = word.toLowerCase().replace(/[.'’]+$/, '');
  return TIME_WORDS.has(w) || /^(?:utc|gmt)[+-]\d/.test(w) || /^\d/.test(w);
}

/**
 * The concepts an entry is about, extracted deterministically: wiki-links, #tags, identifiers
 * (hosts, packages, repos), and names (capitalised words that are not merely sentence-initial).
 * Never a date or time word, never a common word: REM groups entries into themes by these,
 * and the diary names the themes, so a theme is a thing, a person or a project.
 */
export function conceptTags(text: string): string[] {
  return readEntryTerms(text).concepts;
}

/**
 * How much an entry says, for the score's richness: its tags and its three longest content
 * words, counted as the gates were calibrated (time words and all: "Wednesday" adds to what an
 * entry says, it is just not a theme). Not a theme: "reconciliation" makes an entry richer but
 * is not a concept.
 */
export function contentTerms(text: string): string[] {
  return readEntryTerms(text).contentTerms;
}

/** Both readings of an entry in one pass over its text (the light phase wants both for every entry). */
export function readEntryTerms(text: string): { concepts: string[]; contentTerms: string[] } {
  const concepts = new Set<string>();
  const terms = new Set<string>();
  const add = (tag: string, isConcept: boolean) => {
    terms.add(tag);
    if (isConcept) concepts.add(tag);
  };
  for (const m of text.matchAll(WIKI_LINK)) add(m[1]!.trim().toLowerCase(), !allTimeWords(m[1]!.trim().split(/\s+/)));
  for (const m of text.matchAll(HASH_TAG)) add(m[1]!.toLowerCase(), !isTimeWord(m[1]!));
  const withoutLinks = plainText(text);
  for (const m of withoutLinks.matchAll(IDENTIFIER)) if (/[a-z]{2}/i.test(m[0])) add(m[0].toLowerCase(), !allTimeWords(m[0].split(/[-_.]/)));
  for (const m of withoutLinks.matchAll(CAPITALISED_SPAN)) {
    const start = m.index ?? 0;
    const before = withoutLinks.slice(0, start).trimEnd();
    const sentenceInitial = before === '' || /[.!?:;\-*]$/.test(before);
    const words = m[0].split(/\s+/).filter((w) => !STOPWORDS.has(w.toLowerCase()));
    if (words.length === 0) continue;
    if (sentenceInitial && words.length === 1) continue;
    const named = sentenceInitial ? words.slice(1) : words;
    const span = named.join(' ');
    if (span.length >= 2) terms.add(span.toLowerCase());
    // A date word splits a span: "Kestrel Monday" is Kestrel.
    for (const part of spansWithoutTimeWords(named)) if (part.length >= 2) concepts.add(part.toLowerCase());
  }
  const keywords = [...new Set([...withoutLinks.matchAll(WORD)].map((m) => m[0].toLowerCase()))]
    .filter((w) => w.length >= 6 && !STOPWORDS.has(w))
    .sort((a, b) => b.length - a.length || a.localeCompare(b))
    .slice(0, MAX_KEYWORDS);
  for (const k of keywords) terms.add(k);
  return { concepts: [...concepts], contentTerms: [...terms] };
}

function plainText(text: string): string {
  return text.replace(WIKI_LINK, ' ').replace(/https?:\/\/\S+/g, ' ');
}

function allTimeWords(words: readonly string[]): boolean {
  return words.every(isTimeWord);
}

/** The runs of a capitalised span between its date and time words. */
function spansWithoutTimeWords(words: readonly string[]): string[] {
  const spans: string[][] = [[]];
  for (const word of words) {
    if (isTimeWord(word)) spans.push([]);
    else spans.at(-1)!.push(word);
  }
  return spans.filter((s) => s.length > 0).map((s) => s.join(' '));
}
