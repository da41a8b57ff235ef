import type Database from 'better-sqlite3';
import type { SearchResult, SourceKind } from '../contract/index.js';
import { writeStampReader } from '../index/writeStamp.js';
import { makeId } from '../platform/ids.js';
import { LruCache } from '../platform/lruCache.js';
import { halfWidthKatakana, unspacedRuns, withoutUnspacedRuns } from '../contract/unspacedScripts.js';
import { ChunkTextReader, type StoredChunk } from './chunkTextReader.js';
import { GramTable, gramQueryTerms } from './gramTable.js';
import { extractQueryTerms, quoteFts, stemWord, type QueryTerm } from './queryTerms.js';
import { buildSnippet, type Snippet, type SnippetTerm } from './snippet.js';
import { SourceRanges, type IdRange } from './sourceRanges.js';

export interface KeywordQuery {
  query: string;
  limit: number;
  sources: readonly SourceKind[];
}

export interface ChunkHit {
  id: number;
  path: string;
  source: SourceKind;
  start_line: number;
  end_line: number;
  text: string;
  rank: number;
}

/** A ChunkHit whose text is still stored (deflated): searches read the texts of all they score at once (ChunkTextReader). */
export type StoredChunkHit = StoredChunk<ChunkHit>;

/** Upper bound on postings a query may select from, so one query never scans most of the index. */
const MAX_POSTINGS = 40_000;
/**
 * BM25 costs about 1 µs a matching row. When a query's words match more rows than this, only
 * the most recently indexed matches are ranked (daily notes are indexed as they are written,
 * so these are the newest notes); everything else about the query stays the same.
 */
const RANK_BUDGET = 12_000;
/**
 * Extra rows fetched from FTS5 (per wanted one) when only DREAMS.md is left out (the default
 * sources): it is one file, so leaving its rows out afterwards usually fills the page in one
 * query. Every fetched row reads its chunk's text: three times the page cost ~5% of a search.
 */
const FILTERED_OVERFETCH = 0.25;
/**
 * Sources small enough to leave out after ranking (one file). Leaving out a large source that
 * way made a memory-only search with 80k transcript chunks indexed 10× slower than an
 * unfiltered one: it re-ranked ever deeper pages of the other source's rows.
 */
const SMALL_SOURCES: ReadonlySet<SourceKind> = new Set(['dreams']);
/**
 * Id ranges a filtered search asks FTS5 for, one query each (sourceRanges.ts). Each query
 * recounts its words' matches for BM25, so past this many the closest ranges are joined and
 * the chunks of other sources inside them are left out by reading their source.
 */
const MAX_SOURCE_RANGES = 8;
/** Every source kind (the contract's enum, without loading the contract into search workers). */
const ALL_SOURCES = { memory: true, dreams: true, sessions: true } satisfies Record<SourceKind, true>;
const MAX_SELECTED_TERMS = 24;
/** Rows a query may select through words that carry no BM25 weight (see `plan`). */
const MAX_WIDENING_POSTINGS = 2_000;
/**
 * How often a reader that sees other connections write (a search worker while the engine
 * indexes) re-reads the index's totals. Re-reading after every 10 ms write slice tripled a
 * worker's search time during a first index; weights a second old rank the same.
 */
const REFRESH_INTERVAL_MS = 1_000;
/** Words whose document frequency is kept (a query looks up ~10 with their irregular forms; most forms are in no chunk). */
const DF_CACHE_WORDS = 20_000;
const DATE_IN_QUERY = /\b(\d{4})-(\d{2})-(\d{2})\b/g;
const PATH_IN_QUERY = /(?:^|\s)((?:[\w.@-]+\/)*[\w.@-]+\.md)\b/gi;

export interface PlannedQuery {
  /** FTS5 expression of the selecting words (quoted), or null when none is in the index. */
  match: string | null;
  /**
   * FTS5 expression over `chunks_grams` (index/unspacedGrams.ts): the query's unspaced-script
   * runs and the selecting words found there. Null when it has none: the query is then searched
   * exactly as before that table existed.
   */
  gramMatch: string | null;
  /** Upper bound on the rows `match` touches (sum of document frequencies). */
  postings: number;
  /** The same for `gramMatch`. */
  gramPostings: number;
  terms: PlannedTerm[];
}

