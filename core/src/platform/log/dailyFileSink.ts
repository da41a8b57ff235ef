/**
 * The log's file sink: one file per local day under the log folder, appended in batches off
 * the caller's path, capped in size per file (then rotated to `.1`, `.2`…), kept for a number
 * of days. Everything is bounded: the memory buffer, each file, the parts per day, the days.
 * It never throws: a folder that cannot be written is reported (`problem`, `onProblem`) and
 * the records of that batch are counted as dropped.
 */
import fs from 'node:fs';
import { errnoCode } from '../errors.js';
import { localDay } from '../localDay.js';
import { listLogFiles, logFileFor } from './logFiles.js';
import { processLogger } from './processLog.js';

export interface DailyFileSinkOptions {
  dir: string;
  /** A day's file is rotated before it would pass this size. Default 10 MB. */
  maxFileBytes?: number;
  /** Rotated parts kept per day (`.1` … `.N`); the oldest goes. Default 2. */
  rotatedParts?: number;
  /** Days of logs kept, today included; older files are deleted. Default 7. */
  keepDays?: number;
  /** Records waiting for the disk beyond this are dropped (and counted). Default 1 MB. */
  maxBufferedBytes?: number;
  /** How long records gather before one append. Default 250 ms. */
  flushDelayMs?: number;
  now?: () => Date;
  /** Test seam for the append itself (e.g. a full disk). */
  appendFile?: (file: string, text: string) => Promise<void>;
  /** Called when writing starts failing (not again until it has worked once more). */
  onProblem?: (problem: string) => void;
}

interface PendingLine {
  file: string;
  text: string;
}

const DAY_MS = 86_400_000;
const openSinks = new Set<DailyFileSink>();
let exitHookInstalled = false;

export class DailyFileSink {
  private pending: PendingLine[] = [];
  private pendingBytes = 0;
  private dropped = 0;
  private timer: NodeJS.Timeout | null = null;
  private chain: Promise<void> = Promise.resolve();
  private prunedFor: string | null = null;
  private closed = false;
  private currentProblem: string | null = null;
  private readonly maxFileBytes: number;
  private readonly rotatedParts: number;
  private readonly keepDays: number;
  private readonly maxBufferedBytes: number;
  private readonly now: () => Date;
  private readonly append: (file: string, text: string) => Promise<void>;

  constructor(private readonly options: DailyFileSinkOptions) {
    this.maxFileBytes = options.maxFileBytes ?? 10 * 1024 * 1024;
    this.rotatedParts = options.rotatedParts ?? 2;
    this.keepDays = Math.max(1, options.keepDays ?? 7);
    this.maxBufferedBytes = options.maxBufferedBytes ?? 1024 * 1024;
    this.now = options.now ?? (() => new Date());
    this.append = options.appendFile ?? ((file, text) => fs.promises.appendFile(file, text, { encoding: 'utf8', mode: 0o600 }));
    this.probeFolder();
    openSinks.add(this);
    installExitHook();
  }

  get dir(): string {
    return this.options.dir;
  }

  /** Why the log cannot be written right now, or null. */
  get problem(): string | null {
    return this.currentProblem;
  }

  /** Queues one line (without its newline) for the file of the day `at` falls on. */
  write(line: string, at: Date): void {
    if (this.closed) return;
    const text = line + '\n';
    if (this.pendingBytes + text.length > this.maxBufferedBytes) {
      this.dropped++;
      return;
    }
    this.pending.push({ file: logFileFor(this.options.dir, at), text });
    this.pendingBytes += text.length;
    if (this.timer === null) {
      this.timer = setTimeout(() => {
        this.timer = null;
        void this.flush();
      }, this.options.flushDelayMs ?? 250);
      this.timer.unref();
    }
  }

  /** Resolves when everything written so far has been appended (or counted as dropped). */
  flush(): Promise<void> {
    this.chain = this.chain.then(() => this.writePending());
    return this.chain;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.flush();
    this.closed = true;
    openSinks.delete(this);
  }

  /** At process exit: what is still buffered, written synchronously (no rotation, no pruning). */
  flushAtExit(): void {
    const batch = this.take();
    try {
      for (const [file, text] of groupByFile(batch)) fs.appendFileSync(file, text, { encoding: 'utf8', mode: 0o600 });
    } catch (error) {
      this.report(error);
    }
  }

