/**
 * The log folder's layout: `reverie-YYYY-MM-DD.log` per local day, and, when a day's file
 * reaches its size cap, the older parts `reverie-YYYY-MM-DD.log.1` (newer) … `.N` (oldest).
 */
import fs from 'node:fs';
import path from 'node:path';
import { localDay } from '../localDay.js';
import { processLogger } from './processLog.js';

const LOG_FILE = /^reverie-(\d{4}-\d{2}-\d{2})\.log(?:\.(\d+))?$/;

export interface LogFile {
  path: string;
  day: string;
  /** 0 for the day's current file, 1… for the parts rotated out of it (higher is older). */
  part: number;
}

export function logFileFor(dir: string, at: Date): string {
  return path.join(dir, logFileName(localDay(at)));
}

export function logFileName(day: string): string {
  return `reverie-${day}.log`;
}

export function parseLogFileName(dir: string, name: string): LogFile | null {
  const match = LOG_FILE.exec(name);
  return match ? { path: path.join(dir, name), day: match[1]!, part: match[2] ? Number(match[2]) : 0 } : null;
}

/** Every log file in `dir`, newest first (by day, then current file before its rotated parts). */
export async function listLogFiles(dir: string): Promise<LogFile[]> {
  let names: string[];
  try {
    names = await fs.promises.readdir(dir);
  } catch (error) {
    // No log yet (or no folder): nothing to list, said at debug only.
    processLogger('log').debug('The log folder cannot be listed', { dir, error });
    return [];
  }
  return names
    .map((name) => parseLogFileName(dir, name))
    .filter((file): file is LogFile => file !== null)
    .sort((a, b) => (a.day !== b.day ? (a.day < b.day ? 1 : -1) : a.part - b.part));
}