export type PlannedTerm = QueryTerm & {
  df: number;
  weight: number;
  usePrefix: boolean;
  selects: boolean;
  /** Set for a run of an unspaced script: its FTS5 expression over `chunks_grams`. */
  gramFts?: string;
  /** How many chunks have the word in `chunks_grams` (hidden in an unspaced run, or full-width); 0 for a gram term. */
  gramDf: number;
};

/** Whether a plan selects any rows (through either table). */
export function selectsRows(plan: PlannedQuery): boolean {
  return plan.match !== null || plan.gramMatch !== null;
}

/**
 * BM25 keyword search over FTS5. User input never reaches FTS5 syntax unquoted; natural-language
 * questions are answered by OR-ing their content words, ranked by BM25, with very common words
 * kept out of the selection (they still count in the snippet).
 */
export class KeywordSearcher {
  private readonly vocabDoc: Database.Statement<[string], { doc: number }>;
  private readonly mainBm25Of: Database.Statement<[string, string], { id: number; rank: number }>;
  private readonly grams: GramTable;
  private readonly prefixDoc: Database.Statement<[string, string], { doc: number }>;
  private readonly chunkCount: Database.Statement<[], { n: number }>;
  private readonly filesByPath: Database.Statement<[string], { path: string }>;
  private readonly chunksOfFile: Database.Statement<[string, number], Omit<StoredChunkHit, 'rank'>>;
  private readonly rankedMatch: Database.Statement<[string, number, number], StoredChunkHit>;
  private readonly budgetFloor: Database.Statement<[string, number], { rowid: number }>;
  /** The same two, keeping only chunks of the sources given (a JSON array) while FTS5 walks its matches. */
  private readonly rankedMatchOf: Database.Statement<[string, number, string, number], StoredChunkHit>;
  private readonly budgetFloorOf: Database.Statement<[string, string, number], { rowid: number }>;
  /** Matches inside one id range (`…Of`: of the sources given too): counted, the floor's row, the best-ranked. */
  private readonly countIn: Database.Statement<[string, number, number], { n: number }>;
  private readonly countInOf: Database.Statement<[string, number, number, string], { n: number }>;
  private readonly floorIn: Database.Statement<[string, number, number, number], { rowid: number }>;
  private readonly floorInOf: Database.Statement<[string, number, number, string, number], { rowid: number }>;
  private readonly rankedIn: Database.Statement<[string, number, number, number], { id: number; rank: number }>;
  private readonly rankedInOf: Database.Statement<[string, number, number, string, number], { id: number; rank: number }>;
  private readonly chunksById: Database.Statement<[string], Omit<StoredChunkHit, 'rank'>>;
  private readonly sourceRanges: SourceRanges;
  private readonly dataVersion: Database.Statement<[], { data_version: number }>;
  private readonly writeStamp: () => string;
  /** Reads the stored texts of the chunks a search scores or shows (shared with the hybrid searcher on this connection). */
  readonly texts: ChunkTextReader;
  private readonly dfCache = new LruCache<string, number>(DF_CACHE_WORDS);
  /** Words (and prefixes) in no chunk, kept only until anyone writes to the index (see `dropStaleMisses`). */
  private readonly missCache = new LruCache<string, true>(DF_CACHE_WORDS);
  private missStamp = '';
  private cacheVersion = -1;
  private checkedAt = -Infinity;
  private cachedTotal = 0;
  private generation = 0;

