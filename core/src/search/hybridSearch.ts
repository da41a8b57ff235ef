import type Database from 'better-sqlite3';
import type { SearchResult, SourceKind } from '../contract/index.js';
import type { EmbeddingProvider } from '../embed/provider.js';
import { dot, type VectorHit, type VectorStore } from '../index/vectorStore.js';
import { importanceMultiplier, noteDate, triggerPhrases } from './annotations.js';
import { MarkerText } from './markerText.js';
import { selectsRows, snippetForms, toResult, type ChunkHit, type KeywordSearcher, type StoredChunkHit } from './keywordSearch.js';
import { dateMatches, parseQueryDates, type QueryDate } from '../platform/text/dates.js';
import { buildSnippet, type SnippetTerm } from './snippet.js';
import { packToBudget } from './budgetPacking.js';
import { looksGathering } from './gatheringQuestion.js';
import { pickByMarginalRelevance } from './marginalRelevance.js';

export type FusionMode = 'weighted' | 'rrf';

export interface HybridSettings {
  fusion: FusionMode;
  /** Share of the fused score given to vector similarity (the rest goes to BM25), for model vectors. */
  vectorWeight: number;
  /** The same for the lexical hash vectors, which add less (LoCoMo: 0.3 beats 0.7 on every recall figure). */
  hashVectorWeight: number;
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
  hashVectorWeight: 0.3,
  mmrLambda: 0.7,
  decayHalfLifeDays: 90,
  decayFloor: 0.5,
  passageWeight: 0.5,
};

const RRF_K = 60;
/**
 * Added to the score of a dated note whose date fits a date in the query (times the fit: 1 for
 * the day itself, less for a month or a year), so "what did I do on 3 March" puts that day's
 * note first while the question's other words still order its lines and the other notes.
 */
const DATE_BONUS = 1;
const MONTH_FIT = 0.3;
const YEAR_FIT = 0.2;
/** A date without a year ("on May 25") fits each year's day a little less. */
const ANY_YEAR_FIT = 0.8;
/** Bounds on the dated notes (and their chunks) a date in the query brings in as candidates. */
const MAX_DATED_FILES = 40;
const MAX_DATED_CHUNKS = 120;
const VECTOR_CANDIDATES = 20;
/** Lines with a resolved date a query's date may bring in (their chunks become candidates). */
const MAX_DATED_LINES = 60;
/**
 * A chunk with a line about the query's date fits like a note of that date, times this; the
 * line itself weighs like a word of this weight in its snippet. LoCoMo folds 0–1 (@1,500 /
 * @3,500 / R@10): fit 1 and weight 3 took 73.4 / 81.1 / 85.2 to 72.7 / 81.0 / 84.8 (the notes'
 * own dates already carry most of its questions' dates); 0.5 and 1 give 73.2 / 81.2 / 85.3.
 */
const LINE_DATE_FIT = 0.5;
const LINE_DATE_WEIGHT = 1;
/** Below these cosine similarities a vector-only hit is indistinguishable from unrelated text. */
const HASH_NOISE_FLOOR = 0.15;
const MODEL_NOISE_FLOOR = 0.3;
/**
 * Keyword candidates per result wanted (at least MIN_CANDIDATES): each gets passage focus (a
 * snippet), its vector and a place in MMR's pool. Three per result rather than four cut an agent
 * search by ~15% (3.5 vs 4.1 ms); LoCoMo R@10 moved by 0.17 point, the other figures by ≤ 0.02.
 */
const CANDIDATES_PER_RESULT = 3;
const MIN_CANDIDATES = 30;
const DAY_MS = 86_400_000;

/** `H`: a StoredChunkHit while candidates are gathered, a ChunkHit once their texts are read. */
interface Candidate<H = ChunkHit> {
  hit: H;
  keyword: number;
  vector: number;
  keywordRank: number | null;
  vectorRank: number | null;
  fileMatch: 'date' | 'path' | null;
  /** How well the note's date (from its file name) fits a date written in the query, 0–1. */
  dateFit: number;
}

