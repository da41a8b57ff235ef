import path from 'node:path';
import type Database from 'better-sqlite3';
import type { EngineEvent, HostInfo, IndexState, OperationInput, OperationName, OperationOutput, OriginClass, SearchResult, SessionKind, StatusOutput, SyncReport } from '../contract/index.js';
import { Emitter } from '../platform/events.js';
import { asForeground } from '../platform/timeSlices.js';
import { ReverieError } from '../platform/errors.js';
import { invokeOperation, invokeTypedOperation, type CallContext, type OperationHandlers } from './invoke.js';
import { DreamService } from '../dreaming/dreamService.js';
import { AgentService } from '../agents/agentService.js';
import { GraphService } from '../graph/graphService.js';
import { openIndexDatabase } from '../index/database.js';
import { isCorruptionError, moveDatabaseAside } from '../platform/sqliteSchema.js';
import { IndexStore } from '../index/indexStore.js';
import { syncIndex } from '../index/sync.js';
import { MemoryWatcher } from '../index/watcher.js';
import type { ReadBytes } from '../index/fileReader.js';
import { KeywordSearcher } from '../search/keywordSearch.js';
import { HybridSearcher, DEFAULT_HYBRID } from '../search/hybridSearch.js';
import { HashEmbeddingProvider } from '../embed/hashProvider.js';
import { ModelStore } from '../models/modelStore.js';
import { getProvenance, parseProvenanceRef } from '../provenance/provenanceQuery.js';
import { forget } from '../provenance/forget.js';
import { ingestTranscripts } from '../sessions/ingestTranscripts.js';
import { allImportSources, detectImportSources } from '../importers/detect.js';
import { planImport } from '../importers/plan.js';
import { applyImport } from '../importers/apply.js';
import { listImportReports } from '../importers/report.js';
import { recordImportProvenance } from '../importers/importProvenance.js';
import { recalledLineMatcher, type RecalledTextCheck } from '../sessions/recalled.js';
import { defaultToolHomes, emptyIngestReport } from '../sessions/toolHomes.js';
import fs from 'node:fs';
import { LlamaEmbeddingProvider } from '../embed/llama/llamaEmbeddingProvider.js';
import { DEFAULT_EMBEDDING_MODEL_URI } from '../models/defaultModels.js';
import { generationId, type EmbeddingProvider } from '../embed/provider.js';
import { embedPendingChunks } from '../index/embedSync.js';
import { VectorStore, type VectorBackend } from '../index/vectorStore.js';
import { HostLock } from '../workspace/hostLock.js';
import type { ResolvedWorkspace } from '../workspace/resolveWorkspace.js';
import { SettingsStore } from '../workspace/settingsStore.js';
import { WorkspaceFiles } from '../workspace/workspaceFiles.js';
import { PreImageStore } from '../workspace/preImages.js';
import { boostProject } from '../search/projectBoost.js';
import { SearchWorkerPool } from '../search/workers/searchWorkerPool.js';
import type { SearchRequest } from '../search/workers/searchWorkerProtocol.js';
import { recallAfterSearch, type RecalledEntries } from '../dreaming/recall/searchWorkerRecall.js';
import { chooseWorkspaceFolder, describeWorkspaceChoice } from '../workspace/workspaceChoice.js';
import { openEngineLog, type EngineLog } from '../platform/log/engineLog.js';
import type { Logger } from '../platform/log/logger.js';
import { setProcessLogDestination } from '../platform/log/processLog.js';
import { redactSecrets } from '../sessions/redact.js';
import { logHandlers } from '../diagnostics/logHandlers.js';
import { packageVersion } from '../platform/packageRoot.js';

export interface MemoryServiceOptions {
  dataDir: string;
  workspace: ResolvedWorkspace;
  /** Test seam for file reads during indexing. */
  readBytes?: ReadBytes;
  watchDebounceMs?: number;
  /** The clock dreaming reads (recall times, sweeps, schedule); tests move it, nothing else is faked. */
  now?: () => number;
  /** Told to the person with the first sync (e.g. the workspace chosen earlier had gone). */
  startupNotices?: string[];
  /** The host restarts on the workspace the person chose (desktop engine process); unset: it cannot. */
  onDidChooseWorkspace?: (root: string) => void;
}

/** A search this long after the previous one started, with none running, has the engine to itself (see searchChunks). */
const LONE_SEARCH_GAP_MS = 30;

/**
 * The engine behind the contract. One instance per open workspace; hosts (HTTP, Electron,
 * daemon) and one-shot CLI commands all talk to it through `invoke`.
 */
