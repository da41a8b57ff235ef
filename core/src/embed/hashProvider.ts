import { stemmer } from 'stemmer';
import { STOPWORDS } from '../platform/text/stopwords.js';
import { normalizeInPlace, type EmbeddingGeneration, type EmbeddingProvider } from './provider.js';

export const HASH_DIMS = 384;
const WORD_CACHE_MAX = 100_000;

/** A word's feature hashes: its stem, and each trigram of the padded word. */
interface WordFeatures {
  word: number;
  grams: number[];
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
    const counts = new Map<string, number>();
    for (const match of text.normalize('NFKC').toLowerCase().matchAll(/[\p{L}\p{N}]+/gu)) {
      const word = match[0];
      if (STOPWORDS.has(word)) continue;
      counts.set(word, (counts.get(word) ?? 0) + 1);
    }
    for (const [word, count] of counts) {
      const weight = 1 + Math.log(count);
      const { word: wordFeature, grams } = this.featuresOf(word);
      this.add(vector, wordFeature, weight);
      // Trigrams of the padded word; together they weigh about as much as the word itself.
      const gramWeight = (0.8 * weight) / Math.sqrt(Math.max(1, grams.length));
      for (const gram of grams) this.add(vector, gram, gramWeight);
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
    const grams: number[] = [];
    for (let i = 0; i + 3 <= padded.length; i++) grams.push(fnv1a(`g:${padded.slice(i, i + 3)}`));
    features = { word: fnv1a(`w:${stem}`), grams };
    if (this.wordCache.size >= WORD_CACHE_MAX) this.wordCache.clear();
    this.wordCache.set(word, features);
    return features;
  }

  async close(): Promise<void> {}

  private add(vector: Float32Array, h: number, weight: number): void {
    const index = h % this.dims;
    vector[index] = vector[index]! + ((h >>> 31) & 1 ? -weight : weight);
  }
}

function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}
