import type { CallContext, GraphEntity, HandlersFor, SearchResult, Settings } from '../contract/index.js';
import { generationId } from '../embed/provider.js';
import type { Embeddings } from '../index/embeddings.js';
import { IndexDamageReport } from '../index/indexDamage.js';
import type { IndexService } from '../index/indexService.js';
import type { Logger } from '../platform/log/logger.js';
import type { Notices } from '../platform/notices.js';
import { asForeground } from '../platform/timeSlices.js';
import type { SettingsStore } from '../workspace/settingsStore.js';
import { DEFAULT_HYBRID, HybridSearcher, type HybridSettings } from './hybridSearch.js';
import { KeywordSearcher } from './keywordSearch.js';
import { boostProject } from './projectBoost.js';
import { collapseRepeatedImports } from './repeatedImports.js';
import { SearchResultCache } from './searchResultCache.js';
import { SearchWorkerPool } from './workers/searchWorkerPool.js';
import type { AfterSearchModule, SearchRequest } from './workers/searchWorkerProtocol.js';

export interface SearchServiceOptions<After> {
  index: IndexService;
  indexPath: string;
  settings: SettingsStore;
  notices: Notices;
  logger: Logger;
  /** What search workers run after each search (dreaming's recall resolution); null: nothing. */
  afterSearch: AfterSearchModule | null;
  /** Every answered search: `after` is what a worker's after-search module made of it, null when this thread answered. */
  onDidSearch(query: string, results: SearchResult[], transport: CallContext['transport'], after: Promise<After> | null): void;
  /** The graph group of `memory.search {graph: true}`. */
  graphEntities(query: string, limit: number): GraphEntity[];
}

/** A result cites a few lines; a long passage of one-line entries is summed up by its first kinds. */
const MAX_KINDS_PER_RESULT = 20;

/** Answers of recent searches kept, and for how long at most (recency weights move with the clock). */
const ANSWERS_KEPT = 500;
const ANSWER_TTL_MS = 10_000;

/** What a chunk search gives: its results, and what a worker's after-search module made of them (null when this thread answered). */
interface ChunkAnswer<After> {
  results: SearchResult[];
  after: Promise<After> | null;
}

/** A search this long after the previous one started, with none running, has the engine to itself (see searchChunks). */
const LONE_SEARCH_GAP_MS = 30;

/**
 * `memory.search`: hybrid chunk search with each result's provenance summary, on a search
 * worker when a host runs them, else on the engine thread. What else a search feeds (recall
 * signals, the graph group) is the engine's to connect.
 */
export class SearchService<After = null> {
  readonly handlers: HandlersFor<'memory.search'>;
  private readonly index: IndexService;
  private readonly embeddings: Embeddings;
  private keyword!: KeywordSearcher;
  private hybrid!: HybridSearcher;
  /** Hosts only: searches on worker threads, in parallel with each other and with indexing. */
  private pool: SearchWorkerPool<After> | null = null;
  /** Times this engine changed the index (syncs, forget): search workers refresh their caches when it moves. */
  private indexChanges = 0;
  /** Searches running now, on this thread or a worker. */
  private searchesInFlight = 0;
  private lastSearchStartedAt = -Infinity;
  private searchesOnEngineThread = 0;
  private hybridSettingsMade: { from: Readonly<Settings>; made: HybridSettings } | null = null;
  /** Times the settings file changed while this engine searched: part of a cached answer's stamp. */
  private settingsChanges = 0;
  private readonly answers = new SearchResultCache<ChunkAnswer<After>>(ANSWERS_KEPT, ANSWER_TTL_MS);
  private answeredFromCache = 0;
  /** REVERIE_SEARCH_CACHE=0 turns the answer cache off (every search reaches the index: benches of the search itself, worker tests). */
  private readonly answersCached = process.env.REVERIE_SEARCH_CACHE !== '0';