export class MemoryService {
  readonly settings: SettingsStore;
  readonly preImages: PreImageStore;
  readonly indexPath: string;
  readonly lock: HostLock;
  private db!: Database.Database;
  private provenanceOf: { db: Database.Database; statement: Database.Statement } | null = null;
  private store!: IndexStore;
  private searcher!: KeywordSearcher;
  /** Times this engine changed the index (syncs, forget): search workers refresh their caches when it moves. */
  private indexChanges = 0;
  /** Searches running now, on this thread or a worker. */
  private searchesInFlight = 0;
  private lastSearchStartedAt = -Infinity;
  /** Syncs (indexing, then the graph) running on this thread: background work a lone search cuts into. */
  private syncsRunning = 0;
  private hybrid!: HybridSearcher;
  private vectorBackend: VectorBackend = 'scan';
  private vectorProblem: string | null = null;
  private vectors: VectorStore | null = null;
  private provider: EmbeddingProvider = new HashEmbeddingProvider();
  /** Hosts only: searches on worker threads, in parallel with each other and with indexing. */
  private searchPool: SearchWorkerPool<RecalledEntries> | null = null;
  private searchesOnEngineThread = 0;
  private providerChosen = false;
  private embedState: { embedded: number; total: number; running: boolean; error: string | null } = { embedded: 0, total: 0, running: false, error: null };
  private readonly files: WorkspaceFiles;
  private readonly notices: string[] = [];
  private readonly eventEmitter = new Emitter<EngineEvent>({ onListenerError: (error) => this.logger.error('An engine event listener failed', { error }) });
  private syncChain: Promise<unknown> = Promise.resolve();
  /** The sync queued behind the running one, not started yet: later requests join it. */
  private queuedSync: { force: boolean; run: Promise<SyncReport> } | null = null;
  private state: IndexState = 'idle';
  private lastError: string | null = null;
  private watcher: MemoryWatcher | null = null;
  private hostInfo: HostInfo | null = null;
  private closed = false;
  private indexingPaused = false;
  private syncPendingOnResume = false;

  /** Fires for progress and lifecycle events (`index-progress`, `index-ready`, …). */
  readonly onDidEmitEvent = this.eventEmitter.event;

  readonly handlers: OperationHandlers;
  /** The engine's log (`<data>/logs/`): handed to the parts below as loggers with an area name. */
  readonly log: EngineLog;
  private readonly logger: Logger;
  private readonly restoreProcessLog: () => void;
  readonly models: ModelStore;
  readonly dreams: DreamService;
  readonly agents: AgentService;
  readonly graph: GraphService;

