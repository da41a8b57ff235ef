import type Database from 'better-sqlite3';
import type { DreamRun, EngineEvent, OperationOutput, ParsedInput, StatusOutput } from '../contract/index.js';
import { ReverieError } from '../platform/errors.js';
import type { ModelStore } from '../models/modelStore.js';
import { recordWrittenLines } from '../provenance/recordWrites.js';
import type { PreImageStore } from '../workspace/preImages.js';
import type { SettingsStore } from '../workspace/settingsStore.js';
import { writeCuratedFile, readCuratedFile } from '../workspace/curatedFiles.js';
import { readDiarySnapshot } from './diarySnapshot.js';
import { parseDreamDiary } from './diary/parseDiary.js';
import { runBackfill } from './backfill.js';
import { dreamDatabasePath, openDreamDatabase } from './dreamDatabase.js';
import { RecallRecorder } from './recall/recallRecorder.js';
import { reviewPromotion } from './runActions.js';
import { rollbackRun } from './rollback.js';
import { DreamRunStore } from './runStore.js';
import { DreamScheduler } from './schedule.js';
import { runDreamSweep } from './sweep.js';
import type { SweepEnvironment, SweepOptions } from './sweepEnvironment.js';
import { SweepLock } from './sweepLock.js';
import { listConflicts, resolveConflict } from './judgment/conflictQueue.js';
import type { Logger } from '../platform/log/logger.js';
import { processLogger } from '../platform/log/processLog.js';

export interface DreamServiceOptions {
  dataDir: string;
  workspaceId: string;
  workspaceRoot: string;
  indexDb: () => Database.Database;
  preImages: PreImageStore;
  settings: SettingsStore;
  models: ModelStore;
  emit(event: EngineEvent): void;
  /** Curated files changed on disk: the host re-indexes them. */
  onDidWriteFiles(paths: string[]): void;
  now?: () => number;
  logger?: Logger;
}

type DreamOps = 'dream.run' | 'dream.runs' | 'dream.get' | 'dream.review' | 'dream.rollback' | 'dream.preimages' | 'dream.restore' | 'dream.diary' | 'dream.conflicts' | 'dream.resolve';
export type DreamHandlers = { [N in DreamOps]: (input: ParsedInput<N>) => Promise<OperationOutput<N>> };

/**
 * Dreaming for one workspace: its store, the recall recorder every search feeds, sweeps
 * (single-flight here and across processes), review and rollback, and the daily schedule
 * when a host runs it.
 */
export class DreamService {
  readonly recorder: RecallRecorder;
  readonly notice: string | null;
  /** After a corruption error: the error naming this store when it is the damaged one, else null. */
  readonly explainDamage: (error: unknown) => ReverieError | null;
  readonly handlers: DreamHandlers;
  private readonly db: Database.Database;
  private readonly runs: DreamRunStore;
  private readonly lock: SweepLock;
  private readonly now: () => number;
  private readonly log: Logger;
  private scheduler: DreamScheduler | null = null;
  private current: Promise<DreamRun> | null = null;

  constructor(private readonly options: DreamServiceOptions) {
    const opened = openDreamDatabase(dreamDatabasePath(options.dataDir, options.workspaceId));
    this.db = opened.db;
    this.notice = opened.notice;
    this.explainDamage = opened.explainDamage;
    this.runs = new DreamRunStore(this.db);
    this.lock = SweepLock.forWorkspace(options.workspaceRoot, options.dataDir, options.workspaceId);
    this.now = options.now ?? Date.now;
    this.log = options.logger ?? processLogger('dreaming');
    this.recorder = new RecallRecorder(this.db, options.indexDb, options.workspaceRoot, this.now);
    this.handlers = {
      'dream.run': async ({ dryRun, backfill, thresholds }) =>
        backfill !== undefined ? this.backfill(backfill, dryRun) : this.run({ trigger: 'manual', dryRun, thresholds }),
      'dream.runs': async ({ limit }) => ({ runs: this.runs.list(limit), schedule: this.schedule() }),
      'dream.get': async ({ runId }) => this.runs.get(runId),
      'dream.review': async ({ runId, candidateKey, decision }) => this.afterWrite(reviewPromotion(this.environment(), runId, candidateKey, decision), false),
      'dream.rollback': async ({ runId }) => this.afterWrite(rollbackRun(this.environment(), runId), false),
      'dream.conflicts': async ({ status }) => ({ conflicts: listConflicts(this.db, status) }),
      'dream.resolve': async ({ conflictId, decision }) => resolveConflict(this.db, conflictId, decision, this.now()),
      'dream.preimages': async ({ file }) => ({ preImages: this.options.preImages.list(file) }),
      'dream.restore': async ({ preImageId }) => this.restore(preImageId),
      'dream.diary': async () => {
        const snapshot = readDiarySnapshot(this.options.workspaceRoot);
        const diary = parseDreamDiary(snapshot.text, 'DREAMS.md');
        if (snapshot.truncated) diary.problems.unshift('DREAMS.md is larger than 16 MB; only its first 16 MB are shown.');
        return { ...diary, exists: snapshot.exists };
      },
    };
  }

  /** One sweep at a time in this process; the lock file keeps other processes out. */
  run(options: SweepOptions): Promise<DreamRun> {
    const previous = this.current ?? Promise.resolve(null);
    const next = previous.catch(this.previousRunFailed).then(async () => {
      // Every search answered before the sweep counts, its recalled entries included.
      await this.recorder.whenResolved();
      this.recorder.flush();
      return this.afterWrite(await runDreamSweep(this.environment(), options));
    });
    this.current = next;
    return next;
  }