  constructor(private readonly db: Database.Database) {
    this.vocabDoc = db.prepare('SELECT doc FROM chunks_vocab WHERE term = ?');
    this.grams = new GramTable(db);
    this.mainBm25Of = db.prepare(
      'SELECT rowid AS id, bm25(chunks_fts) AS rank FROM chunks_fts WHERE chunks_fts MATCH ? AND rowid IN (SELECT value FROM json_each(?))',
    );
    this.prefixDoc = db.prepare('SELECT coalesce(sum(doc), 0) AS doc FROM chunks_vocab WHERE term >= ? AND term < ?');
    this.chunkCount = db.prepare('SELECT count(*) AS n FROM chunks');
    this.filesByPath = db.prepare(
      "SELECT path FROM files WHERE status = 'indexed' AND path LIKE ? ESCAPE '\\' ORDER BY path LIMIT 20",
    );
    this.chunksOfFile = db.prepare('SELECT id, path, source, start_line, end_line, text FROM chunks WHERE path = ? ORDER BY start_line LIMIT ?');
    // Rank inside FTS5 first and join only the top rows: joining before the LIMIT would read
    // the text of every matching chunk.
    this.rankedMatch = db.prepare(
      `SELECT c.id, c.path, c.source, c.start_line, c.end_line, c.text, top.rank
       FROM (SELECT rowid, bm25(chunks_fts) AS rank FROM chunks_fts WHERE chunks_fts MATCH ? AND rowid >= ? ORDER BY rank, rowid LIMIT ?) AS top
       JOIN chunks c ON c.id = top.rowid
       ORDER BY top.rank, top.rowid`,
    );
    // Walking matches in rowid order is ~25x cheaper than ranking them.
    this.budgetFloor = db.prepare('SELECT rowid FROM chunks_fts WHERE chunks_fts MATCH ? ORDER BY rowid DESC LIMIT 1 OFFSET ?');
    // A source filter inside the ranking: each match's source is one primary-key read (no
    // text), and only the wanted source's rows are ranked, counted for the budget or joined.
    const ofSources = '(SELECT source FROM chunks WHERE id = chunks_fts.rowid) IN (SELECT value FROM json_each(?))';
    this.rankedMatchOf = db.prepare(
      `SELECT c.id, c.path, c.source, c.start_line, c.end_line, c.text, top.rank
       FROM (SELECT rowid, bm25(chunks_fts) AS rank FROM chunks_fts WHERE chunks_fts MATCH ? AND rowid >= ? AND ${ofSources} ORDER BY rank, rowid LIMIT ?) AS top
       JOIN chunks c ON c.id = top.rowid
       ORDER BY top.rank, top.rowid`,
    );
    this.budgetFloorOf = db.prepare(`SELECT rowid FROM chunks_fts WHERE chunks_fts MATCH ? AND ${ofSources} ORDER BY rowid DESC LIMIT 1 OFFSET ?`);
    // FTS5 takes a rowid range itself: the matches outside it are skipped, not walked.
    const inRange = 'chunks_fts MATCH ? AND rowid BETWEEN ? AND ?';
    this.countIn = db.prepare(`SELECT count(*) AS n FROM chunks_fts WHERE ${inRange}`);
    this.countInOf = db.prepare(`SELECT count(*) AS n FROM chunks_fts WHERE ${inRange} AND ${ofSources}`);
    this.floorIn = db.prepare(`SELECT rowid FROM chunks_fts WHERE ${inRange} ORDER BY rowid DESC LIMIT 1 OFFSET ?`);
    this.floorInOf = db.prepare(`SELECT rowid FROM chunks_fts WHERE ${inRange} AND ${ofSources} ORDER BY rowid DESC LIMIT 1 OFFSET ?`);
    this.rankedIn = db.prepare(`SELECT rowid AS id, bm25(chunks_fts) AS rank FROM chunks_fts WHERE ${inRange} ORDER BY rank, rowid LIMIT ?`);
    this.rankedInOf = db.prepare(`SELECT rowid AS id, bm25(chunks_fts) AS rank FROM chunks_fts WHERE ${inRange} AND ${ofSources} ORDER BY rank, rowid LIMIT ?`);
    this.chunksById = db.prepare('SELECT id, path, source, start_line, end_line, text FROM chunks WHERE id IN (SELECT value FROM json_each(?))');
    this.sourceRanges = new SourceRanges(db);
    this.dataVersion = db.prepare('PRAGMA data_version');
    this.writeStamp = writeStampReader(db);
    this.texts = new ChunkTextReader();
  }