  constructor(private readonly options: MemoryServiceOptions) {
    const { dataDir, workspace } = options;
    // Told once, in Status, when the log folder cannot be written; the engine works on regardless.
    this.log = openEngineLog(dataDir, { redact: (text) => redactSecrets(text).text, onProblem: (problem) => this.notices.push(problem) });
    this.logger = this.log.logger('engine');
    this.restoreProcessLog = setProcessLogDestination(this.log);
    this.settings = new SettingsStore(dataDir);
    this.preImages = new PreImageStore(path.join(dataDir, 'backups', 'pre-images', workspace.id));
    this.indexPath = path.join(dataDir, 'index', `${workspace.id}.sqlite`);
    this.lock = HostLock.forWorkspace(dataDir, workspace.id);
    this.files = new WorkspaceFiles(
      workspace.root,
      () => this.settings.read().extraPaths,
      this.preImages,
    );
    this.models = new ModelStore({ dataDir, logger: this.log.logger('models') });
    this.models.onDidProgressDownload((e) =>
      this.eventEmitter.fire({ type: 'model-download', uri: e.uri, bytes: e.bytes, total: e.total, rate: e.rate, etaSeconds: e.etaSeconds, done: e.done }),
    );
    this.openIndex();
    this.dreams = new DreamService({
      dataDir,
      workspaceId: workspace.id,
      workspaceRoot: workspace.root,
      indexDb: () => this.db,
      preImages: this.preImages,
      settings: this.settings,
      models: this.models,
      emit: (event) => this.eventEmitter.fire(event),
      now: options.now,
      logger: this.log.logger('dreaming'),
      onDidWriteFiles: (paths) => {
        this.eventEmitter.fire({ type: 'files-changed', paths });
        this.syncInBackground();
      },
    });
    this.notices.push(...(options.startupNotices ?? []));
    if (this.dreams.notice) this.notices.push(this.dreams.notice);
    this.agents = new AgentService({
      dataDir,
      workspaceId: workspace.id,
      workspaceRoot: workspace.root,
      indexDb: () => this.db,
      files: this.files,
      now: options.now,
      logger: this.log.logger('agents'),
      onDidWriteFiles: (paths) => {
        this.eventEmitter.fire({ type: 'files-changed', paths });
        this.syncInBackground();
      },
    });
    if (this.agents.notice) this.notices.push(this.agents.notice);
    this.graph = new GraphService({ indexDb: () => this.db, workspaceRoot: workspace.root, settings: this.settings, models: this.models });
    this.handlers = {
      ...this.dreams.handlers,
      ...this.agents.handlers,
      ...this.graph.handlers,
      ...logHandlers(this.log),
      status: async () => this.status(),
      'index.sync': async ({ force }) => this.sync(force),
      'index.pause': async ({ paused }) => this.setIndexingPaused(paused),
      'workspace.info': async () => describeWorkspaceChoice(this.settings, this.workspace, this.hostInfo?.kind === 'desktop'),
      'workspace.open': async ({ path: folder, create }) => {
        if (folder === null) {
          throw new ReverieError('invalid-input', 'This window cannot show a folder picker: type the full path of the workspace folder.');
        }
        const { root, changed } = chooseWorkspaceFolder(this.settings, this.workspace, folder, create);
        // The desktop host restarts its engine on the new workspace; other hosts are started again by the person.
        const restarts = changed && this.options.onDidChooseWorkspace !== undefined;
        if (restarts) queueMicrotask(() => this.options.onDidChooseWorkspace?.(root));
        return { root, changed, restartRequired: changed && !restarts };
      },
      'memory.search': async ({ query, limit, sources, project, graph }, context) => {
        await this.ensureEmbeddingProvider();
        const started = performance.now();
        const { results: chunks, recalled } = await this.searchChunks({ query, limit, sources });
        const found = this.withProvenance(chunks);
        const results = project ? boostProject(this.db, found, project) : found;
        const tookMs = Math.round((performance.now() - started) * 100) / 100;
        if (recalled) this.dreams.recorder.recordWhenResolved(query, results, context.transport, recalled);
        else this.dreams.recorder.record(query, results, context.transport);
        // Graph hits are a separate group: chunk results stay as they are.
        if (graph) return { results, tookMs, graph: this.graph.entitiesFor(query, Math.min(limit, 20)) };
        return { results, tookMs };
      },
      // Memory files only: transcripts are reached through search and provenance, not the file tree.
      'files.list': async () => ({ files: this.store.coverage().filter((f) => f.source !== 'sessions') }),
      'files.read': async ({ path: p }) => this.files.read(p),
      'files.write': async ({ path: p, text, expectedSha256 }) => {
        const written = this.files.write(p, text, expectedSha256);
        this.eventEmitter.fire({ type: 'files-changed', paths: [p] });
        this.syncInBackground();
        return written;
      },
      'settings.get': async () => this.settings.read(),
      'settings.set': async ({ patch }) => this.settings.update(patch),
      'sessions.ingest': async ({ homes }) => {
        const chosen = { ...this.settings.read().sessions };
        const given = Object.entries(homes);
        if (given.length === 0) {
          // No folders named: every tool whose default home exists.
          for (const [tool, dir] of Object.entries(defaultToolHomes())) if (fs.existsSync(dir)) chosen[tool] = dir;
        } else for (const [tool, dir] of given) chosen[tool] = dir ? path.resolve(dir) : null;
        this.settings.update({ sessions: chosen });
        const report = await this.sync(false);
        return report.sessions ?? emptyIngestReport();
      },
      'import.detect': async ({ sources }) => ({ sources: detectImportSources(sources) }),
      'import.plan': async ({ sources }) => planImport({ workspaceRoot: this.workspace.root, sources: sources ?? allImportSources() }),
      'import.apply': async ({ plan, sources, replace, exclude }) => {
        // A saved plan is checked against the disk (fingerprint); a fresh one was just read from it.
        const chosen = plan ?? (await planImport({ workspaceRoot: this.workspace.root, sources: sources ?? allImportSources() }));
        const report = await applyImport(chosen, {
          workspaceRoot: this.workspace.root,
          dataDir: this.options.dataDir,
          replace,
          exclude,
          verifyFingerprint: plan !== undefined,
          onProgress: (p) => this.eventEmitter.fire({ type: 'import-progress', ...p }),
        });
        recordImportProvenance(this.db, this.workspace.root, report);
        if (report.copied + report.replaced > 0) await this.sync(false);
        return report;
      },
      'import.reports': async () => ({ reports: listImportReports(this.options.dataDir) }),
      'provenance.get': async ({ ref }) => getProvenance(this.db, parseProvenanceRef(this.db, ref)),
      forget: async ({ session, path: p, dryRun }) => {
        const report = forget(this.db, { session, path: p }, dryRun);
        if (!dryRun) {
          this.indexChanged();
          this.eventEmitter.fire({ type: 'files-changed', paths: report.removed.files });
        }
        return report;
      },
      'models.list': async () => {
        const { models, active } = this.models.list();
        return { models, active, defaultEmbeddingUri: DEFAULT_EMBEDDING_MODEL_URI };
      },
      'models.pull': async ({ uri, role }) => (await this.models.pull(uri, role)).model,
      'models.use': async ({ model, role }) => {
        const used = this.models.use(model, role);
        if (used.role === 'embedding') void this.switchEmbeddingProvider().catch((error: unknown) => this.logger.warn('Switching the embedding model failed', { error }));
        return { active: this.models.list().active };
      },
      'models.remove': async ({ model }) => {
        const { removed, deactivated } = this.models.remove(model);
        if (deactivated.includes('embedding')) void this.switchEmbeddingProvider().catch((error: unknown) => this.logger.warn('Switching the embedding model failed', { error }));
        return { removed: removed.id };
      },
    };
  }

