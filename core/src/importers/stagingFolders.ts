import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { isProcessAlive } from '../platform/processAlive.js';
import { IMPORTS_DIR } from '../workspace/layout.js';
import { processLogger } from '../platform/log/processLog.js';

const log = processLogger('importers');

/** `.staging-<report id>-p<owner pid>-<random>`: the pid says whether its import is still running. */
const STAGING_NAME = /^\.staging-.+?(?:-p(\d+))?-[0-9a-f]{6}$/;

export function importsDir(root: string): string {
  return path.join(root, ...IMPORTS_DIR.split('/'));
}

/** A fresh staging folder name for an import run by this process. */
export function stagingDirFor(root: string, reportId: string): string {
  return path.join(importsDir(root), `.staging-${reportId}-p${process.pid}-${randomBytes(3).toString('hex')}`);
}

/**
 * Removes staging folders left by imports that were killed mid-copy (their owner process is
 * gone). A folder whose owner is alive belongs to a running import and is left alone; a
 * folder named before owners were recorded is stale only once nothing has touched it for an hour.
 * Returns the folders removed.
 */
export function removeStaleStagingFolders(root: string, now: Date = new Date()): string[] {
  const dir = importsDir(root);
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch (error) {
    log.debug('No imports folder to clean yet', { dir, error });
    return []; // nothing left behind
  }
  const removed: string[] = [];
  for (const name of names) {
    const match = STAGING_NAME.exec(name);
    if (!match) continue;
    const full = path.join(dir, name);
    if (!isStale(full, match[1], now)) continue;
    try {
      fs.rmSync(full, { recursive: true, force: true });
      removed.push(full);
      log.info('Removed a staging folder left by an interrupted import', { folder: full });
    } catch (error) {
      log.warn('A stale import staging folder could not be removed', { folder: full, error });
    }
  }
  return removed;
}

const LEGACY_STALE_MS = 60 * 60 * 1000;

function isStale(full: string, ownerPid: string | undefined, now: Date): boolean {
  if (ownerPid !== undefined) return Number(ownerPid) !== process.pid && !isProcessAlive(Number(ownerPid));
  try {
    return now.getTime() - fs.statSync(full).mtimeMs > LEGACY_STALE_MS;
  } catch (error) {
    log.debug('A staging folder vanished while being checked', { folder: full, error });
    return false;
  }
}
