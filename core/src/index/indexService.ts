import path from 'node:path';
import type Database from 'better-sqlite3';
import type { DerivedProgress, EngineEvent, HandlersFor, IndexState, IngestReport, Settings, StatusOutput, SyncReport } from '../contract/index.js';
import type { ModelStore } from '../models/modelStore.js';
import { Emitter } from '../platform/events.js';
import type { Logger } from '../platform/log/logger.js';
import type { Notices } from '../platform/notices.js';
import { ReverieError } from '../platform/errors.js';
import { isCorruptionError, moveDatabaseAside } from '../platform/sqliteSchema.js';
import { isWithinFolder } from '../workspace/layout.js';
import type { SettingsStore } from '../workspace/settingsStore.js';
import { compactInBackground, isCompactionPending, type CompactionProgress } from './compactAfterUpgrade.js';
import { openIndexDatabase, openIndexForReading } from './database.js';
import { indexIsDamaged } from './indexDamage.js';
import { Embeddings } from './embeddings.js';
import type { ReadBytes } from './fileReader.js';
import { deriveEntryKinds } from './entryKindsStep.js';
import { whyIndexIsStale } from './indexFreshness.js';
import { IndexStore } from './indexStore.js';
import { describeReclaim } from './reclaimSpace.js';
import { syncIndex } from './sync.js';
import { MemoryWatcher } from './watcher.js';

/** Steps of every sync that features above the index own; the engine connects them. */
export interface SyncSteps {
  /** After the Markdown files, before embedding: the transcripts' report, or null when no tool's folder is set. */
  ingestSessions(settings: Settings): Promise<IngestReport | null>;
  /**
   * After `index-ready` (search is ready), in the background: derived, slower work (the
   * knowledge graph) that adds to the report and never fails it. It stops between slices when
   * `run.shouldStop()` says so (a sync waits, or the engine closes) and goes on after that sync.
   */
  afterReady(report: SyncReport, run: SyncRun): Promise<void>;
  /** How far the derived work has caught up (memory files), read from the index. */
  derivedBacklog(): { done: number; total: number };
  /** The derived work left nothing half-done (the graph's pair recount): what an upgrade freed is free now. */
  derivedSettled(): boolean;
}

/** What a step of a running sync may ask about it. */
export interface SyncRun {
  force: boolean;
  /** The engine is closing: stop at the next safe point. */
  shouldStop: () => boolean;
  /** Another sync waits to start (an edit): long work lets it go first. */
  syncWaiting: () => boolean;
}

export interface IndexServiceOptions {
  indexPath: string;
  workspaceRoot: string;
  settings: SettingsStore;
  models: Pick<ModelStore, 'activeModel'>;
  notices: Notices;
  /** The engine log's `index` area. */
  logger: Logger;
  emit(event: EngineEvent): void;
  steps: SyncSteps;
  /** Test seam for file reads during indexing. */
  readBytes?: ReadBytes;
  watchDebounceMs?: number;
  /**
   * Read the index as it is, never writing it (a one-shot search without a host): opened
   * read-only, no sync, no rebuild. An index that cannot be read so throws IndexUnreadableError.
   */
  readOnly?: boolean;
}

/** A read-only engine met an index it cannot read as it is (missing, another schema, damaged, a first sync cut short): open it the usual way. */
export class IndexUnreadableError extends Error {}

/**
 * The index of one workspace and how it is kept current: serialised syncs (files, then the
 * steps of the features above, then vectors), pausing, the file watcher, and a rebuild when
 * the index file turns out corrupted. `index.sync` and `index.pause` are its operations.
 */
