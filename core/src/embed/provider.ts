/**
 * One interface for every embedding provider (`hash`, `llama`). Vectors are compared only
 * within one generation: the provider, the model (file hash or URI), the dims and the
 * preprocessing version together.
 */
export interface EmbeddingGeneration {
  provider: 'hash' | 'llama';
  /** `hash:<scheme>` for the hash provider; the model file's sha256 (first 16 hex) or URI for llama. */
  model: string;
  dims: number;
  /** Bumped when the text given to the model changes (normalisation, prefixes, splitting). */
  preprocessing: string;
}

export function generationId(g: EmbeddingGeneration): string {
  return `${g.provider}:${g.model}:${g.dims}:${g.preprocessing}`;
}

export interface EmbeddingProvider {
  readonly generation: EmbeddingGeneration;
  readonly dims: number;
  /** One L2-normalised vector per input, in order. Inputs longer than the model's context are split and pooled. */
  embedBatch(texts: readonly string[]): Promise<Float32Array[]>;
  /** The vector for a search query (providers may add a query prefix). */
  embedQuery(text: string): Promise<Float32Array>;
  close(): Promise<void>;
}

/** Scales a vector to unit length in place; rejects NaN or infinite values with a clear error. */
export function normalizeInPlace(vector: Float32Array, what = 'embedding'): Float32Array {
  let sum = 0;
  for (let i = 0; i < vector.length; i++) {
    const v = vector[i]!;
    if (!Number.isFinite(v)) throw new Error(`The ${what} contains a non-finite value (${v}) at position ${i}; the model output is unusable.`);
    sum += v * v;
  }
  const norm = Math.sqrt(sum);
  if (norm > 0) for (let i = 0; i < vector.length; i++) vector[i] = vector[i]! / norm;
  return vector;
}