  search({ query, limit, sources }: KeywordQuery): SearchResult[] {
    const plan = this.plan(query);
    const snippetTerms: SnippetTerm[] = plan.terms.map((t) => ({
      forms: snippetForms(t),
      weight: t.isStopword ? 0.05 : t.weight,
    }));
    const shown: Array<{ hit: StoredChunkHit; score: number; matchedBy: SearchResult['matchedBy'] }> = [];
    const seen = new Set<number>();
    const sourceSet = new Set(sources);

    const fileHits = this.exactFileMatches(query, limit);
    // Keyword hits the file hits already show are skipped below: ask for that many more.
    const keywordHits = selectsRows(plan) ? this.rankedHits(plan, limit + fileHits.length, sourceSet) : [];
    const topKeyword = keywordHits.length > 0 ? -keywordHits[0]!.rank : 0;

    // A date or path the person typed names a file: show that file first.
    fileHits.forEach(({ hit, reason }, i) => {
      if (seen.has(hit.id) || !sourceSet.has(hit.source)) return;
      seen.add(hit.id);
      shown.push({ hit, score: topKeyword + 10 - i * 0.01, matchedBy: [reason] });
    });
    for (const hit of keywordHits) {
      if (shown.length >= limit) break;
      if (seen.has(hit.id)) continue;
      seen.add(hit.id);
      shown.push({ hit, score: -hit.rank, matchedBy: ['keyword'] });
    }
    const page = shown.slice(0, limit);
    const texts = this.texts.texts(page.map((s) => s.hit));
    return page.map((s, i) => toResult({ ...s.hit, text: texts[i]! }, s.score, s.matchedBy, snippetTerms));
  }

