import path from 'node:path';
import type Database from 'better-sqlite3';
import type { EngineEvent, HostInfo, OperationInput, OperationName, OperationOutput, ProvenanceChain, StatusOutput, SyncReport } from '../contract/index.js';
import { EntryKindsTable } from '../index/entryKindsTable.js';
import { Emitter } from '../platform/events.js';
import { Notices } from '../platform/notices.js';
import type { EngineLog } from '../platform/log/engineLog.js';
import { packageVersion } from '../platform/packageRoot.js';
import { logHandlers } from '../diagnostics/logHandlers.js';
import { operationDispatch, type CallContext, type OperationDispatch, type OperationHandlers } from './invoke.js';
import { startEngineLogging, type EngineLogging } from './engineLogging.js';
import type { MemoryServiceOptions } from './memoryServiceOptions.js';
import { assembleStatus } from './status.js';
import { DreamService } from '../dreaming/dreamService.js';
import { recallAfterSearch, type RecalledEntries } from '../dreaming/recall/searchWorkerRecall.js';
import { withResultUse } from '../dreaming/recall/resultUse.js';
import { writesWaitForCompaction } from '../index/writesAfterCompaction.js';
import { AgentService } from '../agents/agentService.js';
import { GraphService } from '../graph/graphService.js';
import { graphBacklog } from '../graph/graphBacklog.js';
import { Cooccurrence } from '../graph/cooccurrence.js';
import { updateGraphAfterSync } from '../graph/graphSyncStep.js';
import { IndexService } from '../index/indexService.js';
import { FilesService } from '../index/filesService.js';
import { NotesService } from '../index/notesService.js';
import { SearchService } from '../search/searchService.js';
import { ModelStore } from '../models/modelStore.js';
import { ModelService } from '../models/modelService.js';
import { ProvenanceService } from '../provenance/provenanceService.js';
import { SessionService } from '../sessions/sessionService.js';
import { ImportService } from '../importers/importService.js';
import { HostLock } from '../workspace/hostLock.js';
import type { ResolvedWorkspace } from '../workspace/resolveWorkspace.js';
import { SettingsStore } from '../workspace/settingsStore.js';
import { WorkspaceFiles } from '../workspace/workspaceFiles.js';
import { PreImageStore } from '../workspace/preImages.js';
import { WorkspaceService } from '../workspace/workspaceService.js';

/**
 * The engine behind the contract. One instance per open workspace; hosts (HTTP, Electron,
 * daemon) and one-shot CLI commands all talk to it through `invoke`. It only wires the
 * feature services together: each owns its operations' handlers.
 */
export class MemoryService {
  readonly settings: SettingsStore;
  readonly preImages: PreImageStore;
  readonly indexPath: string;
  readonly lock: HostLock;
  readonly handlers: OperationHandlers;
  readonly models: ModelStore;
  readonly dreams: DreamService;
  readonly agents: AgentService;
  readonly graph: GraphService;
  /** The engine's log (`<data>/logs/`): handed to the parts below as loggers with an area name. */
  readonly log: EngineLog;
  private readonly logging: EngineLogging;
  private readonly calls: OperationDispatch;
  private readonly index: IndexService;
  /** Hosts: `search.workers()` says how searches are answered (workers ready, answered, taken back). */
  readonly search: SearchService<RecalledEntries>;
  private readonly sessions: SessionService;
  private readonly notices = new Notices();
  private readonly eventEmitter = new Emitter<EngineEvent>({ onListenerError: (error) => this.logging.logger.error('An engine event listener failed', { error }) });
  private hostInfo: HostInfo | null = null;
  private closed = false;

  /** Fires for progress and lifecycle events (`index-progress`, `index-ready`, …). */
  readonly onDidEmitEvent = this.eventEmitter.event;