  get workspace(): ResolvedWorkspace {
    return this.options.workspace;
  }

  /** An operation named in code: input and result typed by the contract (and still checked at run time). */
  invoke<N extends OperationName>(name: N, input: OperationInput<N>, context?: CallContext): Promise<OperationOutput<N>> {
    if (this.closed) return Promise.reject(new ReverieError('internal', 'The engine is shutting down.'));
    return invokeTypedOperation(this.handlers, name, input, context).catch(this.operationFailed(name, context));
  }

  /** A name and input that arrived from outside (HTTP, IPC, the agent socket, MCP): validated against the contract. */
  invokeUnchecked(name: string, input: unknown, context?: CallContext): Promise<unknown> {
    if (this.closed) return Promise.reject(new ReverieError('internal', 'The engine is shutting down.'));
    return invokeOperation(this.handlers, name, input, context).catch(this.operationFailed(name, context));
  }

  /** What the caller can fix (bad input, not found) is theirs to see (debug); anything else is ours, logged as an error. */
  private operationFailed(name: string, context: CallContext | undefined): (error: unknown) => never {
    return (error) => {
      const expected = error instanceof ReverieError && error.code !== 'internal';
      this.logger[expected ? 'debug' : 'error'](`Operation ${name} failed`, { transport: context?.transport ?? 'cli', error });
      throw error;
    };
  }

  /** Become the host of this workspace: take the lock, watch files, index in the background. */
  async startHosting(info: Omit<HostInfo, 'pid' | 'startedAt'>): Promise<void> {
    this.hostInfo = { ...info, pid: process.pid, startedAt: new Date().toISOString() };
    this.logger.info('Hosting the workspace', { kind: info.kind, workspace: this.workspace.root, version: packageVersion() });
    this.lock.acquire(this.hostInfo, this.workspace.root);
    const settings = this.settings.read();
    if (settings.watch) {
      this.watcher = new MemoryWatcher({
        workspaceRoot: this.workspace.root,
        extraPaths: settings.extraPaths,
        transcriptRoots: Object.values(settings.sessions).filter((d): d is string => d !== null),
        debounceMs: this.options.watchDebounceMs ?? 1500,
        onDidChangeFiles: () => this.syncInBackground(),
      });
      await this.watcher.start();
    }
    this.dreams.startSchedule();
    this.startSearchWorkers();
    try {
      await this.agents.startSocket((name, input, context) => this.invokeUnchecked(name, input, context));
    } catch (error) {
      // Search and the UI work without it; agents are told why they cannot connect.
      this.notices.push(`The agent socket could not start: ${(error as Error).message}`);
      this.logger.warn('The agent socket could not start', { error });
    }
  }

  setHostUrl(url: string): void {
    if (!this.hostInfo) return;
    this.hostInfo = { ...this.hostInfo, url };
    this.lock.update(this.hostInfo);
  }

