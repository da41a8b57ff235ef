/**
 * The engine's log: records at or above the level (info unless REVERIE_LOG_LEVEL says
 * otherwise), redacted, appended to the day's file under `<data>/logs/`, and the recent
 * warnings and errors kept in memory for when the folder cannot be written.
 */
import path from 'node:path';
import type { LogLevel, LogRecord } from '../../contract/index.js';
import { DailyFileSink, type DailyFileSinkOptions } from './dailyFileSink.js';
import { buildLogRecord, type LogFields } from './logRecord.js';
import { isLogLevel, LEVEL_RANK, loggerFor, type LogDestination, type Logger } from './logger.js';
import { Redactor } from './redaction.js';

export const DEFAULT_LOG_LEVEL: LogLevel = 'info';
/** Warnings and errors kept in memory (newest last). */
const RECENT_TROUBLE = 200;
const RECENT_READ_BYTES = 4 * 1024 * 1024;

export interface EngineLogOptions {
  dir: string;
  level?: LogLevel;
  now?: () => Date;
  /** More redaction (the engine passes the transcript redactor's provider-key patterns). */
  redact?: (text: string) => string;
  /** Told once, the first time the log cannot be written. */
  onProblem?: (problem: string) => void;
  /** File limits and test seams of the sink. */
  sink?: Omit<DailyFileSinkOptions, 'dir' | 'now' | 'onProblem'>;
}

export class EngineLog implements LogDestination {
  readonly dir: string;
  readonly level: LogLevel;
  private readonly sink: DailyFileSink;
  private readonly redactor: Redactor;
  private readonly now: () => Date;
  private readonly trouble: LogRecord[] = [];
  private toldProblem = false;
  private closed = false;

  constructor(private readonly options: EngineLogOptions) {
    this.dir = options.dir;
    this.level = options.level ?? DEFAULT_LOG_LEVEL;
    this.now = options.now ?? (() => new Date());
    this.redactor = new Redactor(options.redact ?? null);
    this.sink = new DailyFileSink({ ...options.sink, dir: options.dir, now: this.now, onProblem: (problem) => this.onSinkProblem(problem) });
  }

  /** A logger for one part of the engine (`index`, `dreaming`, …). */
  logger(area: string): Logger {
    return loggerFor(() => this, area);
  }

  /** Why the log cannot be written right now, or null. */
  get problem(): string | null {
    return this.sink.problem;
  }

  /** A string never to be written (a token the engine handed out): replaced wherever it appears. */
  addSecret(value: string): void {
    this.redactor.addSecret(value);
  }

  isEnabled(level: LogLevel): boolean {
    return !this.closed && LEVEL_RANK[level] >= LEVEL_RANK[this.level];
  }

  write(level: LogLevel, area: string, message: string, fields?: LogFields): void {
    const at = this.now();
    let record: LogRecord;
    try {
      record = buildLogRecord(level, area, message, fields, at, this.redactor);
    } catch (error) {
      // A field that cannot be read (a throwing getter): the message is still worth having.
      record = buildLogRecord(level, area, message, { unloggableFields: String(error) }, at, this.redactor);
    }
    if (LEVEL_RANK[level] >= LEVEL_RANK.warn) this.remember(record);
    this.sink.write(JSON.stringify(record), at);
  }

  /**
   * The newest records at or above `minLevel`, newest first: from the files (every process of
   * this data folder writes there), or from memory while the folder cannot be written.
   */
  async recent(limit: number, minLevel: LogLevel = 'warn'): Promise<LogRecord[]> {
    await this.sink.flush();
    const fromMemory = () => this.trouble.filter((r) => LEVEL_RANK[r.level] >= LEVEL_RANK[minLevel]).reverse().slice(0, limit);
    if (this.sink.problem) return fromMemory();
    // Asked at every Status refresh: a few MB from the end of the newest files is plenty. Loaded
    // here, not at the top: reading validates records with the contract (zod), which a hook that
    // only writes its reason to the log should not load (~180 ms of CPU per failing hook).
    const { readRecentLogRecords } = await import('./readLog.js');
    return readRecentLogRecords(this.dir, { limit, minLevel, maxBytes: RECENT_READ_BYTES });
  }

  flush(): Promise<void> {
    return this.sink.flush();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    await this.sink.close();
    this.closed = true;
  }

  private remember(record: LogRecord): void {
    this.trouble.push(record);
    if (this.trouble.length > RECENT_TROUBLE) this.trouble.shift();
  }

  private onSinkProblem(problem: string): void {
    this.remember(buildLogRecord('error', 'log', 'The log cannot be written', { problem }, this.now(), this.redactor));
    if (this.toldProblem) return;
    this.toldProblem = true;
    this.options.onProblem?.(problem);
  }
}

/** The level REVERIE_LOG_LEVEL asks for, with a note when it names no level. */
export function logLevelFromEnvironment(env: NodeJS.ProcessEnv = process.env): { level: LogLevel; note: string | null } {
  const raw = env.REVERIE_LOG_LEVEL?.trim().toLowerCase();
  if (!raw) return { level: DEFAULT_LOG_LEVEL, note: null };
  if (isLogLevel(raw)) return { level: raw, note: null };
  return { level: DEFAULT_LOG_LEVEL, note: `REVERIE_LOG_LEVEL=${env.REVERIE_LOG_LEVEL} is not a level (debug, info, warn or error); logging at ${DEFAULT_LOG_LEVEL}.` };
}

/** The engine's log for a data folder: `<data>/logs/`, at the level the environment asks for. */
export function openEngineLog(dataDir: string, options: Omit<EngineLogOptions, 'dir' | 'level'> = {}): EngineLog {
  const { level, note } = logLevelFromEnvironment();
  const log = new EngineLog({ ...options, dir: logDirOf(dataDir), level });
  if (note) log.logger('log').warn(note);
  return log;
}

export function logDirOf(dataDir: string): string {
  return path.join(dataDir, 'logs');
}
