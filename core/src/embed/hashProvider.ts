import { stemmer } from 'stemmer';
import { STOPWORDS } from '../platform/text/stopwords.js';
import { normalizeInPlace, type EmbeddingGeneration, type EmbeddingProvider } from './provider.js';

export const HASH_DIMS = 384;
const WORD_CACHE_MAX = 100_000;

/**
 * A word's features, its stem and each trigram of the padded word, as signed slots: a slot ≥ 0
 * adds the weight at that dimension, a slot < 0 subtracts it at dimension ~slot.
 */
interface WordFeatures {
  word: number;
  grams: Int32Array;
}

/**
 * Deterministic, dependency-free embeddings: signed feature hashing of stemmed words and of
 * character trigrams (so "destress" and "de-stress", or a typo, still land near each other),
 * L2-normalised. Used when no model is installed, so semantic-ish recall works offline from
 * the first launch.
 */
export class HashEmbeddingProvider implements EmbeddingProvider {
  readonly dims: number;
  readonly generation: EmbeddingGeneration;
  private readonly wordCache = new Map<string, WordFeatures>();

  constructor(dims = HASH_DIMS) {
    this.dims = dims;
    this.generation = { provider: 'hash', model: 'hash:fh-words-trigrams', dims, preprocessing: 'hash-v1' };
  }

  async embedBatch(texts: readonly string[]): Promise<Float32Array[]> {
    return texts.map((t) => this.embedSync(t));
  }

  async embedQuery(text: string): Promise<Float32Array> {
    return this.embedSync(text);
  }

  embedSync(text: string): Float32Array {
    const vector = new Float32Array(this.dims);
    // NFKC leaves ASCII as it is (and nearly every chunk is ASCII): skip the normalisation there.
    const counts = countWords((ASCII_ONLY.test(text) ? text : text.normalize('NFKC')).toLowerCase());
    for (const [word, count] of counts) {
      const weight = 1 + Math.log(count);
      const { word: wordFeature, grams } = this.featuresOf(word);
      addAt(vector, wordFeature, weight);
      // Trigrams of the padded word; together they weigh about as much as the word itself.
      const gramWeight = (0.8 * weight) / Math.sqrt(Math.max(1, grams.length));
      for (let i = 0; i < grams.length; i++) addAt(vector, grams[i]!, gramWeight);
    }
    return normalizeInPlace(vector);
  }

  /**
   * A word's hashed features, remembered: the same words recur in every entry, and stemming and
   * hashing them again was most of embedding a 2 MB import. Bounded so a long run cannot grow it forever.
   */
  private featuresOf(word: string): WordFeatures {
    let features = this.wordCache.get(word);
    if (features) return features;
    const stem = /^[a-z]+$/.test(word) ? stemmer(word) : word;
    const padded = `^${word}$`;
    const grams = new Int32Array(Math.max(0, padded.length - 2));
    for (let i = 0; i < grams.length; i++) grams[i] = this.slotOf(fnv1a(`g:${padded.slice(i, i + 3)}`));
    features = { word: this.slotOf(fnv1a(`w:${stem}`)), grams };
    if (this.wordCache.size >= WORD_CACHE_MAX) this.wordCache.clear();
    this.wordCache.set(word, features);
    return features;
  }

  async close(): Promise<void> {}

  /** A feature hash's dimension (hash modulo dims) and sign (its top bit), as one signed slot. */
  private slotOf(h: number): number {
    const index = h % this.dims;
    return (h >>> 31) & 1 ? ~index : index;
  }
}

/**
 * Each word's count, stopwords left out, in order of first appearance (the order the features are
 * added in, so the floats come out the same). Words are runs of letters and digits; ASCII text,
 * nearly all of it, is scanned by character code, which is what makes recomputing the vectors of
 * a search's candidates cheap (vectorStore.ts); other text goes through the Unicode regex.
 */
const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;
// eslint-disable-next-line no-control-regex -- "every character is ASCII" is exactly a range from NUL
const ASCII_ONLY = /^[\x00-\x7f]*$/;

function countWords(lower: string): Map<string, number> {
  const counts = new Map<string, number>();
  const add = (word: string): void => {
    if (!STOPWORDS.has(word)) counts.set(word, (counts.get(word) ?? 0) + 1);
  };
  let start = -1;
  for (let i = 0; i < lower.length; i++) {
    const c = lower.charCodeAt(i);
    let inWord = (c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a);
    if (c > 0x7f) {
      // A non-ASCII letter or digit (or half of a surrogate pair) needs the Unicode rules; a dash or a quote is just a break.
      if ((c >= 0xd800 && c <= 0xdfff) || LETTER_OR_DIGIT.test(lower[i]!)) return countWordsUnicode(lower);
      inWord = false;
    }
    if (inWord && start < 0) start = i;
    else if (!inWord && start >= 0) {
      add(lower.slice(start, i));
      start = -1;
    }
  }
  if (start >= 0) add(lower.slice(start));
  return counts;
}

function countWordsUnicode(lower: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const match of lower.matchAll(/[\p{L}\p{N}]+/gu)) {
    const word = match[0];
    if (!STOPWORDS.has(word)) counts.set(word, (counts.get(word) ?? 0) + 1);
  }
  return counts;
}

/** Adds (or, for a negative slot, subtracts) the weight: a + (−w) and a − w are the same float. */
function addAt(vector: Float32Array, slot: number, weight: number): void {
  if (slot >= 0) vector[slot] = vector[slot]! + weight;
  else vector[~slot] = vector[~slot]! - weight;
}

function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}