  /** File changes seen by the watcher, an edit or an agent: indexed now, or on resume when paused. */
  private syncInBackground(): void {
    if (this.indexingPaused) {
      this.syncPendingOnResume = true;
      return;
    }
    void this.sync(false).catch(this.backgroundSyncFailed);
  }

  /** A sync nobody waits for failed: syncOnce logged it and set the index state; noted here for the trail. */
  private readonly backgroundSyncFailed = (error: unknown): void => this.logger.debug('A background sync failed', { error });

  private setIndexingPaused(paused: boolean): { paused: boolean } {
    if (this.indexingPaused !== paused) {
      this.indexingPaused = paused;
      this.eventEmitter.fire({ type: 'index-paused', paused });
      if (!paused && this.syncPendingOnResume) {
        this.syncPendingOnResume = false;
        void this.sync(false).catch(this.backgroundSyncFailed);
      }
    }
    return { paused };
  }

  /** Syncs are serialised: a watcher burst during a manual sync queues one more run. */
  sync(force: boolean): Promise<SyncReport> {
    // A burst of requests (watcher events, 1,000 agent notes) shares the one sync still waiting to start.
    if (this.queuedSync && (!force || this.queuedSync.force)) return this.queuedSync.run;
    const queued: { force: boolean; run: Promise<SyncReport> } = { force, run: Promise.resolve(null as unknown as SyncReport) };
    queued.run = this.syncChain.then(() => {
      if (this.queuedSync === queued) this.queuedSync = null;
      return this.runSync(force);
    });
    this.queuedSync = queued;
    // The caller has the error through `queued.run`; the chain only has to move on.
    this.syncChain = queued.run.catch((error: unknown) => this.logger.debug('The next sync starts after a failed one', { error }));
    return queued.run;
  }

  private async runSync(force: boolean, retried = false): Promise<SyncReport> {
    this.syncsRunning++;
    try {
      if (!retried) this.logger.info('Indexing started', { workspace: this.workspace.root, force });
      const report = await this.syncOnce(force, retried);
      if (!retried) this.logger.info('Indexing finished', syncSummary(report));
      return report;
    } finally {
      this.syncsRunning--;
    }
  }

  private async syncOnce(force: boolean, retried: boolean): Promise<SyncReport> {
    this.state = 'indexing';
    await this.ensureEmbeddingProvider();
    const settings = this.settings.read();
    try {
      const report = await syncIndex(
        this.store,
        { workspaceRoot: this.workspace.root, extraPaths: settings.extraPaths },
        {
          force,
          maxFileBytes: settings.maxFileSizeMB * 1024 * 1024,
          readBytes: this.options.readBytes,
          onProgress: (p) => this.eventEmitter.fire({ type: 'index-progress', ...p }),
          shouldStop: () => this.closed, // quitting: committed files stay, the rest waits for the next start
        },
      );
      report.notices.unshift(...this.notices.splice(0));
      this.indexChanged();
      const sources = settings.sessions;
      if (Object.values(sources).some((home) => home !== null)) {
        report.sessions = await ingestTranscripts(this.db, this.store, sources, {
          maxBytes: settings.maxTranscriptSizeMB * 1024 * 1024,
          isRecalledText: this.recalledMatcher(),
          onProgress: (p) => this.eventEmitter.fire({ type: 'index-progress', phase: 'sessions', ...p }),
        });
        ({ files: report.files, chunks: report.chunks } = this.store.counts());
        this.indexChanged();
      }
      report.embedding = await this.embedPending();
      if (report.embedding.error) report.notices.push(`Embedding failed: ${report.embedding.error}. Keyword search keeps working.`);
      this.state = 'ready';
      this.lastError = null;
      // Search is ready now; the graph (derived, slower) follows, yielding to searches between batches.
      this.eventEmitter.fire({ type: 'index-ready', report });
      try {
        // The chat model's prompts take seconds each: a sync waiting behind them (an edit) goes first.
        const graph = await this.graph.update(force, () => this.closed, () => this.queuedSync !== null);
        report.graph = { extracted: graph.extracted, removed: graph.removed, entities: graph.entities, claims: graph.claims, durationMs: graph.durationMs };
        const model = graph.model;
        if (model?.reason) report.notices.push(`Graph model extraction: ${model.reason}.`);
        const modelChanged = model !== null && model.entities + model.claims + model.removed > 0;
        if (graph.extracted + graph.removed > 0 || modelChanged) {
          this.eventEmitter.fire({ type: 'graph-updated', extracted: graph.extracted, removed: graph.removed, entities: graph.entities, claims: graph.claims });
        }
      } catch (error) {
        // The graph is derived and optional: a failed update never fails the sync.
        report.notices.push(`The knowledge graph could not be updated: ${(error as Error).message}`);
        this.logger.warn('The knowledge graph could not be updated', { error });
      }
      return report;
    } catch (error) {
      if (isCorruptionError(error) && !retried) {
        // The index is derived: rebuild it rather than fail.
        this.logger.warn('The index is corrupted; it is moved aside and rebuilt', { indexPath: this.indexPath, error });
        this.db.close();
        this.openIndex({ forceMoveAside: true });
        return this.runSync(true, true);
      }
      this.state = 'error';
      this.lastError = (error as Error).message;
      this.logger.error('Indexing failed', { workspace: this.workspace.root, error });
      this.eventEmitter.fire({ type: 'index-error', message: this.lastError });
      throw error;
    }
  }

