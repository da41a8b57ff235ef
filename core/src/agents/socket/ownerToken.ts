import { randomBytes, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { processLogger } from '../../platform/log/processLog.js';

const log = processLogger('agents/socket');

/**
 * The person's own key to the host's socket: one-shot CLI commands (`reverie search`, `status`,
 * `get`) ask the running host with it instead of loading the engine. A new random token per
 * host launch, in a 0600 file of the data folder: whoever can read it could open the index
 * itself, so it grants nothing the data folder does not already.
 */
export function ownerTokenPath(dataDir: string): string {
  return path.join(dataDir, 'host-owner.token');
}

/** Written when the host's socket starts; the previous launch's token stops working. */
export function writeOwnerToken(dataDir: string): string {
  const token = randomBytes(24).toString('hex');
  const file = ownerTokenPath(dataDir);
  const temp = `${file}.${process.pid}.tmp`;
  fs.mkdirSync(dataDir, { recursive: true });
  fs.writeFileSync(temp, token, { mode: 0o600 });
  fs.renameSync(temp, file);
  return token;
}

/** The running host's token, or null when none is written (no host since the last clean stop). */
export function readOwnerToken(dataDir: string): string | null {
  try {
    const token = fs.readFileSync(ownerTokenPath(dataDir), 'utf8').trim();
    return token || null;
  } catch (error) {
    log.debug('no owner token: no host, or one that predates it', { error });
    return null;
  }
}

/** Removes the file at the host's stop, unless a newer host has written its own since. */
export function removeOwnerToken(dataDir: string, token: string): void {
  if (readOwnerToken(dataDir) === token) fs.rmSync(ownerTokenPath(dataDir), { force: true });
}

export function isOwnerToken(expected: string | null, given: unknown): boolean {
  if (expected === null || typeof given !== 'string') return false;
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}
