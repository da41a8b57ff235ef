import fs from 'node:fs';
import path from 'node:path';
import { HostInfo } from '../contract/index.js';
import { ReverieError } from '../platform/errors.js';
import { createLockFile, inspectLockFile } from '../platform/pidLockFile.js';
import { processLogger } from '../platform/log/processLog.js';

const log = processLogger('workspace/hostLock');

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
    const found = inspectLockFile(this.file, parseHostInfo, 0);
    return found.state === 'live' ? found.holder : null;
  }

  acquire(info: HostInfo, workspacePath: string): void {
    if (this.held) return;
    for (let attempt = 0; attempt < 3; attempt++) {
      if (createLockFile(this.file, JSON.stringify(info))) {
        this.held = true;
        return;
      }
      let found = inspectLockFile(this.file, parseHostInfo, 2_000);
      // A lock still being written (create, then write): give its owner a moment to say who it is.
      for (let waited = 0; found.state === 'starting' && waited < 1_000; waited += 50) {
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 50);
        found = inspectLockFile(this.file, parseHostInfo, 2_000);
      }
      if (found.state === 'live') {
        const holder = found.holder;
        const where = holder.url ? ` at ${holder.url}` : '';
        throw new ReverieError(
          'locked',
          `Workspace ${workspacePath} is already open in ${describeHost(holder)} (pid ${holder.pid}${where}, started ${holder.startedAt}). ` +
            'Use that one, or quit it first.',
        );
      }
      if (found.state === 'starting') throw new ReverieError('locked', `Workspace ${workspacePath} is being opened by another process right now; try again in a moment.`);
      // Stale lock from a process that no longer exists: remove and retry.
      fs.rmSync(this.file, { force: true });
    }
    throw new ReverieError('locked', `Could not take the workspace lock ${this.file}; try again.`);
  }

  update(info: HostInfo): void {
    if (this.held) fs.writeFileSync(this.file, JSON.stringify(info), { mode: 0o600 });
  }

  release(): void {
    if (!this.held) return;
    this.held = false;
    try {
      const holder = parseHostInfo(fs.readFileSync(this.file, 'utf8'));
      if (!holder || holder.pid === process.pid) fs.rmSync(this.file, { force: true });
    } catch (error) {
      log.debug('The host lock was gone already at release', { file: this.file, error });
    }
  }
}

export function describeHost(host: HostInfo): string {
  return host.kind === 'desktop' ? 'the Reverie desktop app' : `\`reverie ${host.kind}\``;
}

function parseHostInfo(raw: string): HostInfo | null {
  try {
    const parsed = HostInfo.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : null;
  } catch (error) {
    log.debug('The host lock is not JSON; no holder', { error });
    return null;
  }
}
