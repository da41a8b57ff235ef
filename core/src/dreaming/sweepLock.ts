import fs from 'node:fs';
import path from 'node:path';
import { errnoCode } from '../common/errors.js';
import { isProcessAlive } from '../common/processAlive.js';

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
    fs.mkdirSync(path.dirname(this.file), { recursive: true, mode: 0o700 });
    let tookOverFrom: SweepLockHolder | null = null;
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        const fd = fs.openSync(this.file, 'wx', 0o600);
        fs.writeFileSync(fd, JSON.stringify({ pid: process.pid, runId, startedAt: new Date().toISOString() } satisfies SweepLockHolder));
        fs.closeSync(fd);
        this.held = true;
        return { acquired: true, tookOverFrom };
      } catch (error) {
        if (errnoCode(error) !== 'EEXIST') throw error;
      }
      const holder = this.readHolder();
      if (holder && isProcessAlive(holder.pid)) return { acquired: false, holder };
      // An unreadable lock this young is being written by its owner right now: not stale.
      if (!holder && this.ageMs() < 10_000) return { acquired: false, holder: { pid: 0, runId: 'starting', startedAt: '' } };
      tookOverFrom = holder;
      fs.rmSync(this.file, { force: true });
    }
    const holder = this.readHolder();
    return holder ? { acquired: false, holder } : { acquired: false, holder: { pid: 0, runId: 'unknown', startedAt: '' } };
  }

  readHolder(): SweepLockHolder | null {
    try {
      return JSON.parse(fs.readFileSync(this.file, 'utf8')) as SweepLockHolder;
    } catch {
      return null;
    }
  }

  release(): void {
    if (!this.held) return;
    this.held = false;
    // Only our own lock: never remove one another process took over meanwhile.
    if (this.readHolder()?.pid === process.pid) fs.rmSync(this.file, { force: true });
  }

  private ageMs(): number {
    try {
      return Date.now() - fs.statSync(this.file).mtimeMs;
    } catch {
      return Infinity;
    }
  }
}

