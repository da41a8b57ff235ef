import fs from 'node:fs';
import { ReverieError } from '../platform/errors.js';
import { createLockFile, inspectLockFile, lockFileAgeMs } from '../platform/pidLockFile.js';

const WAIT_LIMIT_MS = 10_000;
/** An append holds the lock for milliseconds; one this old belongs to a process that hung or died. */
const STALE_AFTER_MS = 30_000;

/**
 * Serialises appends to daily notes across processes (a host and a stand-alone `reverie mcp`):
 * a lock file created exclusively, holding the owner's pid; a dead owner's lock is taken over.
 */
export async function withAppendLock<T>(lockFile: string, work: () => T): Promise<T> {
  const started = Date.now();
  for (let attempt = 0; ; attempt++) {
    if (createLockFile(lockFile, String(process.pid))) break;
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
  const found = inspectLockFile(lockFile, (raw) => (/^\d+$/.test(raw) ? { pid: Number(raw) } : null), 1_000);
  return found.state === 'stale' || (found.state === 'live' && lockFileAgeMs(lockFile) > STALE_AFTER_MS);
}