  /** Chooses which terms select rows (rare ones) and builds an operator-free FTS5 expression. */
  plan(query: string): PlannedQuery {
    this.refreshCache();
    this.dropStaleMisses();
    // Runs of unspaced scripts are asked of `chunks_grams`; the rest of the query is words, as always.
    const folded = query.normalize('NFKC');
    const runs = unspacedRuns(folded);
    const spaced = runs.length > 0 ? withoutUnspacedRuns(folded) : query;
    const all: Array<QueryTerm & { gramFts?: string }> = [...extractQueryTerms(spaced), ...gramQueryTerms(runs.map((r) => r.text.toLowerCase()))];
    const total = Math.max(1, this.cachedTotal);
    const content = all.filter((t) => !t.isStopword);
    // Stopwords only select when the query has nothing else; otherwise their (costly) counts are never needed.
    const selecting = new Set(content.length > 0 ? content : all);
    // A query ending inside an unspaced run is not typing a word: its last character is already asked as a prefix.
    const endsInWord = /[\p{L}\p{N}]$/u.test(spaced);
    const last = all.filter((t) => t.gramFts === undefined).at(-1);
    const gramsIndexed = this.grams.hasRows();

    const terms: PlannedTerm[] = all.map((t) => {
      if (t.gramFts !== undefined) {
        const df = selecting.has(t) ? this.gramFrequency(t.gramFts) : Math.round(total / 2);
        return { ...t, df, gramDf: 0, usePrefix: false, selects: selecting.has(t), weight: idf(df, total) };
      }
      let df = selecting.has(t) ? this.documentFrequency(t) : Math.round(total / 2);
      // Irregular forms in the index count as the word ("bought" for "buy"); at most every chunk has one.
      const variants = selecting.has(t) ? t.variants.filter((v) => this.variantFrequency(v) > 0) : [];
      for (const v of variants) df = Math.min(total, df + this.variantFrequency(v));
      // A word still being typed matches as a prefix when it is not a word of its own.
      const usePrefix = endsInWord && t === last && selecting.has(t) && t.word.length >= 3 && df === 0;
      if (usePrefix) df = this.prefixFrequency(t.word);
      // The word hidden in an unspaced run ("Kestrelの…") or written full-width is in the side table only.
      const gramDf = gramsIndexed && selecting.has(t) && !usePrefix ? this.gramWordFrequency(t) : 0;
      df = Math.min(total, df + gramDf);
      return { ...t, variants, df, gramDf, usePrefix, selects: selecting.has(t), weight: idf(df, total) };
    });

    const selected: string[] = [];
    const selectedGrams: string[] = [];
    let postings = 0;
    let gramPostings = 0;
    for (const t of terms.filter((x) => x.selects && x.df > 0).sort((a, b) => a.df - b.df)) {
      if (selected.length + selectedGrams.length >= MAX_SELECTED_TERMS) break;
      // The rarest term always selects (it is all we have); the others only while the scan stays
      // bounded. A word in half the chunks or more gets an idf of ~0 from FTS5's bm25(), so it
      // cannot change the order: it only widens a thin candidate list (the vector side and
      // passage focus re-rank those), and only while that stays cheap.
      if (selected.length + selectedGrams.length > 0 && postings + gramPostings + t.df > (ranksInBm25(t.df, total) ? MAX_POSTINGS : MAX_WIDENING_POSTINGS)) continue;
      if (t.gramFts !== undefined) {
        selectedGrams.push(t.gramFts);
        gramPostings += t.df;
        continue;
      }
      if (t.gramDf > 0) selectedGrams.push(quoteFts(t.word));
      gramPostings += t.gramDf;
      postings += t.df - t.gramDf;
      if (t.df === t.gramDf) continue; // in the side table only
      selected.push(t.usePrefix ? `${quoteFts(t.word)}*` : quoteFts(t.word));
      for (const v of t.variants) selected.push(quoteFts(v));
    }
    return {
      match: selected.length > 0 ? selected.join(' OR ') : null,
      gramMatch: selectedGrams.length > 0 ? selectedGrams.join(' OR ') : null,
      postings,
      gramPostings,
      terms,
    };
  }

  /**
   * The `limit` best-ranked chunks of the wanted sources (fewer when fewer match): the same
   * rows, in the same order, as ranking every source and keeping the wanted ones. A large
   * source left out is left out inside the ranking, and the rank budget counts only the
   * wanted sources' matches (the newest of them, not the newest of all).
   */
  rankedHits(plan: PlannedQuery, limit: number, sources: ReadonlySet<SourceKind>): StoredChunkHit[] {
    if (plan.gramMatch === null) return this.rankedMainHits(plan, limit, sources);
    return this.rankedWithGrams(plan, limit, sources);
  }

  /**
   * Both tables' best `limit` rows, each row scored by the sum of its BM25 in both (a query's
   * words are OR-ed, and BM25 of an OR is a sum over its parts): a row that only one table
   * ranked gets the other table's score for it too. Note that `chunks_grams` weighs a term by
   * how rare it is among the chunks that have a row there, not among all chunks.
   */
  private rankedWithGrams(plan: PlannedQuery, limit: number, sources: ReadonlySet<SourceKind>): StoredChunkHit[] {
    const main = plan.match === null ? [] : this.rankedMainHits(plan, limit, sources);
    const grams = this.grams.ranked(plan.gramMatch!, plan.gramPostings, RANK_BUDGET, sources, limit);
    const byId = new Map<number, StoredChunkHit>(main.map((h) => [h.id, { ...h }]));
    const onlyMain = new Set(byId.keys());
    const onlyGrams: number[] = [];
    for (const h of grams) {
      const known = byId.get(h.id);
      if (known) {
        known.rank += h.rank;
        onlyMain.delete(h.id);
      } else {
        byId.set(h.id, { ...h });
        onlyGrams.push(h.id);
      }
    }
    const addRanks = (ranks: Map<number, number>): void => {
      for (const [id, rank] of ranks) byId.get(id)!.rank += rank;
    };
    if (onlyMain.size > 0) addRanks(this.grams.ranks(plan.gramMatch!, [...onlyMain]));
    if (onlyGrams.length > 0 && plan.match !== null) addRanks(this.mainRanks(plan.match, onlyGrams));
    return [...byId.values()].sort((a, b) => a.rank - b.rank || a.id - b.id).slice(0, limit);
  }

