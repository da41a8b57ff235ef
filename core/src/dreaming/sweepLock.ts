import fs from 'node:fs';
import { createLockFile, inspectLockFile, parseJsonWithPid } from '../platform/pidLockFile.js';
import { processLogger } from '../platform/log/processLog.js';
import { legacyDataDirLockFile, workspaceLockFile } from '../workspace/workspaceLocks.js';

const log = processLogger('dreaming');

export interface SweepLockHolder {
  pid: number;
  runId: string;
  startedAt: string;
}

/**
 * One sweep at a time per workspace, across processes (app, `reverie serve`, `reverie dream`).
 * The lock file names its process; a lock left by a process that died (kill -9, crash) is
 * stale and the next sweep takes it over. It lives in the workspace (see workspaceLocks.ts), so
 * sweeps from different data folders exclude each other; the data-folder lock older versions
 * use is taken as well, so an older sweep on the same data folder and ours never overlap.
 */
export class SweepLock {
  private held: string[] = [];
  private readonly files: string[];

  constructor(readonly file: string, legacyFile?: string) {
    this.files = legacyFile ? [file, legacyFile] : [file];
  }

  static forWorkspace(workspaceRoot: string, dataDir: string, workspaceId: string): SweepLock {
    return new SweepLock(workspaceLockFile(workspaceRoot, 'dream'), legacyDataDirLockFile(dataDir, workspaceId, 'dream'));
  }

  /** Takes the lock, or returns the live holder that has it. */
  tryAcquire(runId: string): { acquired: true; tookOverFrom: SweepLockHolder | null } | { acquired: false; holder: SweepLockHolder } {
    let tookOverFrom: SweepLockHolder | null = null;
    for (const file of this.files) {
      const taken = tryAcquireFile(file, runId);
      if (!taken.acquired) {
        this.release();
        return taken;
      }
      this.held.push(file);
      tookOverFrom ??= taken.tookOverFrom;
    }
    return { acquired: true, tookOverFrom };
  }

  readHolder(): SweepLockHolder | null {
    for (const file of this.files) {
      const holder = readHolderOf(file);
      if (holder) return holder;
    }
    return null;
  }

  release(): void {
    // Only our own lock: never remove one another process took over meanwhile.
    for (const file of this.held.splice(0)) if (readHolderOf(file)?.pid === process.pid) fs.rmSync(file, { force: true });
  }
}

function tryAcquireFile(file: string, runId: string): { acquired: true; tookOverFrom: SweepLockHolder | null } | { acquired: false; holder: SweepLockHolder } {
  let tookOverFrom: SweepLockHolder | null = null;
  for (let attempt = 0; attempt < 3; attempt++) {
    const record: SweepLockHolder = { pid: process.pid, runId, startedAt: new Date().toISOString() };
    if (createLockFile(file, JSON.stringify(record))) return { acquired: true, tookOverFrom };
    const found = inspectLockFile<SweepLockHolder>(file, parseJsonWithPid, 10_000);
    if (found.state === 'live') return { acquired: false, holder: found.holder };
    if (found.state === 'starting') return { acquired: false, holder: { pid: 0, runId: 'starting', startedAt: '' } };
    tookOverFrom = found.holder;
    fs.rmSync(file, { force: true });
  }
  return { acquired: false, holder: readHolderOf(file) ?? { pid: 0, runId: 'unknown', startedAt: '' } };
}

function readHolderOf(file: string): SweepLockHolder | null {
  try {
    return parseJsonWithPid<SweepLockHolder>(fs.readFileSync(file, 'utf8'));
  } catch (error) {
    log.debug('No sweep lock holder', { file, error });
    return null;
  }
}
