/**
 * Maximal marginal relevance: `limit` items of a pool (best score first), each the one whose
 * relevance (its score over the pool's best, weighted by `lambda`) least minus its similarity to
 * what was already chosen (weighted by 1 − lambda) is highest; the first on a tie. `penalty` is
 * what its similarity took off.
 *
 * Each item's highest similarity to the chosen is brought up to date only when the item could
 * still be the best: with an older (lower) value its MMR value is an upper bound, and a bound
 * below the best so far can neither win nor tie. Most of a pool never needs its similarity to
 * the later picks (about a third of the vector products of comparing every item after every
 * pick are left), and every pick is the one comparing them all would make.
 */
export function pickByMarginalRelevance<T extends { score: number }>(
  pool: readonly T[],
  limit: number,
  lambda: number,
  similarity: (item: T, chosen: T) => number,
): Array<{ item: T; penalty: number }> {
  const maxScore = Math.max(1e-9, pool[0]?.score ?? 0);
  const chosen: Array<{ item: T; penalty: number }> = [];
  const remaining = [...pool];
  // Each item's highest similarity to the first `compared[i]` items chosen.
  const maxSimilarity = remaining.map(() => 0);
  const compared = remaining.map(() => 0);
  while (remaining.length > 0 && chosen.length < limit) {
    let bestIndex = 0;
    let bestValue = -Infinity;
    for (let i = 0; i < remaining.length; i++) {
      const bound = lambda * (remaining[i]!.score / maxScore) - (1 - lambda) * maxSimilarity[i]!;
      if (bound < bestValue) continue;
      for (; compared[i]! < chosen.length; compared[i]!++) {
        maxSimilarity[i] = Math.max(maxSimilarity[i]!, similarity(remaining[i]!, chosen[compared[i]!]!.item));
      }
      const value = lambda * (remaining[i]!.score / maxScore) - (1 - lambda) * maxSimilarity[i]!;
      if (value > bestValue) {
        bestValue = value;
        bestIndex = i;
      }
    }
    chosen.push({ item: remaining[bestIndex]!, penalty: (1 - lambda) * maxSimilarity[bestIndex]! });
    remaining.splice(bestIndex, 1);
    maxSimilarity.splice(bestIndex, 1);
    compared.splice(bestIndex, 1);
  }
  return chosen;
}