  /** BM25 (FTS5's sign: lower is better) of the chunks `ids` for a plan, summed over both tables; chunks matching neither are absent. */
  bm25Within(plan: PlannedQuery, ids: readonly number[]): Map<number, number> {
    const ranks = plan.match === null ? new Map<number, number>() : this.mainRanks(plan.match, ids);
    if (plan.gramMatch !== null) for (const [id, rank] of this.grams.ranks(plan.gramMatch, ids)) ranks.set(id, (ranks.get(id) ?? 0) + rank);
    return ranks;
  }

  private mainRanks(match: string, ids: readonly number[]): Map<number, number> {
    return new Map(this.mainBm25Of.all(match, JSON.stringify(ids)).map((r) => [r.id, r.rank]));
  }

  /** `rankedHits` over `chunks_fts` alone (the plan's `match`). */
  private rankedMainHits(plan: PlannedQuery, limit: number, sources: ReadonlySet<SourceKind>): StoredChunkHit[] {
    const match = plan.match!;
    // A source left out that holds no chunk filters nothing (a workspace without transcripts).
    const held = this.sourceRanges.holding(this.writesSeen());
    const excluded = (Object.keys(ALL_SOURCES) as SourceKind[]).filter((s) => !sources.has(s) && (held === null || held.has(s)));
    if (excluded.length === 0) return this.rankedMatch.all(match, this.floor(plan, null), limit);
    if (excluded.every((s) => SMALL_SOURCES.has(s))) {
      // One query that over-fetches usually fills the page; if the small source took the top rows, filter inside.
      const floor = this.floor(plan, null);
      const fetch = Math.ceil(limit * (1 + FILTERED_OVERFETCH));
      const rows = this.rankedMatch.all(match, floor, fetch);
      const kept = rows.filter((r) => sources.has(r.source));
      if (kept.length >= limit || rows.length < fetch) return kept.slice(0, limit);
    }
    const wanted = JSON.stringify([...sources]);
    const ranges = this.sourceRanges.of(sources, this.writesSeen(), MAX_SOURCE_RANGES);
    if (ranges !== null) return this.rankedInRanges(plan, limit, wanted, ranges);
    return this.rankedMatchOf.all(match, this.floor(plan, wanted), wanted, limit);
  }

  /**
   * `rankedMainHits` for the sources whose chunks lie in `ranges` (newest first): the same rows
   * in the same order as one query over every match that reads each one's source. BM25 weighs
   * a word by its matches in the whole index whatever the range, and each range gives its own
   * best rows by (rank, id), so the best of all ranges' best are the best of the union.
   */
  private rankedInRanges(plan: PlannedQuery, limit: number, wanted: string, ranges: readonly IdRange[]): StoredChunkHit[] {
    const match = plan.match!;
    const floor = this.floorInRanges(plan, wanted, ranges);
    const top: Array<{ id: number; rank: number }> = [];
    for (const r of ranges) {
      if (r.hi < floor) break;
      const lo = Math.max(r.lo, floor);
      top.push(...(r.mixed ? this.rankedInOf.all(match, lo, r.hi, wanted, limit) : this.rankedIn.all(match, lo, r.hi, limit)));
    }
    top.sort((a, b) => a.rank - b.rank || a.id - b.id);
    const best = top.slice(0, limit);
    if (best.length === 0) return [];
    const rows = new Map(this.chunksById.all(JSON.stringify(best.map((b) => b.id))).map((c) => [c.id, c]));
    return best.flatMap(({ id, rank }) => {
      const row = rows.get(id);
      return row ? [{ ...row, rank }] : [];
    });
  }