export class IndexService {
  readonly handlers: HandlersFor<'index.sync' | 'index.pause'>;
  readonly embeddings: Embeddings;
  private current!: IndexStore;
  private readonly changeEmitter = new Emitter<void>({ onListenerError: (error) => this.listenerFailed(error) });
  private readonly reopenEmitter = new Emitter<void>({ onListenerError: (error) => this.listenerFailed(error) });
  private readonly logger: Logger;
  private syncChain: Promise<unknown> = Promise.resolve();
  /** The sync queued behind the running one, not started yet: later requests join it. */
  private queuedSync: { force: boolean; scope: SyncScope; run: Promise<SyncReport> } | null = null;
  /** Syncs (indexing, then the graph) running on this thread: background work a lone search cuts into. */
  private syncsRunning = 0;
  private state: IndexState = 'idle';
  private lastError: string | null = null;
  private watcher: MemoryWatcher | null = null;
  private closing = false;
  private indexingPaused = false;
  /** What changed while indexing was paused: synced on resume. */
  private syncPendingOnResume: SyncScope | null = null;
  /** The settings that decide which files are indexed, as the last whole sync saw them: a sync of changed paths needs them unchanged. */
  private fullSyncSettings: string | null = null;
  /** The index file was moved aside when it opened (damaged, newer, unreadable without sqlite-vec): empty until a sync fills it. */
  private rebuildPending = false;
  /** A sync of this index file reached `index-ready` in this process (see describe's `searchReady`). */
  private reachedReady = false;
  /**
   * The derived pass running now (the graph). It runs outside the sync queue, between syncs: a
   * sync that is queued stops it at its next slice, runs, and the pass goes on after it.
   */
  private derivedRun: Promise<void> | null = null;
  /** The sync whose derived work is still to do (the latest; a pass stopped for a sync resumes with it). */
  private derivedWanted: { report: SyncReport; force: boolean } | null = null;
  /** The compaction after an upgrade, while it runs (see compactAfterUpgrade.ts). */
  private compaction: CompactionProgress | null = null;
  /** The compaction while it runs: it holds the index's write lock, so writes outside a sync wait for it (`whenWritable`). */
  private compactionRun: Promise<void> | null = null;
  /** Tried once per process: one that was skipped (disk space) or failed is tried again at the next start. */
  private compactionTried = false;
  /** Reports whose derived pass met damage, with the report of the rebuild that followed. */
  private readonly rebuiltReports = new WeakMap<SyncReport, SyncReport>();

  /** This engine changed the index (a sync, or `forget`): caches of it refresh. */
  readonly onDidChange = this.changeEmitter.event;
  /** The index file was moved aside and a new one opened: connections to it must be made again. */
  readonly onDidReopen = this.reopenEmitter.event;

  constructor(private readonly options: IndexServiceOptions) {
    this.logger = options.logger;
    this.embeddings = new Embeddings({ models: options.models, notices: options.notices, logger: options.logger.child('embedding'), emit: options.emit, isClosing: () => this.closing, readOnly: options.readOnly });
    this.openIndex();
    this.handlers = {
      'index.sync': async ({ force, until }) => this.sync(force, until),
      'index.pause': async ({ paused }) => this.setIndexingPaused(paused),
    };
  }

  private listenerFailed(error: unknown): void {
    this.logger.error('An index listener failed', { error });
  }

  get store(): IndexStore {
    return this.current;
  }

  /** The index connection (a new one after a corruption rebuild: read it each time). */
  get db(): Database.Database {
    return this.current.db;
  }

  /** A sync or its derived pass is running on this thread (background work a lone search cuts into). */
  get syncing(): boolean {
    return this.syncsRunning > 0 || this.derivedRun !== null;
  }

  /** `forget` removed entries outside a sync: caches of the index refresh, and the window is told which files lost some. */
  entriesForgotten(paths: string[]): void {
    this.changeEmitter.fire();
    this.options.emit({ type: 'files-changed', paths });
  }

  /** Files written by an edit, an agent or dreaming (display paths): the window is told, and they are indexed. */
  filesWritten(paths: string[]): void {
    this.options.emit({ type: 'files-changed', paths });
    this.syncInBackground(new Set(paths.map((p) => path.resolve(this.options.workspaceRoot, p))));
  }

  /** Hosts: re-index when the memory files or transcripts change on disk. */
  async startWatching(): Promise<void> {
    const settings = this.options.settings.read();
    if (!settings.watch) return;
    this.watcher = new MemoryWatcher({
      workspaceRoot: this.options.workspaceRoot,
      extraPaths: settings.extraPaths,
      transcriptRoots: Object.values(settings.sessions).filter((d): d is string => d !== null),
      // Short: a batch costs only its own paths now, and events during a sync join the one queued behind it.
      debounceMs: this.options.watchDebounceMs ?? 300,
      onDidChangeFiles: (changed) => this.syncInBackground(changed),
    });
    await this.watcher.start();
  }