  constructor(private readonly options: MemoryServiceOptions) {
    const { dataDir, workspace } = options;
    const emit = (event: EngineEvent): void => this.eventEmitter.fire(event);
    if (options.onEvent) this.eventEmitter.event(options.onEvent);
    this.logging = startEngineLogging(dataDir, this.notices);
    this.log = this.logging.log;
    this.settings = new SettingsStore(dataDir);
    this.preImages = new PreImageStore(path.join(dataDir, 'backups', 'pre-images', workspace.id));
    this.indexPath = path.join(dataDir, 'index', `${workspace.id}.sqlite`);
    this.lock = HostLock.forWorkspace(workspace.root, dataDir, workspace.id);
    const files = new WorkspaceFiles(workspace.root, () => this.settings.read().extraPaths, this.preImages);
    this.models = new ModelStore({ dataDir, logger: this.log.logger('models') });
    this.index = new IndexService({
      indexPath: this.indexPath,
      workspaceRoot: workspace.root,
      settings: this.settings,
      models: this.models,
      notices: this.notices,
      logger: this.log.logger('index'),
      emit,
      readBytes: options.readBytes,
      watchDebounceMs: options.watchDebounceMs,
      // Features above the index add their steps to every sync (they exist by the first sync).
      steps: {
        ingestSessions: (settings) => this.sessions.ingestDuringSync(settings),
        afterReady: (report, run) => updateGraphAfterSync(this.graph, report, run, emit, this.log.logger('graph')),
        derivedBacklog: () => graphBacklog(this.db),
        derivedSettled: () => !Cooccurrence.rebuildPending(this.db),
      },
    });
    const indexDb = (): Database.Database => this.db;
    const onDidWriteFiles = (paths: string[]): void => this.index.filesWritten(paths);
    const common = { dataDir, workspaceId: workspace.id, workspaceRoot: workspace.root, indexDb, now: options.now, onDidWriteFiles };
    this.dreams = new DreamService({ ...common, preImages: this.preImages, settings: this.settings, models: this.models, emit, logger: this.log.logger('dreaming') });
    this.agents = new AgentService({ ...common, files, logger: this.log.logger('agents') });
    this.notices.push(...(options.startupNotices ?? []), ...[this.dreams.notice, this.agents.notice].filter((n): n is string => n !== null));
    this.graph = new GraphService({ indexDb, workspaceRoot: workspace.root, settings: this.settings, models: this.models, onDidWriteAliases: onDidWriteFiles });
    this.search = new SearchService<RecalledEntries>({
      index: this.index,
      indexPath: this.indexPath,
      settings: this.settings,
      notices: this.notices,
      logger: this.log.logger('search'),
      afterSearch: recallAfterSearch(workspace.root),
      // Every search is a recall signal for dreaming (a worker already resolved its entries, or the recorder does).
      onDidSearch: (query, results, transport, recalled) =>
        recalled ? this.dreams.recorder.recordWhenResolved(query, results, transport, recalled) : this.dreams.recorder.record(query, results, transport),
      graphEntities: (query, limit) => this.graph.entitiesFor(query, limit),
    });
    this.sessions = new SessionService({ settings: this.settings, index: this.index, emit });
    this.handlers = writesWaitForCompaction(withResultUse({
      ...this.dreams.handlers,
      ...this.agents.handlers,
      ...this.graph.handlers,
      ...logHandlers(this.log),
      status: async () => this.index.readRecovering(() => this.status()),
      ...this.index.handlers,
      ...new WorkspaceService({ settings: this.settings, workspace, canPickFolder: () => this.hostInfo?.kind === 'desktop', onDidChooseWorkspace: options.onDidChooseWorkspace }).handlers,
      ...this.search.handlers,
      ...new FilesService(files, this.index).handlers,
      ...new NotesService(files, this.index).handlers,
      ...this.sessions.handlers,
      ...new ImportService({ workspaceRoot: workspace.root, dataDir, index: this.index, emit }).handlers,
      ...new ProvenanceService({ indexDb, onDidForget: (paths) => this.index.entriesForgotten(paths), storedKinds: storedKindsWithin }).handlers,
      ...new ModelService(this.models, { switchEmbeddingProvider: () => this.switchEmbeddingProvider(), logger: this.log.logger('models'), emit }).handlers,
    }, this.dreams.recorder), () => this.index.whenWritable());
    this.calls = operationDispatch(this.handlers, this.logging.logger, () => this.closed);
  }