  private sessionTotals(): StatusOutput['sessions'] {
    const totals = { transcripts: 0, lines: 0, messages: 0, unknownLines: 0, malformedLines: 0, toolCalls: 0, redactions: 0, recalledStripped: 0 };
    for (const row of this.db.prepare('SELECT stats FROM transcripts').iterate() as Iterable<{ stats: string }>) {
      totals.transcripts++;
      const stats = JSON.parse(row.stats) as Partial<Record<keyof typeof totals, number>>;
      for (const key of ['lines', 'messages', 'unknownLines', 'malformedLines', 'toolCalls', 'redactions', 'recalledStripped'] as const) totals[key] += stats[key] ?? 0;
    }
    return totals;
  }

  private startSearchWorkers(): void {
    if (process.env.REVERIE_SEARCH_WORKERS === '0') return;
    const size = process.env.REVERIE_SEARCH_WORKERS ? Number(process.env.REVERIE_SEARCH_WORKERS) : undefined;
    this.searchPool = new SearchWorkerPool<RecalledEntries>({
      indexPath: this.indexPath,
      vectorBackend: this.vectorBackend,
      afterSearch: recallAfterSearch(this.workspace.root),
      size: size !== undefined && Number.isInteger(size) && size > 0 ? size : undefined,
      embedQuery: async (generation, text) => {
        if (generationId(generation) !== generationId(this.provider.generation)) throw new Error('The embedding model changed.');
        return this.provider.embedQuery(text);
      },
      onDidGiveUp: (message) => {
        this.notices.push(message);
        this.logger.warn(message);
      },
    });
  }

  /** Hosts: how searches are being answered (workers ready, searches they answered, searches this thread took back). */
  searchWorkers(): { ready: number; answered: number; onEngineThread: number } | null {
    return this.searchPool ? { ready: this.searchPool.readyWorkers, answered: this.searchPool.answered, onEngineThread: this.searchesOnEngineThread } : null;
  }

  /** Resolves when a search worker can answer (false: none could start, or this is not a host). */
  async whenSearchWorkersReady(timeoutMs?: number): Promise<boolean> {
    return (await this.searchPool?.whenReady(timeoutMs)) ?? false;
  }

  /** This engine changed the index: keyword caches here and on the search workers refresh at their next search. */
  private indexChanged(): void {
    this.searcher.invalidate();
    this.indexChanges++;
  }

  /**
   * Chunk results of the hybrid search, on a search worker when one is ready, else on this
   * thread. One exception: while a sync runs here (indexing, then the graph), a search that
   * has the engine to itself (none running, none started in the last LONE_SEARCH_GAP_MS: a
   * person typing, not agents under load) runs on this thread between two slices. On a worker
   * it would wait for this thread twice and share the cores with it (measured during a first
   * index: round-trip p95 55 ms on a worker, 36 ms here).
   */
  private async searchChunks({ query, limit, sources }: Omit<SearchRequest, 'settings' | 'generation' | 'indexChanges'>): Promise<{ results: SearchResult[]; recalled: Promise<RecalledEntries> | null }> {
    const startedAt = performance.now();
    const alone = this.searchesInFlight === 0 && startedAt - this.lastSearchStartedAt > LONE_SEARCH_GAP_MS;
    this.lastSearchStartedAt = startedAt;
    this.searchesInFlight++;
    try {
      const settings = { ...DEFAULT_HYBRID, fusion: this.settings.read().fusion };
      const pooled =
        alone && this.syncsRunning > 0
          ? null
          : this.searchPool?.search({ query, limit, sources, settings, generation: this.vectors ? this.provider.generation : null, indexChanges: this.indexChanges });
      if (pooled) {
        try {
          const { results, after } = await asForeground(pooled);
          return { results, recalled: after };
        } catch (error) {
          // A worker that died or failed: this thread answers (a real error repeats here, and is reported).
          this.logger.warn('A search worker failed; the engine thread answers instead', { error });
        }
      }
      if (this.searchPool) this.searchesOnEngineThread++;
      return { results: await this.hybrid.search({ query, limit, sources }), recalled: null };
    } finally {
      this.searchesInFlight--;
    }
  }