  /**
   * File changes seen by the watcher, an edit or an agent: indexed now, or on resume when paused.
   * Given the changed paths (absolute), only they are synced; else every file is compared.
   */
  syncInBackground(changed: SyncScope = 'everything'): void {
    if (this.indexingPaused) {
      this.syncPendingOnResume = widenScope(this.syncPendingOnResume, changed);
      return;
    }
    void this.queueSync(false, changed).catch(this.backgroundSyncFailed);
  }

  /** A sync nobody waits for failed: syncOnce logged it and set the index state; noted here for the trail. */
  private readonly backgroundSyncFailed = (error: unknown): void => this.logger.debug('A background sync failed', { error });

  private setIndexingPaused(paused: boolean): { paused: boolean } {
    if (this.indexingPaused !== paused) {
      this.indexingPaused = paused;
      this.options.emit({ type: 'index-paused', paused });
      if (!paused && this.syncPendingOnResume) {
        const changed = this.syncPendingOnResume;
        this.syncPendingOnResume = null;
        void this.queueSync(false, changed).catch(this.backgroundSyncFailed);
      }
    }
    return { paused };
  }

  /**
   * Syncs are serialised: a watcher burst during a manual sync queues one more run. Resolves at
   * `index-ready` with `until: 'search'`, else once the derived work (the graph) is done too.
   */
  async sync(force: boolean, until: 'search' | 'all' = 'all'): Promise<SyncReport> {
    if (this.options.readOnly) throw new ReverieError('internal', 'This engine reads the index only; it cannot sync it.');
    const report = await this.queueSync(force, 'everything');
    if (until === 'search') return report;
    await this.whenDerivedDone();
    // Its graph met damaged pages: the index was rebuilt, and that sync's report is the one to read.
    return this.rebuiltReports.get(report) ?? report;
  }

  private queueSync(force: boolean, scope: SyncScope): Promise<SyncReport> {
    // A burst of requests (watcher events, 1,000 agent notes) shares the one sync still waiting to start, its scope widened.
    if (this.queuedSync && (!force || this.queuedSync.force)) {
      this.queuedSync.scope = widenScope(this.queuedSync.scope, scope);
      return this.queuedSync.run;
    }
    const queued: { force: boolean; scope: SyncScope; run: Promise<SyncReport> } = { force, scope, run: Promise.resolve(null as unknown as SyncReport) };
    queued.run = this.syncChain.then(async () => {
      await this.derivedRun; // it sees this sync queued and stops at its next slice
      if (this.queuedSync === queued) this.queuedSync = null;
      return this.runSync(force, false, queued.scope);
    });
    this.queuedSync = queued;
    // The caller has the error through `queued.run`; the chain only has to move on.
    this.syncChain = queued.run.catch((error: unknown) => this.logger.debug('The next sync starts after a failed one', { error }));
    return queued.run;
  }

  /**
   * Runs a read of the index (a search, status). An index moved aside at open is rebuilt
   * first; a read that meets damaged pages has the index rebuilt and runs once more.
   */
  async readRecovering<T>(read: () => T | Promise<T>): Promise<T> {
    if (this.options.readOnly) {
      try {
        return await read();
      } catch (error) {
        // Nothing here may rebuild it: the caller opens it the usual way, which does.
        throw isCorruptionError(error) ? new IndexUnreadableError(`the index is damaged (${(error as Error).message})`) : error;
      }
    }
    if (this.rebuildPending && !this.syncing && !this.queuedSync) await this.rebuildMovedAsideIndex();
    const db = this.db;
    try {
      return await read();
    } catch (error) {
      if (!(await this.recoverFromCorruption(error, db))) throw error;
      return read();
    }
  }

  /** The index moved aside at open, filled before a read that nothing else is filling it for (a running sync is not waited for: a host's window reads status while it indexes). */
  private async rebuildMovedAsideIndex(): Promise<void> {
    try {
      this.options.notices.push(...(await this.sync(false, 'search')).notices); // nobody else reads this report
    } catch (error) {
      // The read still answers (from an emptier index); the sync recorded its error for status.
      this.logger.warn('Rebuilding the index before a read failed', { error });
    }
  }

