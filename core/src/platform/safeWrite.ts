import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { processLogger } from './log/processLog.js';

const log = processLogger('platform');

/**
 * Write through a temporary file in the same folder, fsync, then rename: a crash leaves
 * either the old content or the new, never half a file.
 */
export function writeFileAtomically(file: string, content: string | Uint8Array): void {
  const dir = path.dirname(file);
  const temp = writeSyncedTempFile(file, content);
  try {
    fs.renameSync(temp, file);
  } catch (error) {
    fs.rmSync(temp, { force: true });
    throw error;
  }
  syncDirectory(dir);
}

/** A finished, fsynced temporary file beside `file` (`.<name>.<pid>.<hex>.tmp`), ready to be renamed or linked into place. */
export function writeSyncedTempFile(file: string, content: string | Uint8Array): string {
  const temp = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  writeNewFileSynced(temp, content);
  return temp;
}

/** Creates `file` (never over an existing one) with `content`, on disk before it returns. */
export function writeNewFileSynced(file: string, content: string | Uint8Array): void {
  const fd = fs.openSync(file, 'wx', 0o644);
  try {
    fs.writeFileSync(fd, content);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/** fsyncs a folder so a rename inside it survives a crash (best effort where unsupported). */
export function syncDirectory(dir: string): void {
  // Makes the rename durable on Linux; not supported (and not needed) everywhere.
  try {
    const fd = fs.openSync(dir, 'r');
    try {
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
  } catch (error) {
    // Best effort: the file itself was synced; some file systems cannot sync a folder.
    log.debug('A folder could not be synced after a write', { error });
  }
}
