/** Reading the log back: the newest records across days, read from the end of each file, bounded. */
import fs from 'node:fs';
import { LOG_LEVELS, LogRecord, type LogLevel } from '../../contract/index.js';
import { LEVEL_RANK } from './logger.js';
import { listLogFiles } from './logFiles.js';
import { processLogger } from './processLog.js';

const log = processLogger('log');

export interface ReadLogOptions {
  limit: number;
  /** Records below this level are left out. */
  minLevel?: LogLevel;
  /** At most this many bytes are read over all files (the newest first). Default 16 MB. */
  maxBytes?: number;
}

const CHUNK_BYTES = 64 * 1024;

/** The newest `limit` records at or above `minLevel`, newest first; lines that are not records are skipped. */
export async function readRecentLogRecords(dir: string, options: ReadLogOptions): Promise<LogRecord[]> {
  const found: LogRecord[] = [];
  const budget = { bytes: options.maxBytes ?? 16 * 1024 * 1024 };
  const minRank = LEVEL_RANK[options.minLevel ?? 'debug'];
  // Records are written by JSON.stringify with `level` first after `time`: lines of other levels are skipped unparsed.
  const wanted = LOG_LEVELS.filter((level) => LEVEL_RANK[level] >= minRank).map((level) => `"level":"${level}"`);
  for (const file of await listLogFiles(dir)) {
    for await (const lines of linesFromEnd(file.path, budget)) {
      for (const line of lines) {
        if (!wanted.some((marker) => line.includes(marker))) continue;
        const record = parseLogLine(line);
        if (!record || LEVEL_RANK[record.level] < minRank) continue;
        found.push(record);
        if (found.length >= options.limit) return found;
      }
    }
    if (budget.bytes <= 0) break;
  }
  return found;
}

/** One line of a log file as a record, or null when it is not one (a line cut by a crash, a hand edit). */
export function parseLogLine(line: string): LogRecord | null {
  if (!line.startsWith('{')) return null;
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (error) {
    // A damaged line reads as no record: the reader shows the others.
    log.debug('A log line is not JSON', { line: line.slice(0, 200), error });
    return null;
  }
  const parsed = LogRecord.safeParse(value);
  return parsed.success ? parsed.data : null;
}

/** The lines of a file, last first, reading backwards while `budget` lasts: one batch per chunk read. */
async function* linesFromEnd(file: string, budget: { bytes: number }): AsyncGenerator<string[]> {
  let handle: fs.promises.FileHandle;
  try {
    handle = await fs.promises.open(file, 'r');
  } catch (error) {
    // Rotated or pruned since the folder was listed: it holds nothing to read now.
    log.debug('A log file could not be opened', { file, error });
    return;
  }
  try {
    let position = (await handle.stat()).size;
    let carry: Buffer = Buffer.alloc(0);
    while (position > 0 && budget.bytes > 0) {
      const length = Math.min(CHUNK_BYTES, position);
      position -= length;
      budget.bytes -= length;
      const chunk = Buffer.alloc(length);
      await handle.read(chunk, 0, length, position);
      const data = carry.length > 0 ? Buffer.concat([chunk, carry]) : chunk;
      // Everything after the chunk's first newline is whole lines; what comes before it waits for the next chunk.
      const first = position === 0 ? -1 : data.indexOf(10);
      if (first === -1 && position > 0) {
        carry = data;
        continue;
      }
      yield data
        .subarray(first + 1)
        .toString('utf8')
        .split('\n')
        .filter((line) => line !== '')
        .reverse();
      carry = first === -1 ? Buffer.alloc(0) : data.subarray(0, first);
    }
  } finally {
    await handle.close();
  }
}