  /** Adds each result's provenance summary (origin class, session kind), read from the chunk's columns. */
  private withProvenance(results: SearchResult[]): SearchResult[] {
    const ids = results.map((r) => Number(r.id.slice('chunk:'.length)));
    if (ids.length === 0) return results;
    // Prepared once per index connection (the index can be reopened): every search asks.
    if (this.provenanceOf?.db !== this.db) {
      this.provenanceOf = { db: this.db, statement: this.db.prepare('SELECT id, origin, session_kind FROM chunks WHERE id IN (SELECT value FROM json_each(?))') };
    }
    const rows = this.provenanceOf.statement.all(JSON.stringify(ids)) as Array<{ id: number; origin: OriginClass; session_kind: SessionKind | null }>;
    const byId = new Map(rows.map((r) => [r.id, r]));
    return results.map((r) => {
      const row = byId.get(Number(r.id.slice('chunk:'.length)));
      return row ? { ...r, origin: row.origin, sessionKind: row.session_kind } : r;
    });
  }

  /**
   * Lines of the workspace's memory: transcript text that merely repeats them was recalled, not
   * said. Built on first use, so a sync whose transcripts are all unchanged never reads them.
   */
  private recalledMatcher(): RecalledTextCheck {
    let check: RecalledTextCheck | null = null;
    return (line) => {
      if (!check) {
        const rows = this.db.prepare("SELECT text FROM chunks WHERE source = 'memory' LIMIT 20000").all() as Array<{ text: string }>;
        check = recalledLineMatcher(rows.flatMap((r) => r.text.split('\n')));
      }
      return check(line);
    };
  }

  /**
   * Makes the active embedding model (or the hash provider when none is installed) the one
   * used for new vectors and for queries; vectors of the new generation are built in the
   * background while search keeps using keywords (and whatever vectors exist) meanwhile.
   */
  async switchEmbeddingProvider(): Promise<void> {
    this.providerChosen = false;
    await this.ensureEmbeddingProvider();
    await this.sync(false);
  }

  /** Picks the provider for the active embedding model once (hash until then). */
  private async ensureEmbeddingProvider(): Promise<void> {
    if (this.providerChosen) return;
    this.providerChosen = true;
    const next = await this.createEmbeddingProvider();
    if (generationId(next.generation) === generationId(this.provider.generation)) {
      await next.close();
      return;
    }
    const previous = this.provider;
    this.provider = next;
    this.vectors = new VectorStore(this.db, next.generation, this.vectorBackend);
    await previous.close();
  }

  private async createEmbeddingProvider(): Promise<EmbeddingProvider> {
    const model = this.models.activeModel('embedding');
    if (!model || !model.present) return new HashEmbeddingProvider();
    try {
      return await LlamaEmbeddingProvider.open({ modelPath: model.path, modelId: model.sha256.slice(0, 16) });
    } catch (error) {
      this.notices.push(`The embedding model ${model.file} could not be used (${(error as Error).message}); using the built-in hash embeddings instead.`);
      this.logger.warn('The embedding model could not be opened; using hash embeddings', { model: model.file, error });
      return new HashEmbeddingProvider();
    }
  }

  /** Vectors for new chunks in the active generation; keyword search works meanwhile. */
  private async embedPending(): Promise<NonNullable<SyncReport['embedding']>> {
    const vectors = this.vectors;
    const result: NonNullable<SyncReport['embedding']> = {
      provider: this.provider.generation.provider,
      generation: vectors?.id ?? '',
      embedded: 0,
      fromCache: 0,
      durationMs: 0,
      error: null,
    };
    if (!vectors) return result;
    this.embedState.running = true;
    try {
      const done = await embedPendingChunks(this.db, vectors, this.provider, {
        onProgress: (p) => {
          this.embedState.embedded = p.done;
          this.embedState.total = p.total;
          this.eventEmitter.fire({ type: 'index-progress', ...p });
        },
        shouldStop: () => this.closed,
        // A model generation that grows large gets (or renews) its cells for whole-index KNN as it
        // goes, not hours later when re-embedding ends; searches go on meanwhile.
        afterBatch: () => vectors.maintainCells(() => this.closed),
      });
      Object.assign(result, { embedded: done.embedded, fromCache: done.fromCache, durationMs: done.durationMs });
      // Vectors stored by an earlier version, or a batch cut short by a stop.
      if (!this.closed) await vectors.maintainCells(() => this.closed);
      this.embedState.error = null;
    } catch (error) {
      // Embedding problems never take keyword search down: report and carry on.
      this.embedState.error = (error as Error).message;
      this.logger.warn('Embedding failed; keyword search keeps working', { error });
      result.error = this.embedState.error;
    } finally {
      this.embedState.running = false;
      this.embedState.embedded = vectors.embeddedCount();
      this.embedState.total = this.store.counts().chunks;
    }
    return result;
  }

