import fs from 'node:fs';
import path from 'node:path';
import { errnoCode } from './errors.js';
import { isProcessAlive } from './processAlive.js';
import { processLogger } from './log/processLog.js';

const log = processLogger('platform/locks');

/**
 * Lock files that name their owner's pid (host, dreaming sweep, daily-note appends): created
 * exclusively, and stale once the owner is gone. Between an owner's create and its write the
 * file is empty: a young unreadable lock is still being written, never stale.
 */
export function createLockFile(file: string, content: string): boolean {
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  try {
    const fd = fs.openSync(file, 'wx', 0o600);
    try {
      fs.writeFileSync(fd, content);
    } finally {
      fs.closeSync(fd);
    }
    return true;
  } catch (error) {
    if (errnoCode(error) === 'EEXIST') return false;
    throw error;
  }
}

export type LockFileState<T> = { state: 'live'; holder: T } | { state: 'starting' } | { state: 'stale'; holder: T | null };

/** What an existing lock file says; `parse` returns null for content it cannot read. */
export function inspectLockFile<T extends { pid: number }>(file: string, parse: (raw: string) => T | null, youngMs: number): LockFileState<T> {
  let raw: string;
  try {
    raw = fs.readFileSync(file, 'utf8');
  } catch (error) {
    log.debug('A lock file could not be read; treated as gone', { file, error });
    return { state: 'stale', holder: null }; // gone already: nothing to wait for
  }
  const holder = parse(raw);
  if (holder) return isProcessAlive(holder.pid) ? { state: 'live', holder } : { state: 'stale', holder };
  return lockFileAgeMs(file) < youngMs ? { state: 'starting' } : { state: 'stale', holder: null };
}

export function lockFileAgeMs(file: string): number {
  try {
    return Date.now() - fs.statSync(file).mtimeMs;
  } catch (error) {
    log.debug('A lock file could not be read; treated as old', { file, error });
    return Infinity;
  }
}

export function parseJsonWithPid<T extends { pid: number }>(raw: string): T | null {
  try {
    const value = JSON.parse(raw) as T;
    return typeof value === 'object' && value !== null && Number.isInteger(value.pid) && value.pid > 0 ? value : null;
  } catch (error) {
    // A lock file cut short (its writer died mid-write) names no holder.
    log.debug('A lock file is not JSON', { error });
    return null;
  }
}
