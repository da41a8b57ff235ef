import { stemmer } from 'stemmer';
import { irregularForms } from './irregular.js';
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
  for (const match of query.normalize('NFKC').toLowerCase().matchAll(WORD)) {
    const word = match[0].replace(/['’]/g, '');
    if (seen.has(word)) continue;
    seen.add(word);
    const isStopword = STOPWORDS.has(word);
    const variants = isStopword ? [] : irregularForms(word).filter((v) => !seen.has(v));
    terms.push({ word, stem: stemWord(word), isStopword, variants });
    if (terms.length >= MAX_TERMS * 4) break;
  }
  return terms;
}

export function stemWord(word: string): string {
  // The porter stemmer only knows ASCII English; other scripts are stored unstemmed.
  if (!/^[a-z]+$/.test(word)) return stripDiacritics(word);
  return stemmer(word);
}

export function stripDiacritics(word: string): string {
  return word.normalize('NFD').replace(/\p{M}+/gu, '');
}

/** Quotes a term for FTS5 so no character of user input can act as an operator. */
export function quoteFts(term: string): string {
  return `"${term.replace(/"/g, '""')}"`;
}

export const QUERY_LIMITS = { MAX_TERMS };