  /** Creates the folder at once, so a folder that cannot be made is known before the first batch. */
  private probeFolder(): void {
    try {
      fs.mkdirSync(this.options.dir, { recursive: true, mode: 0o700 });
      if (!fs.statSync(this.options.dir).isDirectory()) throw Object.assign(new Error(`${this.options.dir} is not a folder`), { code: 'ENOTDIR' });
    } catch (error) {
      this.report(error);
    }
  }

  private take(): PendingLine[] {
    const batch = this.pending;
    this.pending = [];
    this.pendingBytes = 0;
    if (this.dropped > 0 && batch.length > 0) {
      const at = this.now();
      const note = { time: at.toISOString(), level: 'warn', area: 'log', message: `${this.dropped} log records were dropped (the log could not keep up, or could not be written).`, pid: process.pid };
      batch.unshift({ file: logFileFor(this.options.dir, at), text: JSON.stringify(note) + '\n' });
      this.dropped = 0;
    }
    return batch;
  }

  private async writePending(): Promise<void> {
    if (this.pending.length === 0) return;
    const batch = this.take();
    let unwritten = batch.length;
    try {
      await fs.promises.mkdir(this.options.dir, { recursive: true, mode: 0o700 });
      for (const [file, text] of groupByFile(batch)) {
        await this.rotateIfFull(file, Buffer.byteLength(text));
        await this.append(file, text);
        unwritten -= countLines(text);
      }
      this.currentProblem = null;
    } catch (error) {
      this.dropped += unwritten;
      this.report(error);
      return;
    }
    await this.pruneOldDays();
  }

  /** The day's file would pass its cap: the oldest part goes, the others move up one, the file becomes `.1`. */
  private async rotateIfFull(file: string, incoming: number): Promise<void> {
    const size = await sizeOf(file);
    if (size === 0 || size + incoming <= this.maxFileBytes) return;
    if (this.rotatedParts === 0) {
      await fs.promises.rm(file, { force: true });
      return;
    }
    await fs.promises.rm(`${file}.${this.rotatedParts}`, { force: true });
    for (let part = this.rotatedParts - 1; part >= 1; part--) await renameIfPresent(`${file}.${part}`, `${file}.${part + 1}`);
    await renameIfPresent(file, `${file}.1`);
  }

  /** Once per day: files of days older than `keepDays` are deleted. */
  private async pruneOldDays(): Promise<void> {
    const now = this.now();
    const today = localDay(now);
    if (this.prunedFor === today) return;
    this.prunedFor = today;
    const oldestKept = localDay(new Date(now.getTime() - (this.keepDays - 1) * DAY_MS));
    for (const file of await listLogFiles(this.options.dir)) {
      if (file.day >= oldestKept) continue;
      try {
        await fs.promises.rm(file.path, { force: true });
      } catch (error) {
        processLogger('log').warn('An old log file could not be deleted', { file: file.path, error });
      }
    }
  }

  private report(error: unknown): void {
    const wasWorking = this.currentProblem === null;
    this.currentProblem = describeLogProblem(this.options.dir, error);
    if (wasWorking) this.options.onProblem?.(this.currentProblem);
  }
}

/** What the person reads in Status when the log cannot be written, and what to do about it. */
export function describeLogProblem(dir: string, error: unknown): string {
  const code = errnoCode(error);
  const reason =
    code === 'ENOSPC' || code === 'EDQUOT'
      ? 'the disk is full'
      : code === 'EROFS'
        ? 'the disk is read-only'
        : code === 'EACCES' || code === 'EPERM'
          ? 'Reverie may not write there'
          : code === 'EEXIST' || code === 'ENOTDIR'
            ? 'a file is in the way of the folder'
            : (error as Error)?.message ?? String(error);
  return `Reverie cannot write its log to ${dir}: ${reason}${code ? ` (${code})` : ''}. Everything else keeps working; free some space or fix the folder (remove a file of that name) and the log resumes.`;
}

function groupByFile(lines: PendingLine[]): Map<string, string> {
  const byFile = new Map<string, string>();
  for (const { file, text } of lines) byFile.set(file, (byFile.get(file) ?? '') + text);
  return byFile;
}

function countLines(text: string): number {
  let count = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) count++;
  return count;
}

async function sizeOf(file: string): Promise<number> {
  try {
    return (await fs.promises.stat(file)).size;
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return 0; // the day's first record
    throw error;
  }
}

async function renameIfPresent(from: string, to: string): Promise<void> {
  try {
    await fs.promises.rename(from, to);
  } catch (error) {
    if (errnoCode(error) !== 'ENOENT') throw error; // fewer parts than the most kept, or another process rotated first
  }
}

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const sink of openSinks) sink.flushAtExit();
  });
}