  /**
   * A read met a corruption error: when the index itself is damaged (the error may come from
   * another store), it is moved aside and rebuilt from the Markdown, once however many readers
   * saw the damage. Resolves true when the caller may retry; false when the index is sound
   * (the caller rethrows).
   */
  recoverFromCorruption(error: unknown, damaged: Database.Database = this.db, replacing?: SyncReport): Promise<boolean> {
    if (!isCorruptionError(error)) return Promise.resolve(false);
    let rebuilt = true;
    const run = this.syncChain.then(async () => {
      if (this.db !== damaged || !this.db.open) return; // rebuilt already (by a sync or another reader)
      if (!indexIsDamaged(this.db, error)) {
        rebuilt = false;
        return;
      }
      this.logger.warn('A read found the index corrupted; it is moved aside and rebuilt', { indexPath: this.options.indexPath, error });
      this.db.close();
      this.openIndex({ forceMoveAside: true });
      const report = await this.runSync(true, true);
      if (replacing) this.rebuiltReports.set(replacing, report); // its caller reads this one instead
      else this.options.notices.push(...report.notices); // nobody reads this report: status keeps telling them
    });
    this.syncChain = run.catch((failure: unknown) => this.logger.error('Rebuilding a corrupted index failed', { error: failure }));
    return run.then(() => rebuilt);
  }

  /**
   * Makes the active embedding model (or the hash provider when none is installed) the one
   * used for new vectors and for queries; vectors of the new generation are built in the
   * background while search keeps using keywords (and whatever vectors exist) meanwhile.
   */
  async switchEmbeddingProvider(): Promise<void> {
    this.embeddings.chooseAgain();
    await this.embeddings.ensureProvider();
    await this.sync(false, 'search');
  }

  private async runSync(force: boolean, retried = false, scope: SyncScope = 'everything'): Promise<SyncReport> {
    this.syncsRunning++;
    this.rebuildPending = false; // an empty index is filled by any sync
    try {
      if (!retried) this.logger.info('Indexing started', { workspace: this.options.workspaceRoot, force, ...(scope === 'everything' ? {} : { changedPaths: scope.size }) });
      const report = await this.syncOnce(force, retried, scope);
      if (!retried) this.logger.info('Indexing finished', syncSummary(report));
      return report;
    } finally {
      this.syncsRunning--;
    }
  }

  private async syncOnce(force: boolean, retried: boolean, scope: SyncScope): Promise<SyncReport> {
    this.state = 'indexing';
    await this.embeddings.ensureProvider();
    const settings = this.options.settings.read();
    // Changed paths alone, once a whole sync (the first of this process) saw the same roots and limits.
    const indexedBy = settingsDecidingFiles(settings);
    const changedPaths = scope !== 'everything' && scope.size <= MAX_CHANGED_PATHS && this.fullSyncSettings === indexedBy ? [...scope] : undefined;
    try {
      const report = await syncIndex(
        this.store,
        { workspaceRoot: this.options.workspaceRoot, extraPaths: settings.extraPaths },
        {
          force,
          maxFileBytes: settings.maxFileSizeMB * 1024 * 1024,
          readBytes: this.options.readBytes,
          onProgress: (p) => this.options.emit({ type: 'index-progress', ...p }),
          shouldStop: () => this.closing, // quitting: committed files stay, the rest waits for the next start
          changedPaths,
          chunkVectors: this.embeddings.hashVectorSink() ?? undefined,
        },
      );
      if (!changedPaths && !this.closing) this.fullSyncSettings = indexedBy;
      report.notices.unshift(...this.options.notices.take());
      this.changeEmitter.fire();
      // Transcripts changed (or may have): the sessions step compares them; an edit of a note leaves them be.
      const sessions = !changedPaths || changedPaths.some((p) => isTranscriptPath(settings, p)) ? await this.options.steps.ingestSessions(settings) : null;
      if (sessions) {
        report.sessions = sessions;
        // Counting a million chunks takes ~200 ms: only when the transcripts step wrote rows.
        if (sessions.added + sessions.appended + sessions.removed + sessions.skipped + sessions.failed > 0) {
          ({ files: report.files, chunks: report.chunks } = this.store.counts());
          this.changeEmitter.fire();
        }
      }
      report.embedding = await this.embeddings.embedPending();
      if (report.embedding.error) report.notices.push(`Embedding failed: ${report.embedding.error}. Keyword search keeps working.`);
      this.state = 'ready';
      this.lastError = null;
      this.reachedReady = true;
      // Search is ready now; the graph (derived, slower) follows in the background, yielding to searches and syncs.
      this.options.emit({ type: 'index-ready', report });
      this.requestDerived(report, force);
      return report;
    } catch (error) {
      if (isCorruptionError(error) && !retried) {
        // The index is derived: rebuild it rather than fail.
        this.logger.warn('The index is corrupted; it is moved aside and rebuilt', { indexPath: this.options.indexPath, error });
        this.db.close();
        this.openIndex({ forceMoveAside: true });
        return this.runSync(true, true);
      }
      this.state = 'error';
      this.lastError = (error as Error).message;
      this.logger.error('Indexing failed', { workspace: this.options.workspaceRoot, error });
      this.options.emit({ type: 'index-error', message: this.lastError });
      throw error;
    }
  }

