import fs from 'node:fs';
import { ReverieError } from './errors.js';
import { createLockFile, inspectLockFile, lockFileAgeMs } from './pidLockFile.js';

const WAIT_LIMIT_MS = 10_000;
/** A write holds the lock for milliseconds; one this old belongs to a process that hung or died. */
const STALE_AFTER_MS = 30_000;

/**
 * Serialises every rewrite and append Reverie makes to the person's Markdown, across processes
 * and data folders: a lock file created exclusively, holding the owner's pid, beside the
 * workspace (not in a data folder, so every host and CLI sees the same one). Synchronous, because
 * the checked replace runs inside synchronous sweeps; holders keep it for milliseconds.
 */
export function withWriteLockSync<T>(lockFile: string, work: () => T): T {
  const started = Date.now();
  for (let attempt = 0; !tryTake(lockFile); attempt++) {
    if (Date.now() - started > WAIT_LIMIT_MS) {
      throw new ReverieError('locked', `Another process has been writing to the workspace's Markdown for over ${WAIT_LIMIT_MS / 1000} s (lock ${lockFile}); try again.`);
    }
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, Math.min(20, 1 + attempt));
  }
  try {
    return work();
  } finally {
    fs.rmSync(lockFile, { force: true });
  }
}

/** The asynchronous form for callers on the event loop (agent appends): waits without blocking it. */
export async function withWriteLock<T>(lockFile: string, work: () => T): Promise<T> {
  const started = Date.now();
  for (let attempt = 0; !tryTake(lockFile); attempt++) {
    if (Date.now() - started > WAIT_LIMIT_MS) {
      throw new ReverieError('locked', `Another process has been writing to the workspace's Markdown for over ${WAIT_LIMIT_MS / 1000} s (lock ${lockFile}); try again.`);
    }
    await new Promise((resolve) => setTimeout(resolve, Math.min(50, 2 + attempt)));
  }
  try {
    return work();
  } finally {
    fs.rmSync(lockFile, { force: true });
  }
}

function tryTake(lockFile: string): boolean {
  if (createLockFile(lockFile, String(process.pid))) return true;
  const found = inspectLockFile(lockFile, (raw) => (/^\d+$/.test(raw) ? { pid: Number(raw) } : null), 1_000);
  const stale = found.state === 'stale' || (found.state === 'live' && lockFileAgeMs(lockFile) > STALE_AFTER_MS);
  if (stale) fs.rmSync(lockFile, { force: true });
  return false;
}
