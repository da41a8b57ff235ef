import { stemmer } from 'stemmer';
import { STOPWORDS } from '../platform/text/stopwords.js';
import { normalizeInPlace, type EmbeddingGeneration, type EmbeddingProvider } from './provider.js';
import { isPlainWordBreak } from './wordBreakCharacters.js';
import { WORD_HASH_START, WordTable, wordHashStep, type WordEntry } from './wordTable.js';

export const HASH_DIMS = 384;
const WORD_CACHE_MAX = 100_000;

/**
 * Deterministic, dependency-free embeddings: signed feature hashing of stemmed words and of
 * character trigrams (so "destress" and "de-stress", or a typo, still land near each other),
 * L2-normalised. Used when no model is installed, so semantic-ish recall works offline from
 * the first launch.
 *
 * Words are runs of letters and digits of the text's NFKC form, lowercased; stopwords are left
 * out. Text of ASCII and plain breaks (a dash, a curly quote: wordBreakCharacters.ts), nearly
 * every chunk, has the same words without the normalisation, and is scanned by character code
 * straight into the word table (wordTable.ts); other text takes the general way, the Unicode
 * regex. Either way each word's count is known in order of first appearance, the order its
 * features are added in, so the floats come out the same.
 */
export class HashEmbeddingProvider implements EmbeddingProvider {
  readonly dims: number;
  readonly generation: EmbeddingGeneration;
  /**
   * Every word's hashed features, remembered: the same words recur in every entry, and stemming
   * and hashing them again was most of embedding a 2 MB import. Bounded so a long run cannot grow it forever.
   */
  private readonly words = new WordTable(WORD_CACHE_MAX, (word, hash) => this.entryFor(word, hash));

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
    this.words.beginText();
    if (!scanWords(text, this.words, isPlainWordBreak)) this.countWordsGenerally(text);
    return this.vectorOfCounted();
  }

  /** The general way alone, for every text: what embedSync's scan must agree with (tests compare them). */
  embedSyncGenerally(text: string): Float32Array {
    this.countWordsGenerally(text);
    return this.vectorOfCounted();
  }

  async close(): Promise<void> {}

  /** Starts the text's count afresh: a scan that gave up may have counted some of its words. */
  private countWordsGenerally(text: string): void {
    this.words.beginText();
    const lower = text.normalize('NFKC').toLowerCase();
    if (UNICODE_WORD_CHARACTER.test(lower)) {
      for (const match of lower.matchAll(/[\p{L}\p{N}]+/gu)) this.words.countWord(match[0]);
    } else scanWords(lower, this.words, () => true);
  }

  private vectorOfCounted(): Float32Array {
    const vector = new Float32Array(this.dims);
    const counted = this.words.counted;
    for (let w = 0; w < counted.length; w++) {
      const { count, wordSlot, grams, gramsRoot } = counted[w]!;
      const weight = count < WEIGHTS.length ? WEIGHTS[count]! : 1 + Math.log(count);
      addAt(vector, wordSlot, weight);
      // Trigrams of the padded word; together they weigh about as much as the word itself.
      const gramWeight = (0.8 * weight) / gramsRoot;
      for (let i = 0; i < grams.length; i++) addAt(vector, grams[i]!, gramWeight);
    }
    return normalizeInPlace(vector);
  }

  private entryFor(word: string, hash: number): WordEntry {
    const stem = /^[a-z]+$/.test(word) ? stemmer(word) : word;
    const padded = `^${word}$`;
    const grams = new Int32Array(Math.max(0, padded.length - 2));
    for (let i = 0; i < grams.length; i++) grams[i] = this.slotOf(fnv1a(`g:${padded.slice(i, i + 3)}`));
    return {
      hash, word, stopword: STOPWORDS.has(word), wordSlot: this.slotOf(fnv1a(`w:${stem}`)), grams,
      gramsRoot: Math.sqrt(Math.max(1, grams.length)), seenIn: 0, count: 0,
    };
  }

  /** A feature hash's dimension (hash modulo dims) and sign (its top bit), as one signed slot. */
  private slotOf(h: number): number {
    const index = h % this.dims;
    return (h >>> 31) & 1 ? ~index : index;
  }
}

/**
 * A letter or digit past ASCII: the text's words need the Unicode regex. Without one, the runs
 * of ASCII letters and digits are the words (every other character breaks them either way).
 */
const UNICODE_WORD_CHARACTER = /(?=\P{ASCII})[\p{L}\p{N}]/u;

/** Each ASCII character's code as part of a word (a capital's lowercase), or 0 for a break. */
const ASCII_WORD_CODE = Uint8Array.from({ length: 0x80 }, (_, c) =>
  (c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39) ? c : c >= 0x41 && c <= 0x5a ? c + 0x20 : 0,
);

/**
 * Counts the ASCII words (runs of letters and digits, capitals lowercased) of `text` into
 * `table`, by character code; a character past ASCII must be a break (`isBreak`), else the scan
 * gives up and says so (false).
 */
function scanWords(text: string, table: WordTable, isBreak: (code: number) => boolean): boolean {
  let start = -1;
  let hash = WORD_HASH_START;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    const c = code < 0x80 ? ASCII_WORD_CODE[code]! : 0;
    if (c !== 0) {
      if (start < 0) {
        start = i;
        hash = WORD_HASH_START;
      }
      hash = wordHashStep(hash, c);
      continue;
    }
    if (code > 0x7f && !isBreak(code)) return false;
    if (start >= 0) {
      table.countAsciiWord(text, start, i, hash);
      start = -1;
    }
  }
  if (start >= 0) table.countAsciiWord(text, start, text.length, hash);
  return true;
}

/** A word's weight by its count in the text, 1 + ln(count), for the counts most words have. */
const WEIGHTS = Float64Array.from({ length: 64 }, (_, count) => 1 + Math.log(count));

/**
 * Adds (or, for a negative slot, subtracts) the weight: a + (−w) and a − w are the same float,
 * so the sign multiplies in without a branch (the signs are hashes' bits: no branch predicts them).
 */
function addAt(vector: Float32Array, slot: number, weight: number): void {
  const negative = slot >> 31; // −1 or 0
  const index = slot ^ negative; // ~slot or slot
  vector[index] = vector[index]! + (negative | 1) * weight;
}

function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}