  /** Derived work (the graph) for this sync: started now, or after the pass that runs (or the sync that waits). */
  private requestDerived(report: SyncReport, force: boolean): void {
    // A forced pass stopped part-way stays forced: the files it had not reached still need it.
    this.derivedWanted = { report, force: force || (this.derivedWanted?.force ?? false) };
    if (this.derivedRun || this.queuedSync || this.closing) return;
    this.derivedRun = this.runDerived().finally(() => {
      this.derivedRun = null;
      // Asked for again while the last pass was ending: nobody else would start it.
      if (this.derivedWanted && !this.queuedSync && !this.closing) this.requestDerived(this.derivedWanted.report, this.derivedWanted.force);
    });
  }

  private async runDerived(): Promise<void> {
    const shouldStop = (): boolean => this.closing || this.queuedSync !== null;
    const progress = setInterval(() => this.emitDerivedProgress(), DERIVED_PROGRESS_MS);
    try {
      while (this.derivedWanted && !shouldStop()) {
        const { report, force } = this.derivedWanted;
        this.derivedWanted = null;
        const db = this.db;
        try {
          // The entries' kinds first: cheaper than the graph, and what dreaming and search results read.
          const kinds = await deriveEntryKinds(this.store, shouldStop, { readBytes: this.options.readBytes });
          if (kinds.derived + kinds.deferred > 0) {
            this.logger.debug('Entry kinds derived', { ...kinds, durationMs: Math.round(kinds.durationMs) });
            this.emitDerivedProgress(); // the kinds' part is over (or stopped): said now, not at the next tick
          }
          if (!shouldStop()) await this.options.steps.afterReady(report, { force, shouldStop, syncWaiting: () => this.queuedSync !== null });
        } catch (error) {
          // Damaged pages met by the kinds or the graph are damage to the index: rebuilt like a read's (not awaited: the rebuild's sync waits for this pass).
          void this.recoverFromCorruption(error, db, report).then((rebuilt) => rebuilt || this.logger.error('The derived pass after a sync failed', { error }));
          return;
        }
        // Stopped for a sync (or the engine closing): what is left follows that sync, or the next start.
        if (shouldStop()) this.derivedWanted ??= { report, force };
      }
      if (!shouldStop() && !this.derivedWanted) await this.compactAfterUpgrade();
    } finally {
      clearInterval(progress);
      this.emitDerivedProgress();
    }
  }

  /**
   * Once after an upgrade, when the derived work has settled: the freed pages go back to the
   * disk in a worker thread (compactAfterUpgrade.ts). Part of the derived pass, so a sync
   * queued meanwhile waits for it, and searches go on reading.
   */
  private async compactAfterUpgrade(): Promise<void> {
    if (this.compactionTried || !isCompactionPending(this.db) || !this.options.steps.derivedSettled()) return;
    this.compactionTried = true;
    this.compaction = { doneBytes: 0, totalBytes: 0 };
    this.compactionRun = this.compactOnce().finally(() => (this.compactionRun = null));
    this.emitDerivedProgress(); // listeners told of it may write: they find it running and wait
    await this.compactionRun;
  }

  private async compactOnce(): Promise<void> {
    const { indexPath } = this.options;
    try {
      const outcome = await compactInBackground(this.db, indexPath, {
        disableVectorExtension: process.env.REVERIE_DISABLE_SQLITE_VEC === '1',
        onProgress: (progress) => {
          this.compaction = progress;
          this.emitDerivedProgress();
        },
      });
      const said = describeReclaim(outcome, indexPath);
      if (said) {
        this.options.notices.push(said);
        this.logger.info(said);
      }
    } catch (error) {
      this.logger.warn('The index could not be compacted after the upgrade; the next start tries again', { indexPath, error });
    } finally {
      this.compaction = null;
    }
  }

