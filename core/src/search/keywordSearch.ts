import type Database from 'better-sqlite3';
import type { SearchResult, SourceKind } from '../api/contract.js';
import { makeId } from '../common/ids.js';
import { extractQueryTerms, quoteFts, type QueryTerm } from './queryTerms.js';
import { buildSnippet, type SnippetTerm } from './snippet.js';

export interface KeywordQuery {
  query: string;
  limit: number;
  sources: readonly SourceKind[];
}

interface ChunkHit {
  id: number;
  path: string;
  source: SourceKind;
  start_line: number;
  end_line: number;
  text: string;
  rank: number;
}

/** A term is "common" when it occurs in more than this share of chunks; such terms only rank, never select. */
const COMMON_TERM_SHARE = 0.08;
/** Upper bound on postings a query may touch, so one query never scans most of the index. */
const MAX_POSTINGS = 40_000;
const MAX_SELECTED_TERMS = 24;
const DATE_IN_QUERY = /\b(\d{4})-(\d{2})-(\d{2})\b/g;
const PATH_IN_QUERY = /(?:^|\s)((?:[\w.@-]+\/)*[\w.@-]+\.md)\b/gi;

export interface PlannedQuery {
  match: string | null;
  terms: Array<QueryTerm & { df: number; weight: number }>;
}

/**
 * BM25 keyword search over FTS5. User input never reaches FTS5 syntax unquoted; natural-language
 * questions are answered by OR-ing their content words, ranked by BM25, with very common words
 * kept out of the selection (they still count in the snippet).
 */
export class KeywordSearcher {
  private readonly vocabDoc: Database.Statement<[string], { doc: number }>;
  private readonly prefixDoc: Database.Statement<[string, string], { doc: number }>;
  private readonly chunkCount: Database.Statement<[], { n: number }>;
  private readonly filesByPath: Database.Statement<[string], { path: string }>;
  private readonly chunksOfFile: Database.Statement<[string, number], Omit<ChunkHit, 'rank'>>;
  private readonly matchStatements = new Map<string, Database.Statement<[string, number], ChunkHit>>();
  private cachedCount: { n: number; at: number } | null = null;

  constructor(private readonly db: Database.Database) {
    this.vocabDoc = db.prepare('SELECT doc FROM chunks_vocab WHERE term = ?');
    this.prefixDoc = db.prepare('SELECT coalesce(sum(doc), 0) AS doc FROM chunks_vocab WHERE term >= ? AND term < ?');
    this.chunkCount = db.prepare('SELECT count(*) AS n FROM chunks');
    this.filesByPath = db.prepare(
      "SELECT path FROM files WHERE status = 'indexed' AND path LIKE ? ESCAPE '\\' ORDER BY path LIMIT 20",
    );
    this.chunksOfFile = db.prepare(
      'SELECT id, path, source, start_line, end_line, text FROM chunks WHERE path = ? ORDER BY start_line LIMIT ?',
    );
  }

  search({ query, limit, sources }: KeywordQuery): SearchResult[] {
    const plan = this.plan(query);
    const snippetTerms: SnippetTerm[] = plan.terms.map((t) => ({
      forms: snippetForms(t),
      weight: t.isStopword ? 0.05 : t.weight,
    }));
    const results: SearchResult[] = [];
    const seen = new Set<number>();
    const sourceSet = new Set(sources);

    const fileHits = this.exactFileMatches(query, limit);
    const keywordHits = plan.match ? this.matchStatement(sources).all(plan.match, limit * 2) : [];
    const topKeyword = keywordHits.length > 0 ? -keywordHits[0]!.rank : 0;

    // A date or path the person typed names a file: show that file first.
    fileHits.forEach(({ hit, reason }, i) => {
      if (seen.has(hit.id) || !sourceSet.has(hit.source)) return;
      seen.add(hit.id);
      results.push(toResult(hit, topKeyword + 10 - i * 0.01, [reason], snippetTerms));
    });
    for (const hit of keywordHits) {
      if (results.length >= limit) break;
      if (seen.has(hit.id)) continue;
      seen.add(hit.id);
      results.push(toResult(hit, -hit.rank, ['keyword'], snippetTerms));
    }
    return results.slice(0, limit);
  }

