import type Database from 'better-sqlite3';
import type { SearchResult, SourceKind } from '../api/contract.js';
import type { EmbeddingProvider } from '../embed/provider.js';
import { dot, type VectorStore } from '../index/vectorStore.js';
import { importanceMultiplier, noteDate, triggerPhrases } from './annotations.js';
import { snippetForms, toResult, type ChunkHit, type KeywordSearcher } from './keywordSearch.js';
import { buildSnippet, type SnippetTerm } from './snippet.js';

export type FusionMode = 'weighted' | 'rrf';

export interface HybridSettings {
  fusion: FusionMode;
  vectorWeight: number;
  textWeight: number;
  mmrLambda: number;
  /** Dated notes lose relevance with age, but never below `decayFloor` (a tie-breaker, not a filter). */
  decayHalfLifeDays: number;
  decayFloor: number;
  /** Share of the score given to how much of the query the cited lines cover (passage focus). */
  passageWeight: number;
}

export const DEFAULT_HYBRID: HybridSettings = {
  fusion: 'weighted',
  vectorWeight: 0.7,
  textWeight: 0.3,
  mmrLambda: 0.7,
  decayHalfLifeDays: 90,
  decayFloor: 0.5,
  passageWeight: 0.5,
};

const RRF_K = 60;
const KNN_MAX_VECTORS = 30_000;
/** Below these cosine similarities a vector-only hit is indistinguishable from unrelated text. */
const HASH_NOISE_FLOOR = 0.15;
const MODEL_NOISE_FLOOR = 0.3;
const MIN_CANDIDATES = 40;
const DAY_MS = 86_400_000;

interface Candidate {
  hit: ChunkHit;
  keyword: number;
  vector: number;
  keywordRank: number | null;
  vectorRank: number | null;
  fileMatch: 'date' | 'path' | null;
}

/**
 * Keyword (BM25) and vector (KNN) candidates, fused, adjusted by importance, trigger phrases
 * and a floored temporal decay, then diversified with MMR. Every result says how it scored.
 */
export class HybridSearcher {
  private readonly chunksById: Database.Statement<unknown[], Omit<ChunkHit, 'rank'>>;

  constructor(
    db: Database.Database,
    private readonly keyword: KeywordSearcher,
    private readonly vectors: () => { store: VectorStore; provider: EmbeddingProvider } | null,
    private readonly settings: () => HybridSettings = () => DEFAULT_HYBRID,
    private readonly now: () => number = Date.now,
  ) {
    this.chunksById = db.prepare(
      `SELECT id, path, source, start_line, end_line, text FROM chunks WHERE id IN (SELECT value FROM json_each(?))`,
    );
  }