  /**
   * Resolves when a write outside a sync (`forget`, an agent's lines) can take the index's write
   * lock: at once, or when the compaction after an upgrade, which holds it, ends. SQLite's own
   * wait (the busy timeout, 10 s) is shorter than a large index's compaction and blocks the
   * engine's thread; this one does not. Past `limitMs` the write is refused, saying why.
   */
  async whenWritable(limitMs = COMPACTION_WAIT_MS): Promise<void> {
    const running = this.compactionRun;
    if (!running) return;
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(true), limitMs)));
    const waitedTooLong = await Promise.race([running.then(() => false, () => false), timedOut]);
    clearTimeout(timer);
    if (waitedTooLong) {
      const done = this.compaction && this.compaction.totalBytes > 0 ? ` (${Math.round((100 * this.compaction.doneBytes) / this.compaction.totalBytes)}% done)` : '';
      throw new ReverieError(
        'locked',
        `The index ${this.options.indexPath} is being compacted after an upgrade${done} and was still busy after ${Math.round(limitMs / 1000)} s; nothing was changed. Try again when the status no longer shows the compaction.`,
      );
    }
  }

  private emitDerivedProgress(): void {
    try {
      this.options.emit({ type: 'derived-progress', progress: this.derivedProgress() });
    } catch (error) {
      this.logger.debug('The derived progress could not be read', { error }); // the index is closing or being rebuilt
    }
  }

  /** The derived work's state and how far it has caught up (the graph's files; the entry kinds' while they are behind). */
  derivedProgress(): DerivedProgress {
    const { done, total } = this.options.steps.derivedBacklog();
    const kinds = this.store.kindsBacklog();
    const waiting = this.queuedSync !== null || this.syncsRunning > 0;
    const behind = done < total || kinds.done < kinds.total;
    // Behind without a pass running (stopped by a restart, or by a sync): the next sync's pass catches up.
    const state = this.derivedRun ? (waiting && !this.compaction ? 'waiting' : 'running') : this.derivedWanted || behind ? 'waiting' : 'done';
    return { state, done, total, ...(kinds.done < kinds.total ? { kinds } : {}), ...(this.compaction ? { compaction: this.compaction } : {}) };
  }

  /** Resolves when the syncs queued so far and the derived work they asked for are done (or the engine closes). */
  private async whenDerivedDone(): Promise<void> {
    for (;;) {
      await this.syncChain;
      if (this.derivedRun) await this.derivedRun;
      else if (this.closing || (!this.queuedSync && this.syncsRunning === 0)) return;
    }
  }

  /** The `index`, `embedding` and `files` parts of `status`. */
  describe(): Pick<StatusOutput, 'index' | 'embedding' | 'files'> {
    const counts = this.store.counts();
    const lastSyncAt = this.store.getMeta('last_sync_at');
    return {
      index: {
        state: this.state === 'idle' && counts.files > 0 ? 'ready' : this.state,
        files: counts.files,
        chunks: counts.chunks,
        indexed: counts.indexed,
        skipped: counts.skipped,
        failed: counts.failed,
        lastSyncAt,
        lastError: this.lastError,
        paused: this.indexingPaused,
        // A sync finished on this file before (in this process or an earlier one): later syncs only update what search sees.
        searchReady: !this.rebuildPending && (this.reachedReady || lastSyncAt !== null),
        derived: this.derivedProgress(),
      },
      embedding: this.embeddings.describe(counts.chunks),
      files: this.store.coverage(),
    };
  }

  /** Closing begins: the running sync stops at its next file, embedding between batches; the watcher stops. */
  async stop(): Promise<void> {
    this.closing = true;
    await this.watcher?.close();
  }

  /** Resolves when the syncs queued so far have finished (their transactions committed). */
  async whenSyncsDone(): Promise<void> {
    await this.syncChain;
    await this.derivedRun;
  }

  /** After `stop` and `whenSyncsDone`: the embedding model and the index connection close. */
  async close(): Promise<void> {
    await this.embeddings.close();
    this.db.close();
    this.changeEmitter.dispose();
    this.reopenEmitter.dispose();
  }

  private openIndex(options: { forceMoveAside?: boolean } = {}): void {
    const { indexPath, notices } = this.options;
    if (this.options.readOnly) {
      const opened = openIndexForReading(indexPath, { disableVectorExtension: process.env.REVERIE_DISABLE_SQLITE_VEC === '1' });
      if ('unreadable' in opened) throw new IndexUnreadableError(opened.unreadable);
      try {
        this.current = new IndexStore(opened.db);
        const stale = whyIndexIsStale(this.current, { workspaceRoot: this.options.workspaceRoot, extraPaths: this.options.settings.read().extraPaths });
        if (stale !== null) throw new IndexUnreadableError(`${stale}: it is caught up first`);
        this.embeddings.attach(this.current, opened.vectorBackend, opened.vectorProblem);
      } catch (error) {
        opened.db.close();
        throw isCorruptionError(error) ? new IndexUnreadableError(`the index is damaged (${(error as Error).message})`) : error;
      }
      return;
    }
    if (options.forceMoveAside) {
      const movedTo = moveDatabaseAside(indexPath);
      notices.push(`The index ${indexPath} was corrupted; it was moved to ${movedTo} and rebuilt from your Markdown files. Nothing you wrote was lost.`);
    }
    const opened = openIndexDatabase(indexPath, {
      disableVectorExtension: process.env.REVERIE_DISABLE_SQLITE_VEC === '1',
      // Nothing answers on this thread meanwhile (searches wait for it): the window and the CLI show how far it has got.
      onMigrationProgress: (done, total) => this.options.emit({ type: 'index-progress', phase: 'migrate', done, total, path: null }),
    });
    if (options.forceMoveAside || opened.movedAside) this.rebuildPending = true;
    this.reachedReady = false;
    if (opened.notice) {
      notices.push(opened.notice);
      this.logger.warn(opened.notice);
    }
    try {
      this.current = new IndexStore(opened.db);
      this.embeddings.attach(this.current, opened.vectorBackend, opened.vectorProblem);
    } catch (error) {
      // Damage the open-time checks missed (pages of a table read only now): rebuild, once.
      if (!isCorruptionError(error) || options.forceMoveAside) throw error;
      this.logger.warn('The index is corrupted; it is moved aside and rebuilt', { indexPath, error });
      opened.db.close();
      this.openIndex({ forceMoveAside: true });
      return;
    }
    if (options.forceMoveAside) this.reopenEmitter.fire(); // searches and their workers still read the file that was moved aside
  }
}

