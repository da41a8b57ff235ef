import { stemmer } from 'stemmer';
import { irregularForms } from './irregular.js';
import { derivedForms, joinedCompound, splitCompounds, synonymForms } from './wordVariants.js';
import { STOPWORDS } from '../platform/text/stopwords.js';

export interface QueryTerm {
  /** The word as typed, lower-cased. */
  word: string;
  /** Porter stem, as FTS5's `porter` tokenizer stores it. */
  stem: string;
  isStopword: boolean;
  /** Irregular forms of the same word ("bought" for "buy"): they match as the word itself. */
  variants: string[];
}

// Letters and digits of any script; everything else (quotes, operators, emoji) separates words.
const WORD = /[\p{L}\p{N}]+(?:['’][\p{L}]+)?/gu;
const MAX_TERMS = 64;

/** Splits arbitrary user input into search terms. Never throws, whatever the input. */
export function extractQueryTerms(query: string): QueryTerm[] {
  const seen = new Set<string>();
  const terms: QueryTerm[] = [];
  const words = wordsOf(query);
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    if (seen.has(word)) continue;
    seen.add(word);
    const isStopword = STOPWORDS.has(word);
    const variants = isStopword ? [] : otherForms(word, words[i + 1]).filter((v) => !seen.has(v) && v !== word);
    terms.push({ word, stem: stemWord(word), isStopword, variants: [...new Set(variants)] });
    if (terms.length >= MAX_TERMS * 4) break;
  }
  return terms;
}

/**
 * The stems of a text's content words, in order of first appearance: the stems of
 * `extractQueryTerms(text)`'s non-stopword terms, without working out their variants (which
 * matching an entry's words never uses: the recorder does it for every entry a search cites).
 */
export function contentStems(text: string): string[] {
  const seen = new Set<string>();
  const stems: string[] = [];
  for (const word of wordsOf(text)) {
    if (seen.has(word)) continue;
    seen.add(word);
    if (!STOPWORDS.has(word)) stems.push(stemWord(word));
    if (seen.size >= MAX_TERMS * 4) break;
  }
  return stems;
}

/** The words of a text as queries are split (lower-cased, apostrophes dropped), at most MAX_TERMS × 8. */
function wordsOf(text: string): string[] {
  const words: string[] = [];
  for (const m of text.normalize('NFKC').toLowerCase().matchAll(WORD)) {
    if (words.length >= MAX_TERMS * 8) break;
    words.push(m[0].replace(/['’]/g, ''));
  }
  return words;
}

/** Irregular, derived, compound and synonym forms of a query word (the keyword side keeps those the index holds). */
function otherForms(word: string, next: string | undefined): string[] {
  const forms = [...irregularForms(word)];
  if (VOCAB.has('derived')) forms.push(...derivedForms(word));
  if (VOCAB.has('compound')) {
    forms.push(...splitCompounds(word).filter((pair) => pair.split(' ').every((w) => !STOPWORDS.has(w))));
    const joined = next && !STOPWORDS.has(next) ? joinedCompound(word, next) : null;
    if (joined) forms.push(joined);
  }
  if (VOCAB.has('synonym')) forms.push(...synonymForms(word));
  return forms;
}
/**
 * Which expansions a query gets. Measured one by one on LoCoMo tuning folds 0–1 (evidence recall
 * at 1,500 characters / R@10; none: 73.3 / 85.1): compounds 73.3 / 85.2 (kept: they cost
 * nothing and join spellings); agent nouns 73.3 / 84.7 and synonyms 73.1 / 85.3 (off: at full
 * weight they pull in as many wrong lines as right ones; they need a lower weight first).
 */
const VOCAB = new Set<'derived' | 'compound' | 'synonym'>(['compound']);

/** Stems of words seen lately: every search stems its query words, their variants and the words of the entries it cites. */
const stems = new Map<string, string>();
const STEMS_KEPT = 50_000;
/** Longer "words" (hashes, base64) are rare and would only fill the memo. */
const MEMO_WORD_CHARS = 40;

export function stemWord(word: string): string {
  const kept = stems.get(word);
  if (kept !== undefined) return kept;
  // The porter stemmer only knows ASCII English; other scripts are stored unstemmed.
  const stem = /^[a-z]+$/.test(word) ? stemmer(word) : stripDiacritics(word);
  if (word.length <= MEMO_WORD_CHARS) {
    if (stems.size >= STEMS_KEPT) stems.clear();
    stems.set(word, stem);
  }
  return stem;
}

export function stripDiacritics(word: string): string {
  return word.normalize('NFD').replace(/\p{M}+/gu, '');
}

/** Quotes a term for FTS5 so no character of user input can act as an operator. */
export function quoteFts(term: string): string {
  return `"${term.replace(/"/g, '""')}"`;
}

export const QUERY_LIMITS = { MAX_TERMS };
