import type Database from 'better-sqlite3';
import type { SourceKind } from '../contract/index.js';
import { gramQueries } from '../index/unspacedGrams.js';
import type { StoredChunkHit } from './keywordSearch.js';
import { QUERY_LIMITS, type QueryTerm } from './queryTerms.js';

/** A query term found through `chunks_grams`: a run of an unspaced script, with its FTS5 expression there. */
export type GramTerm = QueryTerm & { gramFts: string };

/**
 * Reads of `chunks_grams`, the side table of unspaced-script runs (index/unspacedGrams.ts):
 * document frequencies, ranked matches and BM25 of given chunks. KeywordSearcher plans queries
 * over it and the main index together.
 */
export class GramTable {
  private readonly vocabDoc: Database.Statement<[string], { doc: number }>;
  private readonly prefixDoc: Database.Statement<[string, string], { doc: number }>;
  private readonly rankedOf: Database.Statement<[string, number, string, number], StoredChunkHit>;
  private readonly budgetFloor: Database.Statement<[string, number], { rowid: number }>;
  private readonly bm25Of: Database.Statement<[string, string], { id: number; rank: number }>;
  private readonly anyRow: Database.Statement<[], { one: number }>;
  private hasRowsKnown: boolean | null = null;

  constructor(db: Database.Database) {
    this.vocabDoc = db.prepare('SELECT doc FROM chunks_grams_vocab WHERE term = ?');
    this.prefixDoc = db.prepare('SELECT coalesce(sum(doc), 0) AS doc FROM chunks_grams_vocab WHERE term >= ? AND term < ?');
    // The source is filtered while FTS5 walks its matches, as in the main index (one primary-key read each).
    this.rankedOf = db.prepare(
      `SELECT c.id, c.path, c.source, c.start_line, c.end_line, c.text, top.rank
       FROM (SELECT rowid, bm25(chunks_grams) AS rank FROM chunks_grams WHERE chunks_grams MATCH ? AND rowid >= ?
             AND (SELECT source FROM chunks WHERE id = chunks_grams.rowid) IN (SELECT value FROM json_each(?)) ORDER BY rank, rowid LIMIT ?) AS top
       JOIN chunks c ON c.id = top.rowid
       ORDER BY top.rank, top.rowid`,
    );
    this.budgetFloor = db.prepare('SELECT rowid FROM chunks_grams WHERE chunks_grams MATCH ? ORDER BY rowid DESC LIMIT 1 OFFSET ?');
    this.bm25Of = db.prepare(
      'SELECT rowid AS id, bm25(chunks_grams) AS rank FROM chunks_grams WHERE chunks_grams MATCH ? AND rowid IN (SELECT value FROM json_each(?))',
    );
    this.anyRow = db.prepare('SELECT 1 AS one FROM chunks_grams_vocab LIMIT 1');
  }

  /** Whether any chunk has a row (none in an all-English index: its words are then never looked up here). */
  hasRows(): boolean {
    this.hasRowsKnown ??= this.anyRow.get() !== undefined;
    return this.hasRowsKnown;
  }

  /** Someone wrote to the index: the first row may have come. */
  forgetRows(): void {
    this.hasRowsKnown = null;
  }

  /** Chunks a run's expression can match: a phrase is in no more than its rarest pair, a prefix in the sum of its terms' (at most `total`). */
  runFrequency(fts: string, total: number): number {
    const prefix = fts.endsWith('*');
    const inner = fts.slice(1, prefix ? -2 : -1);
    if (prefix) return Math.min(total, this.prefixDoc.get(inner, inner + '\uffff')?.doc ?? 0);
    return Math.min(...inner.split(' ').map((pair) => this.vocabDoc.get(pair)?.doc ?? 0));
  }

  /** Chunks having a spaced word here (hidden in a run, or full-width), stored porter-stemmed as in the main index. */
  wordFrequency(term: QueryTerm): number {
    return this.vocabDoc.get(term.stem)?.doc ?? (term.stem !== term.word ? this.vocabDoc.get(term.word)?.doc : 0) ?? 0;
  }

  /** The `limit` best-ranked chunks of the wanted sources; past `budget` matches (of `postings`), only the newest are ranked. */
  ranked(match: string, postings: number, budget: number, sources: ReadonlySet<SourceKind>, limit: number): StoredChunkHit[] {
    const floor = postings <= budget ? 0 : (this.budgetFloor.get(match, budget)?.rowid ?? 0);
    return this.rankedOf.all(match, floor, JSON.stringify([...sources]), limit);
  }

  /** BM25 of the chunks `ids` that match (FTS5's sign: lower is better). */
  ranks(match: string, ids: readonly number[]): Map<number, number> {
    return new Map(this.bm25Of.all(match, JSON.stringify(ids)).map((r) => [r.id, r.rank]));
  }
}

/** The terms a query's unspaced runs are searched by (at most as many as a query has words). */
export function gramQueryTerms(runs: readonly string[]): GramTerm[] {
  const seen = new Set<string>();
  const terms: GramTerm[] = [];
  for (const q of runs.flatMap(gramQueries)) {
    if (seen.has(q.fts)) continue;
    seen.add(q.fts);
    terms.push({ word: q.text, stem: q.text, isStopword: q.isStopword, variants: [], gramFts: q.fts });
    if (terms.length >= QUERY_LIMITS.MAX_TERMS * 4) break;
  }
  return terms;
}