  /** Chooses which terms select rows (rare ones) and builds an operator-free FTS5 expression. */
  plan(query: string): PlannedQuery {
    const all = extractQueryTerms(query);
    const total = Math.max(1, this.totalChunks());
    const content = all.filter((t) => !t.isStopword);
    const candidates = content.length > 0 ? content : all;
    const endsInWord = /[\p{L}\p{N}]$/u.test(query);
    const lastWord = candidates[candidates.length - 1]?.word;

    const withDf = all.map((t) => {
      const df = this.documentFrequency(t);
      return { ...t, df, weight: Math.log(1 + (total - df + 0.5) / (df + 0.5)) };
    });
    const selectable = withDf
      .filter((t) => candidates.includes(all.find((a) => a.word === t.word)!))
      .sort((a, b) => a.df - b.df);

    const selected: string[] = [];
    let postings = 0;
    for (const t of selectable) {
      if (selected.length >= MAX_SELECTED_TERMS) break;
      const isPrefix = endsInWord && t.word === lastWord && t.word.length >= 3 && t.df === 0;
      const df = isPrefix ? this.prefixFrequency(t.word) : t.df;
      if (df === 0) continue;
      const common = df > total * COMMON_TERM_SHARE;
      if (selected.length > 0 && (common || postings + df > MAX_POSTINGS)) continue;
      // Even the rarest term can be too common to select alone on a big index: keep it, it is all we have.
      selected.push(isPrefix ? `${quoteFts(t.word)}*` : quoteFts(t.word));
      postings += df;
    }
    return { match: selected.length > 0 ? selected.join(' OR ') : null, terms: withDf };
  }

  private documentFrequency(term: QueryTerm): number {
    // FTS5's porter passes short and non-alphabetic tokens through unstemmed: try the word too.
    return this.vocabDoc.get(term.stem)?.doc ?? (term.stem !== term.word ? this.vocabDoc.get(term.word)?.doc : 0) ?? 0;
  }

  private prefixFrequency(prefix: string): number {
    return this.prefixDoc.get(prefix, prefix + '\uffff')?.doc ?? 0;
  }

  private totalChunks(): number {
    const now = Date.now();
    if (!this.cachedCount || now - this.cachedCount.at > 2000) {
      this.cachedCount = { n: this.chunkCount.get()!.n, at: now };
    }
    return this.cachedCount.n;
  }

  private matchStatement(sources: readonly SourceKind[]): Database.Statement<[string, number], ChunkHit> {
    const key = [...sources].sort().join(',');
    let stmt = this.matchStatements.get(key);
    if (!stmt) {
      const placeholders = [...sources].sort().map((s) => `'${s === 'dreams' ? 'dreams' : 'memory'}'`).join(', ');
      stmt = this.db.prepare(
        `SELECT c.id, c.path, c.source, c.start_line, c.end_line, c.text, bm25(chunks_fts) AS rank
         FROM chunks_fts JOIN chunks c ON c.id = chunks_fts.rowid
         WHERE chunks_fts MATCH ? AND c.source IN (${placeholders})
         ORDER BY rank LIMIT ?`,
      );
      this.matchStatements.set(key, stmt);
    }
    return stmt;
  }

  private exactFileMatches(query: string, limit: number): Array<{ hit: ChunkHit; reason: 'date' | 'path' }> {
    const found: Array<{ hit: ChunkHit; reason: 'date' | 'path' }> = [];
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

function toResult(hit: ChunkHit, score: number, matchedBy: SearchResult['matchedBy'], terms: SnippetTerm[]): SearchResult {
  const snippet = buildSnippet(hit.text, hit.start_line, terms);
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

function snippetForms(t: QueryTerm): string[] {
  const forms = new Set([t.word, t.stem]);
  // Porter turns a final y into i ("happy" → "happi"); match the shared part.
  if (t.stem.endsWith('i') && t.stem.length > 3) forms.add(t.stem.slice(0, -1));
  return [...forms].filter((f) => f.length > 0);
}

function escapeLike(s: string): string {
  return s.replace(/[\\%_]/g, (c) => `\\${c}`);
}