/** Which files a sync asks for: every file, or the paths that changed (absolute, files or folders). */
export type SyncScope = ReadonlySet<string> | 'everything';

/** Two requests for one sync: the paths of both, or every file when either asks for it. */
function widenScope(a: SyncScope | null, b: SyncScope): SyncScope {
  if (a === null) return b;
  if (a === 'everything' || b === 'everything') return 'everything';
  return new Set([...a, ...b]);
}

/** The settings that decide which files are indexed and how (a change asks for a whole sync). */
function settingsDecidingFiles(settings: Settings): string {
  return JSON.stringify([settings.extraPaths, settings.maxFileSizeMB, settings.sessions, settings.maxTranscriptSizeMB]);
}

/** A changed path in (or holding) an agent tool's folder of transcripts. */
function isTranscriptPath(settings: Settings, absPath: string): boolean {
  return Object.values(settings.sessions).some((home) => home !== null && (isWithinFolder(home, absPath) || isWithinFolder(absPath, home)));
}

/** Past this many changed paths in one sync (a branch checkout), one walk of everything is cheaper than a lookup of each. */
const MAX_CHANGED_PATHS = 5_000;

/** A compaction of a large index takes minutes on a loaded laptop: writes wait that long, then are refused. */
const COMPACTION_WAIT_MS = 10 * 60 * 1000;

/** How often a running derived pass reports how far it is. */
const DERIVED_PROGRESS_MS = 1_000;

/** What the log keeps of a sync: counts and times, no file contents. */
function syncSummary(report: SyncReport): Record<string, unknown> {
  const { files, chunks, added, updated, removed, unchanged, skipped, failed, durationMs } = report;
  return { files, chunks, added, updated, removed, unchanged, skipped, failed, durationMs: Math.round(durationMs), embedded: report.embedding?.embedded ?? 0, graphMs: report.graph ? Math.round(report.graph.durationMs) : null };
}
