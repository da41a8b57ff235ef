/**
 * Where search time goes, measured on a second read-only connection to the benchmark's own
 * index: query planning (document-frequency look-ups in chunks_vocab) versus the whole search.
 */
import Database from 'better-sqlite3';
import { KeywordSearcher } from '../../core/src/search/keywordSearch.js';
import { extractQueryTerms } from '../../core/src/search/queryTerms.js';
import { round, summarizeLatency, type LatencySummary } from './stats.js';

export interface SearchDiagnostics {
  /** KeywordSearcher.plan() alone (one chunks_vocab look-up per query word, stopwords included). */
  plan: LatencySummary;
  /** KeywordSearcher.search() on the read-only connection (no contract validation). */
  search_direct: LatencySummary;
  /** `SELECT doc FROM chunks_vocab WHERE term = ?` for single terms: [term, df, ms]. */
  vocab_lookup_ms: Array<{ term: string; df: number; ms: number }>;
  /** Mean share of query words that are stopwords (looked up although never selected). */
  stopword_share: number;
  /** Per query: chunks matched by the selected FTS5 expression (all of them get a BM25 score), p50 / p95 / max. */
  matched_rows: { p50: number; p95: number; max: number };
  /** Lower bound for the MATCH step: FTS5 alone ranks and returns the top 20 rowids (no join with chunks). */
  fts_rank_only: LatencySummary;
}

export function diagnoseSearch(indexPath: string, queries: readonly string[], probeTerms: readonly string[]): SearchDiagnostics {
  const db = new Database(indexPath, { readonly: true, fileMustExist: true });
  try {
    const searcher = new KeywordSearcher(db);
    for (const q of queries.slice(0, 20)) searcher.search({ query: q, limit: 10, sources: ['memory'] });
    const planMs: number[] = [];
    const searchMs: number[] = [];
    const matched: number[] = [];
    const ftsMs: number[] = [];
    const countMatch = db.prepare<[string], { n: number }>('SELECT count(*) AS n FROM chunks_fts WHERE chunks_fts MATCH ?');
    const rankOnly = db.prepare<[string], { rowid: number; r: number }>(
      'SELECT rowid, bm25(chunks_fts) AS r FROM chunks_fts WHERE chunks_fts MATCH ? ORDER BY r LIMIT 20',
    );
    let stopShare = 0;
    for (const q of queries) {
      let t = performance.now();
      const plan = searcher.plan(q);
      planMs.push(performance.now() - t);
      t = performance.now();
      searcher.search({ query: q, limit: 10, sources: ['memory'] });
      searchMs.push(performance.now() - t);
      if (plan.match) {
        matched.push(countMatch.get(plan.match)?.n ?? 0);
        t = performance.now();
        rankOnly.all(plan.match);
        ftsMs.push(performance.now() - t);
      } else matched.push(0);
      const terms = extractQueryTerms(q);
      stopShare += terms.length ? terms.filter((term) => term.isStopword).length / terms.length : 0;
    }
    const lookup = db.prepare<[string], { doc: number }>('SELECT doc FROM chunks_vocab WHERE term = ?');
    const vocab = probeTerms.map((term) => {
      lookup.get(term);
      const t = performance.now();
      const df = lookup.get(term)?.doc ?? 0;
      return { term, df, ms: round(performance.now() - t, 3) };
    });
    const sorted = [...matched].sort((a, b) => a - b);
    const at = (p: number): number => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? 0;
    return {
      plan: summarizeLatency(planMs),
      search_direct: summarizeLatency(searchMs),
      vocab_lookup_ms: vocab,
      stopword_share: round(stopShare / Math.max(1, queries.length), 3),
      matched_rows: { p50: at(50), p95: at(95), max: sorted[sorted.length - 1] ?? 0 },
      fts_rank_only: summarizeLatency(ftsMs),
    };
  } finally {
    db.close();
  }
}
