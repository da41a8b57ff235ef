/**
 * Long texts: split the tokens into windows the model can see at once, embed each, and
 * average the window vectors weighted by their token counts, so no part of a text is
 * silently dropped.
 */

/** Splits `tokens` into the fewest windows of at most `windowTokens`, of near-equal length (no tiny tail window). */
export function splitIntoWindows<T>(tokens: readonly T[], windowTokens: number): T[][] {
  if (windowTokens < 1) throw new Error(`A token window must hold at least one token (got ${windowTokens}).`);
  if (tokens.length <= windowTokens) return [tokens.slice()];
  const count = Math.ceil(tokens.length / windowTokens);
  const windows: T[][] = [];
  for (let i = 0; i < count; i++) {
    windows.push(tokens.slice(Math.round((i * tokens.length) / count), Math.round(((i + 1) * tokens.length) / count)));
  }
  return windows;
}

/**
 * The token-weighted mean of the unit-scaled window vectors (not normalised itself).
 * Non-finite values are kept so the caller's normalisation reports them.
 */
export function poolWindowVectors(vectors: readonly ArrayLike<number>[], tokenCounts: readonly number[]): Float32Array {
  const first = vectors[0];
  if (!first) throw new Error('Cannot pool zero window vectors.');
  if (vectors.length === 1) return Float32Array.from(first);
  const pooled = new Float32Array(first.length);
  const total = tokenCounts.reduce((a, b) => a + b, 0);
  vectors.forEach((vector, w) => {
    let sum = 0;
    for (let i = 0; i < vector.length; i++) sum += vector[i]! * vector[i]!;
    const norm = Math.sqrt(sum);
    const scale = (tokenCounts[w] ?? 0) / total / (norm > 0 ? norm : 1);
    for (let i = 0; i < pooled.length; i++) pooled[i] = pooled[i]! + vector[i]! * scale;
  });
  return pooled;
}
