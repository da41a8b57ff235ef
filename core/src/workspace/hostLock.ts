import fs from 'node:fs';
import { HostInfo } from '../contract/index.js';
import { ReverieError } from '../platform/errors.js';
import { createLockFile, inspectLockFile } from '../platform/pidLockFile.js';
import { processLogger } from '../platform/log/processLog.js';
import { legacyDataDirLockFile, workspaceLockFile } from './workspaceLocks.js';
import { describeHost } from './hostDescription.js';

const log = processLogger('workspace/hostLock');

/**
 * One host (desktop app, `reverie serve`, `reverie daemon`) owns a workspace at a time.
 * The lock is a file holding the owner's pid; a lock whose process is gone (kill -9,
 * crash) is stale and taken over without any manual step. It lives in the workspace (see
 * workspaceLocks.ts) so hosts with different data folders exclude each other; the data-folder
 * lock older versions use is taken too, so an older host on the same data folder sees us and
 * we see it.
 */
export class HostLock {
  private held: string[] = [];
  private readonly files: string[];

  constructor(readonly file: string, legacyFile?: string) {
    this.files = legacyFile ? [file, legacyFile] : [file];
  }

  static forWorkspace(workspaceRoot: string, dataDir: string, workspaceId: string): HostLock {
    return new HostLock(workspaceLockFile(workspaceRoot, 'host'), legacyDataDirLockFile(dataDir, workspaceId, 'host'));
  }

  /** The live host holding the lock, or null. */
  readHolder(): HostInfo | null {
    for (const file of this.files) {
      const found = inspectLockFile(file, parseHostInfo, 0);
      if (found.state === 'live') return found.holder;
    }
    return null;
  }

  acquire(info: HostInfo, workspacePath: string): void {
    if (this.held.length > 0) return;
    try {
      for (const file of this.files) {
        acquireFile(file, info, workspacePath);
        this.held.push(file);
      }
    } catch (error) {
      this.release();
      throw error;
    }
  }

  update(info: HostInfo): void {
    for (const file of this.held) fs.writeFileSync(file, JSON.stringify(info), { mode: 0o600 });
  }

  release(): void {
    for (const file of this.held.splice(0)) {
      try {
        const holder = parseHostInfo(fs.readFileSync(file, 'utf8'));
        if (!holder || holder.pid === process.pid) fs.rmSync(file, { force: true });
      } catch (error) {
        log.debug('The host lock was gone already at release', { file, error });
      }
    }
  }
}

function acquireFile(file: string, info: HostInfo, workspacePath: string): void {
  for (let attempt = 0; attempt < 3; attempt++) {
    if (createLockFile(file, JSON.stringify(info))) return;
    let found = inspectLockFile(file, parseHostInfo, 2_000);
    // A lock still being written (create, then write): give its owner a moment to say who it is.
    for (let waited = 0; found.state === 'starting' && waited < 1_000; waited += 50) {
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 50);
      found = inspectLockFile(file, parseHostInfo, 2_000);
    }
    if (found.state === 'live') {
      const holder = found.holder;
      const where = holder.url ? ` at ${holder.url}` : '';
      throw new ReverieError(
        'locked',
        `Workspace ${workspacePath} is already open in ${describeHost(holder)} (pid ${holder.pid}${where}, started ${holder.startedAt}; lock ${file}). ` +
          'Use that one, or quit it first.',
      );
    }
    if (found.state === 'starting') throw new ReverieError('locked', `Workspace ${workspacePath} is being opened by another process right now; try again in a moment.`);
    // Stale lock from a process that no longer exists: remove and retry.
    fs.rmSync(file, { force: true });
  }
  throw new ReverieError('locked', `Could not take the workspace lock ${file}; try again.`);
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