  /** `floor` over the ranges: past RANK_BUDGET matches in them, only the newest are ranked. */
  private floorInRanges(plan: PlannedQuery, wanted: string, ranges: readonly IdRange[]): number {
    if (plan.postings <= RANK_BUDGET) return 0;
    const match = plan.match!;
    let before = RANK_BUDGET;
    for (const [i, r] of ranges.entries()) {
      // The last range needs no count: its floor row is there or nowhere.
      const n = i === ranges.length - 1 ? Infinity : (r.mixed ? this.countInOf.get(match, r.lo, r.hi, wanted) : this.countIn.get(match, r.lo, r.hi))!.n;
      if (n <= before) {
        before -= n;
        continue;
      }
      const row = r.mixed ? this.floorInOf.get(match, r.lo, r.hi, wanted, before) : this.floorIn.get(match, r.lo, r.hi, before);
      return row?.rowid ?? 0;
    }
    return 0;
  }

  /** The lowest chunk id ranked: past RANK_BUDGET matches (of the wanted sources, a JSON array; null: all), only the newest are. */
  private floor(plan: PlannedQuery, wanted: string | null): number {
    if (plan.postings <= RANK_BUDGET) return 0;
    const row = wanted === null ? this.budgetFloor.get(plan.match!, RANK_BUDGET) : this.budgetFloorOf.get(plan.match!, wanted, RANK_BUDGET);
    return row?.rowid ?? 0;
  }

  /** Changes when the index may have changed (at most once a second while another connection writes), so callers can keep caches of their own. */
  get indexGeneration(): number {
    this.refreshCache();
    return this.generation;
  }

  /**
   * Totals and document frequencies are cached until the index changes. Another connection's
   * writes (data_version) are looked at once a second at most; `invalidate` takes effect at
   * once. Words in no chunk are cached apart (`dropStaleMisses`), so what was just indexed is found at once.
   */
  private refreshCache(): void {
    const now = performance.now();
    if (this.cachedTotal > 0 && now - this.checkedAt < REFRESH_INTERVAL_MS) return;
    this.checkedAt = now;
    const version = this.dataVersion.get()!.data_version;
    if (version === this.cacheVersion && this.cachedTotal > 0) return;
    this.cacheVersion = version;
    this.generation++;
    this.dfCache.clear();
    this.missCache.clear();
    this.cachedTotal = this.chunkCount.get()!.n;
  }

  /**
   * Words found in no chunk are forgotten as soon as any connection wrote to the index (a
   * write may have added them): checked before every query, unlike the totals, because a miss
   * kept a second too long would hide what was just indexed, where a stale count only weighs.
   */
  private dropStaleMisses(): void {
    const stamp = this.writesSeen();
    if (stamp === this.missStamp) return;
    this.missStamp = stamp;
    this.missCache.clear();
    this.grams.forgetRows();
  }

  /** Changes whenever this connection or another one wrote to the index (exact, and one cheap read: callers may ask on every search). */
  writesSeen(): string {
    return this.writeStamp();
  }

  /** The index changed: called after this connection wrote to it (data_version only sees other connections' writes), or when told so. */
  invalidate(): void {
    this.cacheVersion = -1;
    this.checkedAt = -Infinity;
  }

  private documentFrequency(term: Pick<QueryTerm, 'word' | 'stem'>): number {
    return this.cachedFrequency(term.word, () => this.countDocuments(term.word, term.stem));
  }

  private countDocuments(word: string, stem: string): number {
    // FTS5's porter passes short and non-alphabetic tokens through unstemmed: try the word too.
    return this.vocabDoc.get(stem)?.doc ?? (stem !== word ? this.vocabDoc.get(word)?.doc : 0) ?? 0;
  }

  /** A document frequency from the caches, else counted and cached. */
  private cachedFrequency(key: string, count: () => number): number {
    const cached = this.dfCache.get(key);
    if (cached !== undefined) return cached;
    if (this.missCache.get(key)) return 0;
    const df = count();
    if (df > 0) this.dfCache.set(key, df);
    else this.missCache.set(key, true);
    return df;
  }

