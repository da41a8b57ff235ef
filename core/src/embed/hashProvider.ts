import { stemmer } from 'stemmer';
import { STOPWORDS } from '../platform/text/stopwords.js';
import { normalizeInPlace, type EmbeddingGeneration, type EmbeddingProvider } from './provider.js';

export const HASH_DIMS = 384;

/**
 * Deterministic, dependency-free embeddings: signed feature hashing of stemmed words and of
 * character trigrams (so "destress" and "de-stress", or a typo, still land near each other),
 * L2-normalised. Used when no model is installed, so semantic-ish recall works offline from
 * the first launch.
 */
export class HashEmbeddingProvider implements EmbeddingProvider {
  readonly dims: number;
  readonly generation: EmbeddingGeneration;

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
      const stem = /^[a-z]+$/.test(word) ? stemmer(word) : word;
      this.add(vector, `w:${stem}`, weight);
      // Trigrams of the padded word; together they weigh about as much as the word itself.
      const padded = `^${word}$`;
      const grams = Math.max(1, padded.length - 2);
      for (let i = 0; i + 3 <= padded.length; i++) this.add(vector, `g:${padded.slice(i, i + 3)}`, (0.8 * weight) / Math.sqrt(grams));
    }
    return normalizeInPlace(vector);
  }

  async close(): Promise<void> {}

  private add(vector: Float32Array, feature: string, weight: number): void {
    const h = fnv1a(feature);
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
