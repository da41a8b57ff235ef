/**
 * How text in scripts written without spaces is made searchable (issue 18). FTS5's `unicode61`
 * tokenizer makes a whole Japanese or Chinese sentence one token ("kestrelの再処理ジョブ"), so
 * 再処理 was found in no note that used it inside a longer run. Each run is indexed instead as
 * its overlapping pairs of characters (再処 処理 理ジ ジョ ョブ) and its last character, in a side
 * table (`chunks_grams`, migration 0014) that only chunks with such text have a row in; a query's
 * run asks for the same pairs as a phrase, which matches exactly where the run occurs.
 *
 * The same row holds the words such a token hides ("kestrel" in "Kestrelの…") and the NFKC form
 * of full-width and half-width text (ＡＰＩ → api, ｼﾞｮﾌﾞ → ジョブ), which queries are folded to.
 */
import { unspacedRuns, withoutUnspacedRuns } from '../contract/unspacedScripts.js';

/**
 * A run of up to this many letters (marks not counted: a Thai syllable is often three or four
 * code points) is asked for as one phrase, an exact match: a word or a compound someone typed.
 * A longer one is a sentence ("数据库迁移到哪个服务器了"), asked for by its pairs.
 */
export const MAX_PHRASE_LETTERS = 6;

// Text FTS5 tokenizes like spaced words, with full-width and half-width forms (U+FF00–U+FFEF) and ー in it.
const TOKEN = /[\p{L}\p{N}\p{M}\u30fc\uff00-\uffef]+/gu;
const NEEDS_GRAMS = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}\uff00-\uffef]/u;
const WORD = /[\p{L}\p{N}]+/gu;
// Where the scripts above live (Thai to Khmer, then CJK on; supplementary Han as surrogates):
// English text and text with only accents, dashes and quotes skips NEEDS_GRAMS, whose script
// classes cost a transcript reader 6 % of its time.
const MAY_NEED_GRAMS = /[\u0e00-\u19ff\u2e80-\uffff]/;
const MARK = /^\p{M}$/u;
const HIRAGANA_ONLY = /^\p{Script=Hiragana}+$/u;
/** Plane 15 private use: where a combining mark is moved so `unicode61` keeps it inside a token (it splits words at marks). */
const MARK_SHIFT = 0xf0000;

/** The terms to index for a chunk beside its text, or null when its text has none (all English text). */
export function gramTermsOf(text: string): string | null {
  if (!MAY_NEED_GRAMS.test(text) || !NEEDS_GRAMS.test(text)) return null;
  const terms: string[] = [];
  for (const [token] of text.matchAll(TOKEN)) {
    if (!NEEDS_GRAMS.test(token)) continue; // a spaced word: the main index has it as it is
    const folded = token.normalize('NFKC').toLowerCase();
    for (const run of unspacedRuns(folded)) terms.push(...indexedGrams(run.text));
    for (const [word] of withoutUnspacedRuns(folded).matchAll(WORD)) terms.push(word);
  }
  return terms.length > 0 ? terms.join(' ') : null;
}

/** The tokens indexed for one run: every pair of neighbouring characters, then the last character alone. */
function indexedGrams(run: string): string[] {
  const chars = encodedChars(run);
  const grams: string[] = [];
  for (let i = 0; i + 1 < chars.length; i++) grams.push(chars[i]! + chars[i + 1]!);
  // A one-character query is asked as a prefix: pairs starting with it find it everywhere but at a run's end.
  grams.push(chars[chars.length - 1]!);
  return grams;
}

/**
 * The FTS5 expressions a query's run is found by (already quoted): one character is a prefix
 * (its pairs and a run-final character), a short run the phrase of its pairs, a long run each of
 * its pairs on its own (BM25 ranks the passages with most of them first).
 */
export function gramQueries(run: string): GramQuery[] {
  const chars = [...run];
  const encoded = encodedChars(run);
  if (encoded.length === 0) return [];
  if (encoded.length === 1) return [{ text: run, fts: `${quote(encoded[0]!)}*`, isStopword: false }];
  const pairs = encoded.slice(1).map((c, i) => ({ text: chars[i]! + chars[i + 1]!, fts: encoded[i]! + c }));
  if (chars.filter((c) => !MARK.test(c)).length <= MAX_PHRASE_LETTERS) return [{ text: run, fts: quote(pairs.map((p) => p.fts).join(' ')), isStopword: false }];
  const seen = new Set<string>();
  return pairs
    .filter((p) => !seen.has(p.fts) && seen.add(p.fts))
    .map((p) => ({ text: p.text, fts: quote(p.fts), isStopword: HIRAGANA_ONLY.test(p.text) }));
}

export interface GramQuery {
  /** The characters asked for, as typed (after NFKC): what a snippet looks for. */
  text: string;
  /** FTS5 expression over `chunks_grams`, quoted. */
  fts: string;
  /** A pair of hiragana cut from a sentence: mostly particles and endings (は, いつ, した), weighed like stop words. */
  isStopword: boolean;
}

/** The run's characters (code points), marks moved out of the way of the tokenizer. */
function encodedChars(run: string): string[] {
  return [...run].map((c) => {
    const code = c.codePointAt(0)!;
    return MARK.test(c) && code < 0x10000 ? String.fromCodePoint(MARK_SHIFT + code) : c;
  });
}

/** Quoted for FTS5 (a run is letters and marks only, never a quote, so nothing needs escaping). */
function quote(term: string): string {
  return `"${term}"`;
}