  get workspace(): ResolvedWorkspace {
    return this.options.workspace;
  }

  /** The index connection (a new one after a corruption rebuild). */
  private get db(): Database.Database {
    return this.index.db;
  }

  /** An operation named in code: input and result typed by the contract (and still checked at run time). */
  invoke<N extends OperationName>(name: N, input: OperationInput<N>, context?: CallContext): Promise<OperationOutput<N>> {
    return this.calls.typed(name, input, context).catch(this.rethrowExplained);
  }

  /** A name and input that arrived from outside (HTTP, IPC, the agent socket, MCP): validated against the contract. */
  invokeUnchecked(name: string, input: unknown, context?: CallContext): Promise<unknown> {
    return this.calls.unchecked(name, input, context).catch(this.rethrowExplained);
  }

  /**
   * A corruption error that reached a caller (the index rebuilds itself before that): when the
   * dreaming or agents store is the damaged one, an error naming the file and what to do.
   */
  explainStoreDamage(error: unknown): unknown {
    return this.dreams.explainDamage(error) ?? this.agents.explainDamage(error) ?? error;
  }

  private readonly rethrowExplained = (error: unknown): never => {
    throw this.explainStoreDamage(error);
  };

  /** Become the host of this workspace: take the lock, watch files, index in the background. */
  async startHosting(info: Omit<HostInfo, 'pid' | 'startedAt'>): Promise<void> {
    this.hostInfo = { ...info, pid: process.pid, startedAt: new Date().toISOString() };
    this.logging.logger.info('Hosting the workspace', { kind: info.kind, workspace: this.workspace.root, version: packageVersion() });
    this.lock.acquire(this.hostInfo, this.workspace.root);
    await this.index.startWatching();
    this.dreams.startSchedule();
    this.search.startWorkers();
    try {
      await this.agents.startSocket((name, input, context) => this.invokeUnchecked(name, input, context));
    } catch (error) {
      // Search and the UI work without it; agents are told why they cannot connect.
      this.notices.push(`The agent socket could not start: ${(error as Error).message}`);
      this.logging.logger.warn('The agent socket could not start', { error });
    }
  }

  setHostUrl(url: string): void {
    if (!this.hostInfo) return;
    this.hostInfo = { ...this.hostInfo, url };
    this.lock.update(this.hostInfo);
  }

  /** Syncs are serialised: a watcher burst during a manual sync queues one more run. */
  sync(force: boolean, until: 'search' | 'all' = 'all'): Promise<SyncReport> {
    return this.index.sync(force, until);
  }

  /** Makes the active embedding model the one for new vectors and queries (see IndexService). */
  switchEmbeddingProvider(): Promise<void> {
    return this.index.switchEmbeddingProvider();
  }

  status(): StatusOutput {
    const { workspace, hostInfo, lock, index, sessions, dreams, agents, notices } = this;
    return assembleStatus({ workspace, dataDir: this.options.dataDir, indexPath: this.indexPath, hostInfo, lock, index, sessions, dreams, agents, notices });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.index.stop(); // running syncs stop at their next file; the watcher closes
    await this.agents.close(); // stop the agent socket first: no new calls while closing
    await this.dreams.close(); // finish a running sweep, flush recall signals
    await this.index.whenSyncsDone(); // finish the current transaction before closing the index
    await this.search.close();
    this.graph.close();
    await this.index.close();
    this.lock.release();
    this.eventEmitter.dispose();
    await this.logging.close();
  }
}

/** The kinds the index stored for the entries overlapping a range (at most 200), for provenance chains; none while the file's are still to be derived. */
function storedKindsWithin(db: Database.Database, path: string, startLine: number, endLine: number): ProvenanceChain['entryKinds'] {
  return new EntryKindsTable(db)
    .within(path, startLine, endLine)
    ?.slice(0, 200)
    .map(({ textHash: _hash, ...span }) => span);
}
