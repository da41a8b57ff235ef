import { describe, expect, it } from 'vitest';
import { pickByMarginalRelevance } from '../src/search/marginalRelevance.js';

interface Item {
  id: number;
  score: number;
}

/** MMR as it was written before the lazy comparisons: every remaining item compared with every pick. */
function eagerPicks(pool: readonly Item[], limit: number, lambda: number, similarity: (a: Item, b: Item) => number): Array<{ item: Item; penalty: number }> {
  const maxScore = Math.max(1e-9, pool[0]?.score ?? 0);
  const chosen: Array<{ item: Item; penalty: number }> = [];
  const remaining = [...pool];
  const maxSimilarity = remaining.map(() => 0);
  while (remaining.length > 0 && chosen.length < limit) {
    let bestIndex = 0;
    let bestValue = -Infinity;
    for (let i = 0; i < remaining.length; i++) {
      const value = lambda * (remaining[i]!.score / maxScore) - (1 - lambda) * maxSimilarity[i]!;
      if (value > bestValue) {
        bestValue = value;
        bestIndex = i;
      }
    }
    const picked = remaining[bestIndex]!;
    chosen.push({ item: picked, penalty: (1 - lambda) * maxSimilarity[bestIndex]! });
    remaining.splice(bestIndex, 1);
    maxSimilarity.splice(bestIndex, 1);
    if (chosen.length >= limit) break;
    for (let i = 0; i < remaining.length; i++) maxSimilarity[i] = Math.max(maxSimilarity[i]!, similarity(remaining[i]!, picked));
  }
  return chosen;
}

/** Deterministic pseudo-random numbers in [0, 1) (mulberry32). */
function rng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    let t = (state = (state + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('maximal marginal relevance', () => {
  it('picks what comparing every item after every pick picks, ties included, with fewer comparisons', () => {
    const next = rng(7);
    let lazyCalls = 0;
    let eagerCalls = 0;
    for (let round = 0; round < 400; round++) {
      const size = 1 + Math.floor(next() * 40);
      // Coarse scores and similarities make ties common: the first item must still win them.
      const coarse = round % 2 === 0;
      const pool = Array.from({ length: size }, (_, id) => ({ id, score: coarse ? Math.floor(next() * 5) / 4 : next() })).sort((a, b) => b.score - a.score);
      const pairs = new Map<string, number>();
      const similarity = (a: Item, b: Item): number => {
        const key = a.id < b.id ? `${a.id}:${b.id}` : `${b.id}:${a.id}`;
        if (!pairs.has(key)) pairs.set(key, coarse ? Math.floor(next() * 3) / 2 : next());
        return pairs.get(key)!;
      };
      const limit = 1 + Math.floor(next() * 12);
      const lambda = [0, 0.3, 0.7, 1][round % 4]!;
      const eager = eagerPicks(pool, limit, lambda, (a, b) => (eagerCalls++, similarity(a, b)));
      const lazy = pickByMarginalRelevance(pool, limit, lambda, (a, b) => (lazyCalls++, similarity(a, b)));
      expect(lazy.map((p) => [p.item.id, p.penalty])).toEqual(eager.map((p) => [p.item.id, p.penalty]));
    }
    expect(lazyCalls).toBeLessThan(eagerCalls);
  });

  it('compares nothing for the first pick and returns the whole pool when the limit allows', () => {
    const pool = [{ id: 1, score: 2 }, { id: 2, score: 1 }];
    let calls = 0;
    expect(pickByMarginalRelevance(pool, 1, 0.7, () => (calls++, 1)).map((p) => p.item.id)).toEqual([1]);
    expect(calls).toBe(0);
    expect(pickByMarginalRelevance(pool, 5, 0.7, () => 1).map((p) => p.penalty)).toEqual([0, 0.30000000000000004]);
    expect(pickByMarginalRelevance([], 3, 0.7, () => 1)).toEqual([]);
  });
});