  status(): StatusOutput {
    const counts = this.store.counts();
    return {
      workspace: { path: this.workspace.root, id: this.workspace.id, exists: true },
      dataDir: this.options.dataDir,
      indexPath: this.indexPath,
      host: this.hostInfo ?? this.lock.readHolder(),
      agentSocket: this.agents.socketListening || this.lock.readHolder() ? this.agents.socketPath : null,
      index: {
        state: this.state === 'idle' && counts.files > 0 ? 'ready' : this.state,
        files: counts.files,
        chunks: counts.chunks,
        indexed: counts.indexed,
        skipped: counts.skipped,
        failed: counts.failed,
        lastSyncAt: this.store.getMeta('last_sync_at'),
        lastError: this.lastError,
        paused: this.indexingPaused,
      },
      embedding: {
        provider: this.provider.generation.provider,
        model: this.provider.generation.model,
        dims: this.provider.dims,
        generation: this.vectors?.id ?? null,
        vectorBackend: this.vectorBackend,
        vectorBackendProblem: this.vectorProblem,
        knn: this.vectors?.knnMode() ?? { mode: 'off', reason: 'no vectors yet' },
        embedded: this.vectors?.embeddedCount() ?? 0,
        total: counts.chunks,
        running: this.embedState.running,
        lastError: this.embedState.error,
      },
      sessions: this.sessionTotals(),
      dreaming: this.dreams.summary(),
      files: this.store.coverage(),
      notices: [...this.notices],
    };
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.watcher?.close();
    await this.agents.close(); // stop the agent socket first: no new calls while closing
    await this.dreams.close(); // finish a running sweep, flush recall signals
    await this.syncChain; // finish the current transaction before closing the index
    await this.searchPool?.close();
    this.graph.close();
    await this.provider.close();
    this.db.close();
    this.lock.release();
    this.eventEmitter.dispose();
    await this.log.close();
    this.restoreProcessLog();
  }

  private openIndex(options: { forceMoveAside?: boolean } = {}): void {
    if (options.forceMoveAside) {
      const movedTo = moveDatabaseAside(this.indexPath);
      this.notices.push(
        `The index ${this.indexPath} was corrupted; it was moved to ${movedTo} and rebuilt from your Markdown files. Nothing you wrote was lost.`,
      );
    }
    const opened = openIndexDatabase(this.indexPath, { disableVectorExtension: process.env.REVERIE_DISABLE_SQLITE_VEC === '1' });
    if (opened.notice) {
      this.notices.push(opened.notice);
      this.logger.warn(opened.notice);
    }
    this.db = opened.db;
    this.store = new IndexStore(this.db);
    this.searcher = new KeywordSearcher(this.db);
    this.vectorBackend = opened.vectorBackend;
    this.vectorProblem = opened.vectorProblem;
    this.vectors = new VectorStore(this.db, this.provider.generation, this.vectorBackend);
    this.searchPool?.restart(); // their connections still read the file that was moved aside
    this.hybrid = new HybridSearcher(
      this.db,
      this.searcher,
      () => (this.vectors ? { store: this.vectors, provider: this.provider } : null),
      () => ({ ...DEFAULT_HYBRID, fusion: this.settings.read().fusion }),
    );
  }
}

/** What the log keeps of a sync: counts and times, no file contents. */
function syncSummary(report: SyncReport): Record<string, unknown> {
  const { files, chunks, added, updated, removed, unchanged, skipped, failed, durationMs } = report;
  return { files, chunks, added, updated, removed, unchanged, skipped, failed, durationMs: Math.round(durationMs), embedded: report.embedding?.embedded ?? 0, graphMs: report.graph ? Math.round(report.graph.durationMs) : null };
}
