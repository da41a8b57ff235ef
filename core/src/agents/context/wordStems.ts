import { irregularForms } from '../../search/irregular.js';
import { stemWord } from '../../search/queryTerms.js';
import { STOPWORDS } from '../../platform/text/stopwords.js';

/** A text as stems, in order: the form trigger phrases and intent keywords are compared in ("deploying" is "deploy"). */
export interface StemmedText {
  /** Every word's stem, in order (stopwords included), for phrase matching. */
  sequence: string[];
  /** Each distinct content word as its stem and its irregular forms' stems ("bought" is also "buy"). */
  contentWords: string[][];
  /** All stems of `contentWords`, for lookups. */
  contentStems: Set<string>;
}

// Same word boundaries as search queries (queryTerms.ts), apostrophes folded into the word.
const WORD = /[\p{L}\p{N}]+(?:['’][\p{L}]+)?/gu;

export function stemText(text: string): StemmedText {
  const sequence: string[] = [];
  const contentWords: string[][] = [];
  const contentStems = new Set<string>();
  for (const match of text.normalize('NFKC').toLowerCase().matchAll(WORD)) {
    const word = match[0].replace(/['’]/g, '');
    const stem = stemWord(word);
    sequence.push(stem);
    if (STOPWORDS.has(word) || contentStems.has(stem)) continue;
    const forms = [stem, ...irregularForms(word).map(stemWord)];
    contentWords.push(forms);
    for (const form of forms) contentStems.add(form);
  }
  return { sequence, contentWords, contentStems };
}

/** Whether the phrase's words occur in the text, consecutively and in order (compared by stem). */
export function containsPhrase(text: StemmedText, phrase: StemmedText): boolean {
  const needle = phrase.sequence;
  if (needle.length === 0) return false;
  outer: for (let start = 0; start + needle.length <= text.sequence.length; start++) {
    for (let i = 0; i < needle.length; i++) if (text.sequence[start + i] !== needle[i]) continue outer;
    return true;
  }
  return false;
}

/** Share of the phrase's content words present anywhere in the text (0 when the phrase has none). */
export function contentCoverage(text: StemmedText, phrase: StemmedText): number {
  if (phrase.contentWords.length === 0) return 0;
  const present = phrase.contentWords.filter((forms) => forms.some((stem) => text.contentStems.has(stem))).length;
  return present / phrase.contentWords.length;
}
