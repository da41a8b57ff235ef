import fs from 'node:fs';
import path from 'node:path';
import { createLockFile, inspectLockFile, parseJsonWithPid } from '../platform/pidLockFile.js';
import { processLogger } from '../platform/log/processLog.js';

const log = processLogger('dreaming');

export interface SweepLockHolder {
  pid: number;
  runId: string;
  startedAt: string;
}

/**
 * One sweep at a time per workspace, across processes (app, `reverie serve`, `reverie dream`).
 * The lock file names its process; a lock left by a process that died (kill -9, crash) is
 * stale and the next sweep takes it over.
 */
export class SweepLock {
  private held = false;

  constructor(readonly file: string) {}

  static forWorkspace(dataDir: string, workspaceId: string): SweepLock {
    return new SweepLock(path.join(dataDir, 'locks', `${workspaceId}.dream.lock`));
  }

  /** Takes the lock, or returns the live holder that has it. */
  tryAcquire(runId: string): { acquired: true; tookOverFrom: SweepLockHolder | null } | { acquired: false; holder: SweepLockHolder } {
    let tookOverFrom: SweepLockHolder | null = null;
    for (let attempt = 0; attempt < 3; attempt++) {
      const record: SweepLockHolder = { pid: process.pid, runId, startedAt: new Date().toISOString() };
      if (createLockFile(this.file, JSON.stringify(record))) {
        this.held = true;
        return { acquired: true, tookOverFrom };
      }
      const found = inspectLockFile<SweepLockHolder>(this.file, parseJsonWithPid, 10_000);
      if (found.state === 'live') return { acquired: false, holder: found.holder };
      if (found.state === 'starting') return { acquired: false, holder: { pid: 0, runId: 'starting', startedAt: '' } };
      tookOverFrom = found.holder;
      fs.rmSync(this.file, { force: true });
    }
    return { acquired: false, holder: this.readHolder() ?? { pid: 0, runId: 'unknown', startedAt: '' } };
  }

  readHolder(): SweepLockHolder | null {
    try {
      return parseJsonWithPid<SweepLockHolder>(fs.readFileSync(this.file, 'utf8'));
    } catch (error) {
      log.debug('No sweep lock holder', { file: this.file, error });
      return null;
    }
  }

  release(): void {
    if (!this.held) return;
    this.held = false;
    // Only our own lock: never remove one another process took over meanwhile.
    if (this.readHolder()?.pid === process.pid) fs.rmSync(this.file, { force: true });
  }
}