  private variantFrequency(word: string): number {
    // A two-word form ("smart watch") can be in no more chunks than its rarer word. Most splits
    // of a long word have a half in no chunk ("reconcil iation"): the other half is not looked up.
    if (word.includes(' ')) {
      let rarest = Infinity;
      for (const part of word.split(' ')) {
        rarest = Math.min(rarest, this.variantFrequency(part));
        if (rarest === 0) break;
      }
      return rarest;
    }
    // Stemmed only when not cached: a long word's compound splits are a dozen words a query.
    return this.cachedFrequency(word, () => this.countDocuments(word, stemWord(word)));
  }

  /** Chunks a run's expression can match in `chunks_grams` (cached with the words' counts; the key cannot be a word's). */
  private gramFrequency(fts: string): number {
    return this.cachedFrequency(`\u0000${fts}`, () => this.grams.runFrequency(fts, this.cachedTotal));
  }

  /** Chunks having a spaced word in `chunks_grams`. */
  private gramWordFrequency(term: QueryTerm): number {
    return this.cachedFrequency(`\u0000${term.word}`, () => this.grams.wordFrequency(term));
  }

  private prefixFrequency(prefix: string): number {
    return this.cachedFrequency(`${prefix}*`, () => this.prefixDoc.get(prefix, prefix + '\uffff')?.doc ?? 0);
  }

  /** Chunks of the files a date or path in the query names (their texts still stored). */
  exactFileMatches(query: string, limit: number): Array<{ hit: StoredChunkHit; reason: 'date' | 'path' }> {
    const found: Array<{ hit: StoredChunkHit; reason: 'date' | 'path' }> = [];
    const add = (pattern: string, reason: 'date' | 'path'): void => {
      for (const { path } of this.filesByPath.all(pattern)) {
        for (const chunk of this.chunksOfFile.all(path, limit)) found.push({ hit: { ...chunk, rank: 0 }, reason });
      }
    };
    for (const m of query.matchAll(DATE_IN_QUERY)) add(`%${escapeLike(m[0])}%`, 'date');
    for (const m of query.matchAll(PATH_IN_QUERY)) add(`%${escapeLike(m[1]!)}`, 'path');
    return found.slice(0, limit);
  }
}

export function toResult(
  hit: ChunkHit,
  score: number,
  matchedBy: SearchResult['matchedBy'],
  terms: SnippetTerm[],
  snippet: Snippet = buildSnippet(hit.text, hit.start_line, terms, { path: hit.path }),
): SearchResult {
  return {
    id: makeId('chunk', hit.id),
    path: hit.path,
    source: hit.source,
    startLine: snippet.startLine,
    endLine: snippet.endLine,
    snippet: snippet.text,
    score: Math.round(score * 1000) / 1000,
    matchedBy,
  };
}

export function snippetForms(t: QueryTerm & { gramFts?: string }): string[] {
  const forms = new Set([t.word, t.stem, ...t.variants.flatMap((v) => [v, stemWord(v)])]);
  // Porter turns a final y into i ("happy" → "happi"); match the shared part.
  if (t.stem.endsWith('i') && t.stem.length > 3) forms.add(t.stem.slice(0, -1));
  // A run is searched folded to full width (NFKC); a note may have it half-width (ｼﾞｮﾌﾞ).
  if (t.gramFts !== undefined) forms.add(halfWidthKatakana(t.word));
  return [...forms].filter((f) => f.length > 0);
}

/** Whether FTS5's bm25() gives a word with this document frequency any weight (its idf is clamped to 1e-6 at or below 0). */
export function ranksInBm25(df: number, total: number): boolean {
  return Math.log((total - df + 0.5) / (df + 0.5)) > 0;
}

function idf(df: number, total: number): number {
  return Math.log(1 + (total - df + 0.5) / (df + 0.5));
}

function escapeLike(s: string): string {
  return s.replace(/[\\%_]/g, (c) => `\\${c}`);
}
