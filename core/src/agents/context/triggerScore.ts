import { HashEmbeddingProvider } from '../../embed/hashProvider.js';
import { containsPhrase, contentCoverage, stemText, type StemmedText } from './wordStems.js';

/**
 * How strongly a message calls for a trigger phrase, 0..1:
 *   score = 0.75 · lexical + 0.25 · max(0, cosine)
 * lexical is 1 when the phrase occurs in the message as words (or all its content words do, by
 * stem), else the share of its content words present; cosine compares hash embeddings of the
 * message and the phrase. A message containing the phrase therefore scores ≥ 0.75 (above the
 * 0.72 threshold) whatever its length, and one sharing no word with it at most 0.25: vector
 * similarity only lifts near misses (most words present, close wording), never matches alone.
 */
export const LEXICAL_WEIGHT = 0.75;
export const VECTOR_WEIGHT = 0.25;

export interface ScoredMessage {
  stems: StemmedText;
  vector: Float32Array;
}

const embedder = new HashEmbeddingProvider();

export function prepareMessage(message: string): ScoredMessage {
  return { stems: stemText(message), vector: embedder.embedSync(message) };
}

export function scoreTrigger(message: ScoredMessage, trigger: string): number {
  const phrase = stemText(trigger);
  const lexical = containsPhrase(message.stems, phrase) ? 1 : contentCoverage(message.stems, phrase);
  const cosine = dot(message.vector, embedder.embedSync(trigger));
  return LEXICAL_WEIGHT * lexical + VECTOR_WEIGHT * Math.min(1, Math.max(0, cosine));
}

function dot(a: Float32Array, b: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += a[i]! * b[i]!;
  return sum;
}