  backfill(target: string, dryRun: boolean): Promise<DreamRun> {
    const previous = this.current ?? Promise.resolve(null);
    const next = previous.catch(this.previousRunFailed).then(() => this.afterWrite(runBackfill(this.environment(), target, dryRun)));
    this.current = next;
    return next;
  }

  /** The run before this one failed: its caller has the error (and the run records it); this one starts regardless. */
  private readonly previousRunFailed = (error: unknown): null => {
    this.log.debug('The previous dream run failed; the next one starts', { error });
    return null;
  };

  /** Hosts only: the daily sweep, with catch-up for a missed one. */
  startSchedule(): void {
    this.scheduler = new DreamScheduler({
      scheduleTime: () => this.options.settings.read().dreaming.schedule,
      lastSweepAt: () => {
        const last = this.runs.lastFinished(['manual', 'schedule', 'catch-up']);
        return last ? Date.parse(last.startedAt) : null;
      },
      armedSince: () => this.scheduleArmedSince(),
      runSweep: (trigger) => this.run({ trigger, dryRun: false }),
      now: this.now,
      logger: this.log.child('schedule'),
    });
    this.scheduler.start();
  }

  /**
   * When the current schedule time was first seen by a host. A time set (or changed) just now
   * owes nothing for the past: only occurrences after this count as missed.
   */
  private scheduleArmedSince(): number {
    const time = this.options.settings.read().dreaming.schedule;
    const row = this.db.prepare("SELECT value FROM meta WHERE key = 'schedule_armed'").get() as { value: string } | undefined;
    const armed = row ? (JSON.parse(row.value) as { time: string | null; at: number }) : null;
    if (armed && armed.time === time) return armed.at;
    const at = this.now();
    this.db.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES ('schedule_armed', ?)").run(JSON.stringify({ time, at }));
    return at;
  }

  schedule(): OperationOutput<'dream.runs'>['schedule'] {
    const time = this.options.settings.read().dreaming.schedule;
    const last = this.runs.lastFinished();
    return {
      enabled: time !== null,
      time,
      nextRunAt: this.scheduler?.nextRunAt()?.toISOString() ?? null,
      lastRunAt: last?.startedAt ?? null,
      running: this.lock.readHolder() !== null && this.current !== null,
    };
  }

  /** Recall signals kept raw (older ones are folded into per-entry aggregates). */
  recallSignalCount(): number {
    return (this.db.prepare('SELECT count(*) AS n FROM recall_signals').get() as { n: number }).n;
  }

  summary(): StatusOutput['dreaming'] {
    const last = this.runs.list(1)[0] ?? null;
    const schedule = this.schedule();
    return {
      recallSignals: this.recallSignalCount(),
      stagedCandidates: (this.db.prepare("SELECT count(*) AS n FROM staged_candidates WHERE status = 'staged'").get() as { n: number }).n,
      lastRun: last ? { id: last.id, status: last.status, startedAt: last.startedAt, reason: last.reason } : null,
      schedule: schedule.time,
      nextRunAt: schedule.nextRunAt,
    };
  }

  async close(): Promise<void> {
    this.scheduler?.stop();
    await this.current?.catch((error: unknown) => this.log.debug('The dream run still going at close failed', { error }));
    this.recorder.close();
    this.db.close();
  }

  private restore(preImageId: string): OperationOutput<'dream.restore'> {
    const { record, bytes } = this.options.preImages.read(preImageId);
    const snapshot = record.file === 'DREAMS.md' ? readDiarySnapshot(this.options.workspaceRoot) : readCuratedFile(this.options.workspaceRoot, record.file);
    if (snapshot.truncated) throw new ReverieError('too-large', 'DREAMS.md is larger than 16 MB; restore it by copying the pre-image file by hand.');
    const result = writeCuratedFile(snapshot, bytes.toString('utf8'), this.options.preImages, `restore of ${preImageId}`, null);
    if (result.outcome === 'aborted') throw new ReverieError('conflict', result.reason);
    this.options.onDidWriteFiles([record.file]);
    return { file: record.file, sha256: result.afterSha256, savedAs: result.preImageId };
  }

  /** Re-index what changed; a finished sweep is announced (`dream-complete`), a review or rollback is not a sweep. */
  private afterWrite(run: DreamRun, isSweep = true): DreamRun {
    const files = [...new Set(run.writes.filter((w) => w.outcome === 'written').map((w) => w.file))];
    if (files.length > 0 || run.rolledBack) this.options.onDidWriteFiles(files.length > 0 ? files : ['MEMORY.md', 'USER.md', 'DREAMS.md']);
    if (isSweep && run.status !== 'running') this.options.emit({ type: 'dream-complete', runId: run.id, status: run.status, reason: run.reason });
    return run;
  }

  private environment(): SweepEnvironment {
    const settings = this.options.settings.read().dreaming;
    const chat = this.options.models.activeModel('chat');
    return {
      dreamDb: this.db,
      indexDb: this.options.indexDb(),
      workspaceRoot: this.options.workspaceRoot,
      preImages: this.options.preImages,
      runs: this.runs,
      lock: this.lock,
      settings,
      chatModel: chat && chat.present ? { path: chat.path, name: chat.file } : null,
      recordWrittenLines: (file, lines, origin, runId, detail) => recordWrittenLines(this.options.indexDb(), file, lines, { origin, via: 'dreaming', actor: runId, detail }),
      now: this.now,
      onProgress: (event) => this.options.emit(event),
    };
  }
}
