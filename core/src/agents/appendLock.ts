import fs from 'node:fs';
import path from 'node:path';
import { ReverieError, errnoCode } from '../common/errors.js';
import { isProcessAlive } from '../common/processAlive.js';

const WAIT_LIMIT_MS = 10_000;
/** An append holds the lock for milliseconds; one this old belongs to a process that hung or died. */
const STALE_AFTER_MS = 30_000;

/**
 * Serialises appends to daily notes across processes (a host and a stand-alone `reverie mcp`):
 * a lock file created exclusively, holding the owner's pid; a dead owner's lock is taken over.
 */
export async function withAppendLock<T>(lockFile: string, work: () => T): Promise<T> {
  fs.mkdirSync(path.dirname(lockFile), { recursive: true, mode: 0o700 });
  const started = Date.now();
  for (let attempt = 0; ; attempt++) {
    try {
      const fd = fs.openSync(lockFile, 'wx', 0o600);
      fs.writeSync(fd, String(process.pid));
      fs.closeSync(fd);
      break;
    } catch (error) {
      if (errnoCode(error) !== 'EEXIST') throw error;
    }
    if (isStale(lockFile)) {
      fs.rmSync(lockFile, { force: true });
      continue;
    }
    if (Date.now() - started > WAIT_LIMIT_MS) throw new ReverieError('locked', `Another process has been appending to today's note for over ${WAIT_LIMIT_MS / 1000} s (${lockFile}); try again.`);
    await new Promise((resolve) => setTimeout(resolve, Math.min(50, 2 + attempt)));
  }
  try {
    return work();
  } finally {
    fs.rmSync(lockFile, { force: true });
  }
}

function isStale(lockFile: string): boolean {
  try {
    const pid = Number(fs.readFileSync(lockFile, 'utf8'));
    const age = Date.now() - fs.statSync(lockFile).mtimeMs;
    if (Number.isInteger(pid) && pid > 0) return !isProcessAlive(pid) || age > STALE_AFTER_MS;
    return age > 1000; // empty: its writer died between create and write
  } catch {
    return false;
  }
}