  async search({ query, limit, sources }: { query: string; limit: number; sources: readonly SourceKind[] }): Promise<SearchResult[]> {
    const settings = this.settings();
    const sourceSet = new Set(sources);
    const want = Math.max(MIN_CANDIDATES, limit * 4);
    const plan = this.keyword.plan(query);
    const snippetTerms: SnippetTerm[] = plan.terms.map((t) => ({ forms: snippetForms(t), weight: t.isStopword ? 0.05 : t.weight }));

    const candidates = new Map<number, Candidate>();
    const keywordHits = plan.match ? this.keyword.rankedHits(plan, want, sourceSet).slice(0, want) : [];
    const maxBm25 = Math.max(1e-9, ...keywordHits.map((h) => -h.rank));
    keywordHits.forEach((hit, i) => {
      candidates.set(hit.id, { hit, keyword: -hit.rank / maxBm25, vector: 0, keywordRank: i, vectorRank: null, fileMatch: null });
    });

    const vectorSide = this.vectors();
    let queryVector: Float32Array | null = null;
    if (vectorSide && query.trim().length > 0) {
      queryVector = await vectorSide.provider.embedQuery(query);
      // Cosine is used as is (not scaled to the best hit), so a query with no real neighbour
      // does not promote noise; vector-only candidates must clear the provider's noise floor.
      const minSimilarity = vectorSide.provider.generation.provider === 'hash' ? HASH_NOISE_FLOOR : MODEL_NOISE_FLOOR;
      // Whole-index KNN is brute force (sqlite-vec measured ~64 ms at 100k chunks here); above
      // the bound, vectors only re-score the keyword candidates so search stays interactive.
      const vectorHits = (
        vectorSide.store.approximateCount() <= KNN_MAX_VECTORS
          ? vectorSide.store.knn(queryVector, want)
          : keywordHits.map((h) => ({ chunkId: h.id, similarity: dot(queryVector!, vectorSide.store.vectorOf(h.id) ?? queryVector!.map(() => 0)) }))
      ).filter((h) => h.similarity > 0);
      const missing = vectorHits.filter((h) => !candidates.has(h.chunkId) && h.similarity >= minSimilarity).map((h) => h.chunkId);
      const rows = new Map(missing.length ? this.chunksById.all(JSON.stringify(missing)).map((r) => [r.id, r]) : []);
      vectorHits.forEach((h, i) => {
        const existing = candidates.get(h.chunkId);
        if (existing) {
          existing.vector = h.similarity;
          existing.vectorRank = i;
          return;
        }
        const row = rows.get(h.chunkId);
        if (!row || !sourceSet.has(row.source)) return;
        candidates.set(h.chunkId, { hit: { ...row, rank: 0 }, keyword: 0, vector: h.similarity, keywordRank: null, vectorRank: i, fileMatch: null });
      });
    }

    const queryLower = query.toLowerCase();
    // Hash vectors are lexical, so they get the minor share; a real embedding model the major one
    // (measured on LoCoMo with the hash provider: 0.3/0.7 beats 0.7/0.3 on every recall figure).
    const weights =
      vectorSide?.provider.generation.provider === 'hash'
        ? { vector: settings.textWeight, text: settings.vectorWeight }
        : { vector: settings.vectorWeight, text: settings.textWeight };
    const totalWeight = Math.max(1e-9, snippetTerms.reduce((n, t) => n + t.weight, 0));
    const scored = [...candidates.values()].map((c) => {
      // Passage focus: how much of the query the cited lines themselves cover.
      const snippet = buildSnippet(c.hit.text, c.hit.start_line, snippetTerms);
      const coverage = snippet.matchedWeight / totalWeight;
      const fused =
        settings.fusion === 'rrf'
          ? (c.keywordRank === null ? 0 : 1 / (RRF_K + c.keywordRank)) + (c.vectorRank === null ? 0 : 1 / (RRF_K + c.vectorRank))
          : vectorSide
            ? weights.vector * c.vector + weights.text * c.keyword
            : c.keyword;
      const decay = this.decay(c.hit.path, settings);
      const importance = importanceMultiplier(c.hit.text);
      const trigger = triggerPhrases(c.hit.text).some((p) => queryLower.includes(p)) ? 1.25 : 1;
      const focused = (1 - settings.passageWeight) * fused + settings.passageWeight * coverage;
      return { c, snippet, coverage, fused, decay, importance, trigger, score: focused * decay * importance * trigger };
    });

    const diversified = this.mmr(scored, limit, settings.mmrLambda, vectorSide?.store ?? null);
    const results: SearchResult[] = [];
    const seen = new Set<number>();

    // A date or path the person typed names a file: that file comes first.
    const top = diversified[0]?.item.score ?? 1;
    this.keyword.exactFileMatches(query, limit).forEach(({ hit, reason }, i) => {
      if (seen.has(hit.id) || !sourceSet.has(hit.source)) return;
      seen.add(hit.id);
      results.push(toResult(hit, top + 1 - i * 0.001, [reason], snippetTerms));
    });
    for (const { item, penalty } of diversified) {
      if (results.length >= limit) break;
      if (seen.has(item.c.hit.id)) continue;
      seen.add(item.c.hit.id);
      const matchedBy: SearchResult['matchedBy'] = [];
      if (item.c.keywordRank !== null) matchedBy.push('keyword');
      if (item.c.vectorRank !== null) matchedBy.push('vector');
      const result = toResult(item.c.hit, item.score, matchedBy, snippetTerms, item.snippet);
      result.breakdown = {
        keyword: round(item.c.keyword),
        vector: round(item.c.vector),
        fused: round(item.fused),
        fusion: settings.fusion,
        decay: round(item.decay),
        importance: round(item.importance),
        trigger: item.trigger,
        mmr: round(penalty),
      };
      results.push(result);
    }
    return results.slice(0, limit);
  }

  private decay(path: string, settings: HybridSettings): number {
    const date = noteDate(path);
    if (!date) return 1; // MEMORY.md, USER.md and undated notes never decay
    const ageDays = Math.max(0, (this.now() - date.getTime()) / DAY_MS);
    return settings.decayFloor + (1 - settings.decayFloor) * Math.pow(0.5, ageDays / settings.decayHalfLifeDays);
  }

  /** Maximal marginal relevance over the best candidates: relevance traded against similarity to what is already chosen. */
  private mmr<T extends { c: Candidate; score: number }>(items: T[], limit: number, lambda: number, store: VectorStore | null): Array<{ item: T; penalty: number }> {
    const pool = items.sort((a, b) => b.score - a.score).slice(0, Math.max(limit * 3, 30));
    const maxScore = Math.max(1e-9, pool[0]?.score ?? 0);
    const vectors = new Map<number, Float32Array | null>();
    const vectorOf = (id: number): Float32Array | null => {
      if (!vectors.has(id)) vectors.set(id, store?.vectorOf(id) ?? null);
      return vectors.get(id)!;
    };
    const chosen: Array<{ item: T; penalty: number }> = [];
    const remaining = [...pool];
    while (remaining.length > 0 && chosen.length < limit) {
      let bestIndex = 0;
      let bestValue = -Infinity;
      let bestPenalty = 0;
      for (let i = 0; i < remaining.length; i++) {
        const item = remaining[i]!;
        let maxSimilarity = 0;
        for (const { item: picked } of chosen) {
          maxSimilarity = Math.max(maxSimilarity, similarity(item.c.hit, picked.c.hit, vectorOf));
        }
        const value = lambda * (item.score / maxScore) - (1 - lambda) * maxSimilarity;
        if (value > bestValue) {
          bestValue = value;
          bestIndex = i;
          bestPenalty = (1 - lambda) * maxSimilarity;
        }
      }
      chosen.push({ item: remaining[bestIndex]!, penalty: bestPenalty });
      remaining.splice(bestIndex, 1);
    }
    return chosen;
  }
}

function similarity(a: ChunkHit, b: ChunkHit, vectorOf: (id: number) => Float32Array | null): number {
  const va = vectorOf(a.id);
  const vb = vectorOf(b.id);
  if (va && vb) return Math.max(0, dot(va, vb));
  // Without vectors: overlapping line ranges of the same file are near-duplicates.
  return a.path === b.path && a.start_line <= b.end_line && b.start_line <= a.end_line ? 1 : 0;
}

function round(x: number): number {
  return Math.round(x * 1000) / 1000;
}