  constructor(private readonly options: SearchServiceOptions<After>) {
    this.index = options.index;
    this.embeddings = options.index.embeddings;
    this.openSearchers();
    this.index.onDidChange(() => this.indexChanged());
    this.index.onDidReopen(() => {
      this.pool?.restart(); // their connections still read the file that was moved aside
      this.openSearchers();
    });
    this.handlers = {
      'memory.search': async ({ query, limit, sources, budget, project, graph, recall }, context) => {
        await this.embeddings.ensureProvider();
        const started = performance.now();
        const { found, after } = await this.index.readRecovering(async () => {
          const answer = await this.searchChunks({ query, limit, sources, budget });
          const collapsed = collapseRepeatedImports(answer.results, (ids) => this.index.store.chunkTexts(ids));
          return { found: this.withProvenance(collapsed), after: answer.after };
        });
        const results = project ? boostProject(this.index.db, found, project) : found;
        const tookMs = Math.round((performance.now() - started) * 100) / 100;
        if (recall) options.onDidSearch(query, results, context.transport, after);
        else after?.catch((error: unknown) => options.logger.warn('A search worker could not work out recalled entries', { error })); // nobody else waits for it
        // Graph hits are a separate group: chunk results stay as they are.
        if (graph) return { results, tookMs, graph: options.graphEntities(query, Math.min(limit, 20)) };
        return { results, tookMs };
      },
    };
  }

  /** Hosts: searches go to worker threads (REVERIE_SEARCH_WORKERS sets how many; 0: none). */
  startWorkers(): void {
    if (process.env.REVERIE_SEARCH_WORKERS === '0') return;
    const size = process.env.REVERIE_SEARCH_WORKERS ? Number(process.env.REVERIE_SEARCH_WORKERS) : undefined;
    this.pool = new SearchWorkerPool<After>({
      indexPath: this.options.indexPath,
      vectorBackend: this.embeddings.vectorBackend,
      afterSearch: this.options.afterSearch,
      size: size !== undefined && Number.isInteger(size) && size > 0 ? size : undefined,
      embedQuery: async (generation, text) => {
        if (generationId(generation) !== generationId(this.embeddings.provider.generation)) throw new Error('The embedding model changed.');
        return this.embeddings.provider.embedQuery(text);
      },
      // When the index is damaged it is rebuilt, and the workers restarted on the new file (onDidReopen).
      onDidFailToOpen: (error) => void this.index.recoverFromCorruption(error, this.index.db),
      onDidGiveUp: (message) => {
        this.options.notices.push(message);
        this.options.logger.warn(message);
      },
    });
  }

  /** Hosts: how searches are being answered (workers ready, searches they answered, searches this thread took back). */
  workers(): { ready: number; answered: number; onEngineThread: number; fromCache: number } | null {
    return this.pool ? { ready: this.pool.readyWorkers, answered: this.pool.answered, onEngineThread: this.searchesOnEngineThread, fromCache: this.answeredFromCache } : null;
  }

  /** Resolves when a search worker can answer (false: none could start, or this is not a host). */
  async whenWorkersReady(timeoutMs?: number): Promise<boolean> {
    return (await this.pool?.whenReady(timeoutMs)) ?? false;
  }

  async close(): Promise<void> {
    await this.pool?.close();
  }

  /** This engine changed the index: keyword caches here and on the search workers refresh at their next search. */
  private indexChanged(): void {
    this.keyword.invalidate();
    this.answers.clear();
    this.indexChanges++;
  }

  private openSearchers(): void {
    // A new connection counts its writes from 0 again: no stamp made on the old one may match.
    this.answers.clear();
    const db = this.index.db;
    this.keyword = new KeywordSearcher(db);
    this.hybrid = new HybridSearcher(
      db,
      this.keyword,
      () => (this.embeddings.vectors ? { store: this.embeddings.vectors, provider: this.embeddings.provider } : null),
      () => this.hybridSettings(),
    );
  }

  /** The hybrid search's settings: the defaults with the person's fusion, made again only when the settings file changed. */
  private hybridSettings(): HybridSettings {
    const settings = this.options.settings.current();
    if (this.hybridSettingsMade?.from !== settings) {
      this.hybridSettingsMade = { from: settings, made: { ...DEFAULT_HYBRID, fusion: settings.fusion } };
      this.settingsChanges++;
    }
    return this.hybridSettingsMade.made;
  }