/**
 * Keyword (BM25) and vector (KNN) candidates, fused, adjusted by importance, trigger phrases
 * and a floored temporal decay, then diversified with MMR. Every result says how it scored.
 */
export class HybridSearcher {
  private readonly chunksById: Database.Statement<[string], Omit<StoredChunkHit, 'rank'>>;
  private readonly datedPaths: Database.Statement<[], { path: string }>;
  private datedNotes: Map<string, string[]> | null = null;
  private datedNotesGeneration = -1;
  private readonly chunksOfFile: Database.Statement<[string, number], Omit<StoredChunkHit, 'rank'>>;
  private readonly markers: MarkerText;
  private readonly datedLines: Database.Statement<[string, string, number], { path: string; line: number }>;
  private readonly chunksAtLine: Database.Statement<[string, number, number], Omit<StoredChunkHit, 'rank'>>;

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
    this.datedPaths = db.prepare(
      "SELECT path FROM files WHERE status = 'indexed' AND path GLOB '*[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]*.md'",
    );
    this.chunksOfFile = db.prepare('SELECT id, path, source, start_line, end_line, text FROM chunks WHERE path = ? ORDER BY start_line LIMIT ?');
    this.markers = new MarkerText(db, () => keyword.indexGeneration);
    this.datedLines = db.prepare(
      'SELECT path, line FROM line_dates WHERE day_from <= ? AND day_to >= ? ORDER BY day_to DESC LIMIT ?',
    );
    this.chunksAtLine = db.prepare(
      'SELECT id, path, source, start_line, end_line, text FROM chunks WHERE path = ? AND start_line <= ? AND end_line >= ? ORDER BY start_line',
    );
  }

  /** Dated notes whose date fits a date written in the query, with how well it fits (a day beats a month beats a year). */
  private datedFiles(dates: readonly QueryDate[]): Map<string, number> {
    const fit = new Map<string, number>();
    if (dates.length === 0) return fit;
    const byDate = this.notesByDate();
    for (const q of dates) {
      const strength = q.precision === 'day' && q.from === q.to ? 1 : q.precision === 'year' ? YEAR_FIT : MONTH_FIT;
      const weight = q.anyYear ? strength * ANY_YEAR_FIT : strength;
      const add = (paths: readonly string[] | undefined): void => {
        for (const path of paths ?? []) fit.set(path, Math.max(fit.get(path) ?? 0, weight));
      };
      if (q.anyYear) {
        for (const [date, paths] of byDate) if (dateMatches(q, date)) add(paths);
      } else {
        // At most a year of days: look each one up.
        for (let t = Date.parse(q.from); t <= Date.parse(q.to); t += DAY_MS) add(byDate.get(new Date(t).toISOString().slice(0, 10)));
      }
    }
    // A year or a month of daily notes can be most of the index: only a bounded set competes.
    return new Map([...fit].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? 1 : -1)).slice(0, MAX_DATED_FILES));
  }

  /**
   * Lines whose resolved date ("two weeks ago" in a note of 4 February) fits a date written in
   * the query, by path, with how well it fits. Dates without a year ("in December") are left to
   * the notes' own dates: a line date is only as good as its year.
   */
  private linesDated(dates: readonly QueryDate[]): Map<string, Map<number, number>> {
    const byPath = new Map<string, Map<number, number>>();
    for (const q of dates) {
      if (q.anyYear) continue;
      const fit = q.precision === 'day' && q.from === q.to ? 1 : q.precision === 'year' ? YEAR_FIT : MONTH_FIT;
      for (const { path, line } of this.datedLines.all(q.to, q.from, MAX_DATED_LINES)) {
        let lines = byPath.get(path);
        if (!lines) byPath.set(path, (lines = new Map()));
        lines.set(line, Math.max(lines.get(line) ?? 0, fit));
      }
    }
    return byPath;
  }

  /** Dated notes by the date in their file name, kept until the index changes. */
  private notesByDate(): Map<string, string[]> {
    const generation = this.keyword.indexGeneration;
    if (this.datedNotes && this.datedNotesGeneration === generation) return this.datedNotes;
    const byDate = new Map<string, string[]>();
    for (const { path } of this.datedPaths.all()) {
      const date = noteDate(path);
      if (!date) continue;
      const key = date.toISOString().slice(0, 10);
      const list = byDate.get(key);
      if (list) list.push(path);
      else byDate.set(key, [path]);
    }
    this.datedNotes = byDate;
    this.datedNotesGeneration = generation;
    return byDate;
  }

  /** With a `budget`, the results' snippets together fit in that many characters (budgetPacking.ts). */
  async search({ query, limit, sources, budget }: { query: string; limit: number; sources: readonly SourceKind[]; budget?: number }): Promise<SearchResult[]> {
    const settings = this.settings();
    const sourceSet = new Set(sources);
    const want = Math.max(MIN_CANDIDATES, limit * CANDIDATES_PER_RESULT);
    // A date in the query ("on 25 May, 2022", "in August 2023") names dated notes: it selects and
    // boosts them, and its words stop competing with the rest of the question for lines.
    const { dates, rest } = parseQueryDates(query, this.now());
    const datedFiles = this.datedFiles(dates);
    const datedLines = this.linesDated(dates);
    const textQuery = (datedFiles.size > 0 || datedLines.size > 0) && /[\p{L}\p{N}]/u.test(rest) ? rest : query;
    const dateFitOf = (path: string): number => datedFiles.get(path) ?? 0;
    const vectorSide = this.vectors();
    // A model embeds the query in its own process (tens of ms): asked first, it works while this
    // thread runs the keyword side. Nothing here yields before the await below, so a failure
    // cannot go unhandled.
    const queryVectorAsked = vectorSide && query.trim().length > 0 ? vectorSide.provider.embedQuery(textQuery) : null;
    const plan = this.keyword.plan(textQuery);
    const snippetTerms: SnippetTerm[] = plan.terms.map((t) => ({ forms: snippetForms(t), weight: t.isStopword ? 0.05 : t.weight }));
    // Lines whose own date fits the query's count as matching the date, a word the query no longer searches for.
    if (datedLines.size > 0) {
      const lines = new Map([...datedLines].map(([path, fits]) => [path, new Set(fits.keys())]));
      snippetTerms.push({ forms: [], weight: LINE_DATE_WEIGHT, lines });
    }

    // Gathered with their texts still stored: all are read at once before scoring (ChunkTextReader).
    const candidates = new Map<number, Candidate<StoredChunkHit>>();
    const keywordHits = selectsRows(plan) ? this.keyword.rankedHits(plan, want, sourceSet) : [];
    const maxBm25 = Math.max(1e-9, ...keywordHits.map((h) => -h.rank));
    keywordHits.forEach((hit, i) => {
      candidates.set(hit.id, { hit, keyword: -hit.rank / maxBm25, vector: 0, keywordRank: i, vectorRank: null, fileMatch: null, dateFit: dateFitOf(hit.path) });
    });

    // A person the query names counting their own lines ("Melanie: …", chat and transcript
    // speakers) as a query word of 0.5 (1, 2) times an average word's weight: folds 0–1 @1,500 /
    // @3,500 / R@10 / multi-hop 73.2 / 81.2 / 85.3 / 28.5 → 73.4 / 81.4 / 85.1 / 30.1 (73.3 /
    // 80.9 / 84.8 / 29.4; 73.0 / 80.1 / 83.6); with tighter later windows it lost on held-out
    // fold 2 (budgetPacking.ts) and was reverted. Results of one session kept apart in MMR for
    // plural questions: multi-hop 32.9 → 31.2 on folds 0–1.
    // A second keyword hop (the best passage's rarest words added to the question) was tried on
    // LoCoMo folds 0–1: in chat they are filler ("woah", "impressive"), every figure stayed
    // within 0.1 and CPU per search doubled.
    // Issue 20 item 5, tried again (code on branch mhop-prf-experiment; folds 0–1 @1,500 /
    // @3,500 / R@10 / multi-hop @1,500, before 73.2 / 81.2 / 85.3 / 28.5):
    // - pseudo-relevance feedback: a second BM25 pass for the question plus the 4 rarest words
    //   (df 2 to 5–30 % of chunks) of the best 3–5 first-pass results' lines, only lines having a
    //   rarer question word, or names only, or words in ≥ 2 results; its normalised BM25 added at
    //   0.2–0.4 of the score and its new chunks as candidates: for every question 72.8–73.2 /
    //   80.5–81.3 / 85.1–85.5 / 27.9–28.3, only for gathering questions (below) at most +0.1 over
    //   session diversity alone, at +20–45 % CPU per search;
    // - the best single line's share of the question as a bonus (0.3): −0.7 @3,500 for every
    //   question, +0.3 multi-hop for gathering ones;
    // - session diversity for questions that gather ("What books has … read?", "how many",
    //   "both", "What has … painted?": 69 of 111 multi-hop, 22 of 332 single-hop questions on
    //   folds 0–1): MMR taking 0.1 off a passage whose file is already chosen gave 73.4 / 81.3 /
    //   85.3 / 29.4 (0.05 no change, 0.15 same, 0.2 28.9 multi-hop), but held-out fold 2 went
    //   from 77.5 / 81.4 / 82.6 / 35.6 to 77.3 / 81.6 / 82.5 / 34.8: reverted (commit 16d9a0d).
    // At 1,500 characters three windows fit: what multi-hop lacks is mostly windows (snippet.ts,
    // budgetPacking.ts), not passages — on folds 0–1, of its evidence turns 24 % are shown at
    // 1,500, 28 % more are in the top-10 snippets and 12 % in a top-10 passage outside its snippet.
    let queryVector: Float32Array | null = null;
    let vectorHits: VectorHit[] = [];
    if (vectorSide && queryVectorAsked) {
      queryVector = await queryVectorAsked;
      // Cosine is used as is (not scaled to the best hit), so a query with no real neighbour
      // does not promote noise; vector-only candidates must clear the provider's noise floor.
      const minSimilarity = vectorSide.provider.generation.provider === 'hash' ? HASH_NOISE_FLOOR : MODEL_NOISE_FLOOR;
      // The vector side asks for a short list (sqlite-vec's KNN cost grows with k); on a large
      // index of hash vectors there is none, and vectors only re-score the keyword candidates below.
      vectorHits = (vectorSide.store.knn(queryVector, Math.max(VECTOR_CANDIDATES, limit * 2)) ?? []).filter((h) => h.similarity > 0);
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
        candidates.set(h.chunkId, { hit: { ...row, rank: 0 }, keyword: 0, vector: h.similarity, keywordRank: null, vectorRank: i, fileMatch: null, dateFit: dateFitOf(row.path) });
      });
    }

    // Every chunk of a dated note that fits the query's date competes, scored like the others.
    if (datedFiles.size > 0) {
      const added: Array<Candidate<StoredChunkHit>> = [];
      for (const path of datedFiles.keys()) {
        for (const row of this.chunksOfFile.all(path, MAX_DATED_CHUNKS)) {
          if (candidates.has(row.id) || !sourceSet.has(row.source) || added.length >= MAX_DATED_CHUNKS) continue;
          const c: Candidate<StoredChunkHit> = { hit: { ...row, rank: 0 }, keyword: 0, vector: 0, keywordRank: null, vectorRank: null, fileMatch: null, dateFit: dateFitOf(path) };
          candidates.set(row.id, c);
          added.push(c);
        }
      }
      if (selectsRows(plan) && added.length > 0) {
        for (const [id, rank] of this.keyword.bm25Within(plan, added.map((c) => c.hit.id))) {
          const c = candidates.get(id);
          if (c) c.keyword = Math.min(1, -rank / maxBm25);
        }
      }
    }

    // The chunks holding a line whose resolved date fits compete too, as if their note had that date.
    if (datedLines.size > 0) {
      const added: Array<Candidate<StoredChunkHit>> = [];
      for (const [path, fits] of datedLines) {
        for (const [line, fit] of fits) {
          for (const row of this.chunksAtLine.all(path, line, line)) {
            if (!sourceSet.has(row.source)) continue;
            const existing = candidates.get(row.id);
            if (existing) {
              existing.dateFit = Math.max(existing.dateFit, LINE_DATE_FIT * fit);
              continue;
            }
            const c: Candidate<StoredChunkHit> = { hit: { ...row, rank: 0 }, keyword: 0, vector: 0, keywordRank: null, vectorRank: null, fileMatch: null, dateFit: LINE_DATE_FIT * fit };
            candidates.set(row.id, c);
            added.push(c);
          }
        }
      }
      if (selectsRows(plan) && added.length > 0) {
        for (const [id, rank] of this.keyword.bm25Within(plan, added.map((c) => c.hit.id))) {
          const c = candidates.get(id);
          if (c) c.keyword = Math.min(1, -rank / maxBm25);
        }
      }
    }

    // Every candidate's vector (the KNN list's came with it, the rest in one read): the
    // similarity of those outside the short KNN list, and MMR's pairwise similarities below.
    const candidateVectors = new Map<number, Float32Array>();
    if (vectorSide) {
      for (const h of vectorHits) if (candidates.has(h.chunkId)) candidateVectors.set(h.chunkId, h.vector);
      const unread = [...candidates.keys()].filter((id) => !candidateVectors.has(id));
      for (const [id, vector] of vectorSide.store.vectorsOf(unread)) candidateVectors.set(id, vector);
    }
    if (queryVector) {
      for (const c of candidates.values()) {
        const v = c.vectorRank === null ? candidateVectors.get(c.hit.id) : undefined;
        if (v) c.vector = Math.max(0, dot(queryVector, v));
      }
    }

    // A date or path the person typed names a file: its chunks come first (below). Their texts
    // and every candidate's are read here, in one pass.
    const fileMatches = this.keyword.exactFileMatches(query, limit);
    const gathered = [...candidates.values()];
    const hits = this.keyword.texts.read<ChunkHit>([...gathered.map((c) => c.hit), ...fileMatches.map((m) => m.hit)]);
    const scoring: Candidate[] = gathered.map((c, i) => ({ ...c, hit: hits[i]! }));
    const fileHits = fileMatches.map((m, i) => ({ hit: hits[gathered.length + i]!, reason: m.reason }));

    const queryLower = query.toLowerCase();
    const vectorWeight = vectorSide?.provider.generation.provider === 'hash' ? settings.hashVectorWeight : settings.vectorWeight;
    const totalWeight = Math.max(1e-9, snippetTerms.reduce((n, t) => n + t.weight, 0));
    const scored = scoring.map((c) => {
      // Passage focus: how much of the query the cited lines themselves cover.
      const snippet = buildSnippet(c.hit.text, c.hit.start_line, snippetTerms, { path: c.hit.path });
      const coverage = snippet.matchedWeight / totalWeight;
      const fused =
        settings.fusion === 'rrf'
          ? (c.keywordRank === null ? 0 : 1 / (RRF_K + c.keywordRank)) + (c.vectorRank === null ? 0 : 1 / (RRF_K + c.vectorRank))
          : vectorSide
            ? vectorWeight * c.vector + (1 - vectorWeight) * c.keyword
            : c.keyword;
      const decay = this.decay(c.hit.path, settings);
      // Only the person's own lines can set importance or triggers (markerText.ts).
      const markerText = this.markers.of(c.hit);
      const importance = importanceMultiplier(markerText);
      const trigger = triggerPhrases(markerText).some((p) => queryLower.includes(p)) ? 1.25 : 1;
      const focused = (1 - settings.passageWeight) * fused + settings.passageWeight * coverage;
      const dated = DATE_BONUS * c.dateFit;
      return { c, snippet, coverage, fused, decay, importance, trigger, score: (focused + dated) * decay * importance * trigger };
    });

    // Twice the page: a result whose lines a better one already shows may drop out below.
    const diversified = this.mmr(scored, limit * 2, settings.mmrLambda, candidateVectors);
    const results: SearchResult[] = [];
    const seen = new Set<number>();

    // A date or path the person typed names a file: that file comes first.
    const top = diversified[0]?.item.score ?? 1;
    const hitOf = new Map<string, ChunkHit>();
    fileHits.forEach(({ hit, reason }, i) => {
      if (seen.has(hit.id) || !sourceSet.has(hit.source)) return;
      seen.add(hit.id);
      const result = toResult(hit, top + 1 - i * 0.001, [reason], snippetTerms);
      hitOf.set(result.id, hit);
      results.push(result);
    });
    // Lines already shown by a better result are not shown again: an overlapping chunk of the
    // same file shows its other matching lines instead, or nothing when it has none.
    const shown = new Map<string, Set<number>>();
    const markShown = (r: SearchResult): void => {
      const lines = shown.get(r.path) ?? new Set<number>();
      for (let l = r.startLine; l <= r.endLine; l++) lines.add(l);
      shown.set(r.path, lines);
    };
    results.forEach(markShown);
    for (const { item, penalty } of diversified) {
      if (results.length >= limit) break;
      if (seen.has(item.c.hit.id)) continue;
      seen.add(item.c.hit.id);
      const already = shown.get(item.c.hit.path);
      if (already && overlaps(item.snippet, already)) {
        // The lines of its own passage that are not shown yet, else its best other lines.
        let rest = buildSnippet(item.c.hit.text, item.c.hit.start_line, snippetTerms, { exclude: already, within: item.snippet, path: item.c.hit.path });
        if (rest.text.length === 0) rest = buildSnippet(item.c.hit.text, item.c.hit.start_line, snippetTerms, { exclude: already, path: item.c.hit.path });
        if (rest.text.length === 0 || rest.matchedWeight <= 0) continue;
        item.snippet = rest;
      }
      const matchedBy: SearchResult['matchedBy'] = [];
      if (item.c.keywordRank !== null) matchedBy.push('keyword');
      if (item.c.vectorRank !== null) matchedBy.push('vector');
      if (item.c.dateFit > 0) matchedBy.push('date');
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
        passage: round(item.coverage),
        date: round(DATE_BONUS * item.c.dateFit),
      };
      hitOf.set(result.id, item.c.hit);
      results.push(result);
      markShown(result);
    }
    const page = results.slice(0, limit);
    if (budget === undefined) return page;
    return packToBudget(page.map((result) => ({ result, hit: hitOf.get(result.id)! })), snippetTerms, budget, looksGathering(query));
  }

  private decay(path: string, settings: HybridSettings): number {
    const date = noteDate(path);
    if (!date) return 1; // MEMORY.md, USER.md and undated notes never decay
    const ageDays = Math.max(0, (this.now() - date.getTime()) / DAY_MS);
    return settings.decayFloor + (1 - settings.decayFloor) * Math.pow(0.5, ageDays / settings.decayHalfLifeDays);
  }

  /** Maximal marginal relevance over the best candidates: relevance traded against similarity to what is already chosen. */
  private mmr<T extends { c: Candidate; score: number }>(items: T[], limit: number, lambda: number, vectors: ReadonlyMap<number, Float32Array>): Array<{ item: T; penalty: number }> {
    const pool = items.sort((a, b) => b.score - a.score).slice(0, Math.max(Math.ceil(limit * 1.5), 30));
    const vectorOf = (id: number): Float32Array | null => vectors.get(id) ?? null;
    return pickByMarginalRelevance(pool, limit, lambda, (item, chosen) => similarity(item.c.hit, chosen.c.hit, vectorOf));
  }
}

function similarity(a: ChunkHit, b: ChunkHit, vectorOf: (id: number) => Float32Array | null): number {
  const va = vectorOf(a.id);
  const vb = vectorOf(b.id);
  if (va && vb) return Math.max(0, dot(va, vb));
  // Without vectors: overlapping line ranges of the same file are near-duplicates.
  return a.path === b.path && a.start_line <= b.end_line && b.start_line <= a.end_line ? 1 : 0;
}

function overlaps(snippet: { startLine: number; endLine: number }, lines: ReadonlySet<number>): boolean {
  for (let l = snippet.startLine; l <= snippet.endLine; l++) if (lines.has(l)) return true;
  return false;
}

function round(x: number): number {
  return Math.round(x * 1000) / 1000;
}
