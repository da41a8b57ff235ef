import fs from 'node:fs';
import path from 'node:path';
import { HostInfo } from '../api/contract.js';
import { ReverieError, errnoCode } from '../common/errors.js';
import { isProcessAlive } from '../common/processAlive.js';

/**
 * One host (desktop app, `reverie serve`, `reverie daemon`) owns a workspace at a time.
 * The lock is a file holding the owner's pid; a lock whose process is gone (kill -9,
 * crash) is stale and taken over without any manual step.
 */
export class HostLock {
  private held = false;

  constructor(readonly file: string) {}

  static forWorkspace(dataDir: string, workspaceId: string): HostLock {
    return new HostLock(path.join(dataDir, 'locks', `${workspaceId}.lock`));
  }

  /** The live host holding the lock, or null. */
  readHolder(): HostInfo | null {
    let raw: string;
    try {
      raw = fs.readFileSync(this.file, 'utf8');
    } catch {
      return null;
    }
    const parsed = HostInfo.safeParse(safeJson(raw));
    if (!parsed.success) return null;
    return isProcessAlive(parsed.data.pid) ? parsed.data : null;
  }

  acquire(info: HostInfo, workspacePath: string): void {
    fs.mkdirSync(path.dirname(this.file), { recursive: true, mode: 0o700 });
    if (this.held) return;
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        const fd = fs.openSync(this.file, 'wx', 0o600);
        fs.writeFileSync(fd, JSON.stringify(info));
        fs.closeSync(fd);
        this.held = true;
        return;
      } catch (error) {
        if (errnoCode(error) !== 'EEXIST') throw error;
      }
      const holder = this.readHolder();
      if (holder) {
        const where = holder.url ? ` at ${holder.url}` : '';
        throw new ReverieError(
          'locked',
          `Workspace ${workspacePath} is already open in ${describeHost(holder)} (pid ${holder.pid}${where}, started ${holder.startedAt}). ` +
            'Use that one, or quit it first.',
        );
      }
      // A lock with no readable owner this young is still being written by its owner (create, then
      // write): give it a moment to say who it is, then report that host like any other.
      if (this.ageMs() < 2_000 && !this.hasDeadOwner()) {
        for (let waited = 0; waited < 1_000 && !this.readHolder(); waited += 50) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 50);
        if (this.readHolder()) continue;
        throw new ReverieError('locked', `Workspace ${workspacePath} is being opened by another process right now; try again in a moment.`);
      }
      // Stale lock from a process that no longer exists: remove and retry.
      fs.rmSync(this.file, { force: true });
    }
    throw new ReverieError('locked', `Could not take the workspace lock ${this.file}; try again.`);
  }

  private ageMs(): number {
    try {
      return Date.now() - fs.statSync(this.file).mtimeMs;
    } catch {
      return Infinity;
    }
  }

  /** The lock names a process that is gone: stale whatever its age. */
  private hasDeadOwner(): boolean {
    try {
      const parsed = HostInfo.safeParse(safeJson(fs.readFileSync(this.file, 'utf8')));
      return parsed.success && !isProcessAlive(parsed.data.pid);
    } catch {
      return false;
    }
  }

  update(info: HostInfo): void {
    if (this.held) fs.writeFileSync(this.file, JSON.stringify(info), { mode: 0o600 });
  }

  release(): void {
    if (!this.held) return;
    this.held = false;
    try {
      const holder = HostInfo.safeParse(safeJson(fs.readFileSync(this.file, 'utf8')));
      if (!holder.success || holder.data.pid === process.pid) fs.rmSync(this.file, { force: true });
    } catch {
      /* already gone */
    }
  }
}

export function describeHost(host: HostInfo): string {
  return host.kind === 'desktop' ? 'the Reverie desktop app' : `\`reverie ${host.kind}\``;
}


function safeJson(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return null;
  }
}