  /**
   * Chunk results of the hybrid search: a recent identical search's answer while nothing it
   * depends on changed (see SearchResultCache), else a new search (`answerSearch`).
   */
  private async searchChunks(request: Omit<SearchRequest, 'settings' | 'generation' | 'indexChanges'>): Promise<ChunkAnswer<After>> {
    // Hosts only: a one-shot engine (the CLI) answers one search.
    // Read once per search (a stat of the settings file), before the stamp is made: it counts a change of the file.
    const settings = this.hybridSettings();
    if (!this.pool || !this.answersCached) return this.answerSearch(request, settings);
    const key = JSON.stringify([request.query, request.limit, request.sources, request.budget ?? null]);
    const generation = this.embeddings.vectors ? generationId(this.embeddings.provider.generation) : '-';
    // Read before the search: a write during it leaves the answer under the older stamp, never to be used.
    const stamp = `${this.keyword.writesSeen()}|${generation}|${this.settingsChanges}`;
    const cached = this.answers.get(key, stamp);
    if (cached) {
      this.answeredFromCache++;
      // Callers add to what they get (provenance, boosts): each gets its own result objects.
      return { results: cached.results.map((r) => ({ ...r })), after: cached.after };
    }
    const answer = await this.answerSearch(request, settings);
    this.answers.set(key, stamp, answer);
    return { results: answer.results.map((r) => ({ ...r })), after: answer.after };
  }

  /**
   * Chunk results of the hybrid search, on a search worker when one is ready, else on this
   * thread. One exception: while a sync runs here (indexing, then the graph), a search that
   * has the engine to itself (none running, none started in the last LONE_SEARCH_GAP_MS: a
   * person typing, not agents under load) runs on this thread between two slices. On a worker
   * it would wait for this thread twice and share the cores with it (measured during a first
   * index: round-trip p95 55 ms on a worker, 36 ms here).
   */
  private async answerSearch({ query, limit, sources, budget }: Omit<SearchRequest, 'settings' | 'generation' | 'indexChanges'>, settings: HybridSettings): Promise<ChunkAnswer<After>> {
    const startedAt = performance.now();
    const alone = this.searchesInFlight === 0 && startedAt - this.lastSearchStartedAt > LONE_SEARCH_GAP_MS;
    this.lastSearchStartedAt = startedAt;
    this.searchesInFlight++;
    try {
      const pooled =
        alone && this.index.syncing
          ? null
          : this.pool?.search({ query, limit, sources, budget, settings, generation: this.embeddings.vectors ? this.embeddings.provider.generation : null, indexChanges: this.indexChanges });
      if (pooled) {
        try {
          return await asForeground(pooled);
        } catch (error) {
          // The index is damaged: the caller has it rebuilt (this thread would read the same pages, or hide them in its cache).
          if (error instanceof IndexDamageReport) throw error;
          // A worker that died or failed: this thread answers (a real error repeats here, and is reported).
          this.options.logger.warn('A search worker failed; the engine thread answers instead', { error });
        }
      }
      if (this.pool) this.searchesOnEngineThread++;
      return { results: await this.hybrid.search({ query, limit, sources, budget }), after: null };
    } finally {
      this.searchesInFlight--;
    }
  }

  /**
   * Adds each result's provenance summary (origin class, session kind), read from the chunk's
   * columns, and the kinds the index stored for the entries in its cited lines.
   */
  private withProvenance(results: SearchResult[]): SearchResult[] {
    const ids = results.map((r) => Number(r.id.slice('chunk:'.length)));
    if (ids.length === 0) return results;
    const store = this.index.store;
    const rows = store.chunkProvenance(JSON.stringify(ids));
    const byId = new Map(rows.map((r) => [r.id, r]));
    return results.map((r) => {
      const row = byId.get(Number(r.id.slice('chunk:'.length)));
      const withOrigin = row ? { ...r, origin: row.origin, sessionKind: row.session_kind } : r;
      if (r.source !== 'memory') return withOrigin;
      // Kinds still to be derived (the file is new or edited since the last derived pass): none said rather than guessed.
      const entryKinds = store.kindsWithin(r.path, r.startLine, r.endLine)?.slice(0, MAX_KINDS_PER_RESULT).map(({ textHash: _hash, ...span }) => span);
      return entryKinds ? { ...withOrigin, entryKinds } : withOrigin;
    });
  }
}
