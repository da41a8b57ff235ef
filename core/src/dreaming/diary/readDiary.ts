import fs from 'node:fs';
import path from 'node:path';
import { ReverieError, errnoCode } from '../../platform/errors.js';
import { sha256Hex } from '../../platform/hash.js';
import { firstInvalidUtf8Offset } from '../../index/fileReader.js';

/** A diary larger than this is shown (and parsed) only up to here. */
export const MAX_DIARY_READ_BYTES = 16 * 1024 * 1024;

export interface DiaryFileRead {
  exists: boolean;
  text: string;
  truncated: boolean;
  /** Of the whole file; null when it does not exist or was read only in part. */
  sha256: string | null;
}

// ignoreBOM keeps a leading BOM in the text, so a writer puts back exactly what was there.
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Reads DREAMS.md without following a symlink, up to MAX_DIARY_READ_BYTES. */
export function readDreamDiaryFile(absPath: string): DiaryFileRead {
  const name = path.basename(absPath);
  let stat: fs.Stats;
  try {
    stat = fs.lstatSync(absPath);
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return { exists: false, text: '', truncated: false, sha256: null };
    throw unreadable(name, absPath, error);
  }
  if (stat.isSymbolicLink()) {
    throw new ReverieError('forbidden', `${name} is a symbolic link; Reverie does not follow it. Replace it with a regular file.`);
  }
  if (!stat.isFile()) throw new ReverieError('invalid-input', `${name} (${absPath}) is not a regular file; move it aside so Reverie can keep a dream diary there.`);
  const { bytes, truncated } = readPrefix(name, absPath);
  const kept = truncated ? bytes.subarray(0, utf8BoundaryAtOrBefore(bytes, MAX_DIARY_READ_BYTES)) : bytes;
  let text: string;
  try {
    text = utf8.decode(kept);
  } catch (error) {
    throw new ReverieError(
      'invalid-input',
      `${name} (${absPath}) is not UTF-8 (invalid byte at offset ${firstInvalidUtf8Offset(kept)}); re-save it as UTF-8 so Reverie can read and add to the dream diary.`,
      { cause: error },
    );
  }
  return { exists: true, text, truncated, sha256: truncated ? null : sha256Hex(bytes) };
}

/** Reads one byte past the limit, so growth between lstat and read still counts as truncation. */
function readPrefix(name: string, absPath: string): { bytes: Buffer; truncated: boolean } {
  const buffer = Buffer.alloc(MAX_DIARY_READ_BYTES + 1);
  let length = 0;
  let fd: number;
  try {
    // O_NOFOLLOW closes the gap between lstat and open (it is 0 where the platform lacks it).
    fd = fs.openSync(absPath, fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0));
  } catch (error) {
    throw unreadable(name, absPath, error);
  }
  try {
    for (let n = 1; n > 0 && length < buffer.length; length += n) n = fs.readSync(fd, buffer, length, buffer.length - length, null);
  } finally {
    fs.closeSync(fd);
  }
  return { bytes: buffer.subarray(0, Math.min(length, MAX_DIARY_READ_BYTES + 1)), truncated: length > MAX_DIARY_READ_BYTES };
}

/** The largest cut ≤ `limit` that does not split a multi-byte character. */
function utf8BoundaryAtOrBefore(bytes: Uint8Array, limit: number): number {
  let lead = limit;
  // Walk back over at most three continuation bytes to the character that straddles the cut.
  while (lead > 0 && limit - lead < 4 && ((bytes[lead] ?? 0) & 0xc0) === 0x80) lead--;
  return lead;
}

function unreadable(name: string, absPath: string, error: unknown): ReverieError {
  const code = errnoCode(error);
  if (code === 'ELOOP') return new ReverieError('forbidden', `${name} is a symbolic link; Reverie does not follow it. Replace it with a regular file.`);
  return new ReverieError('forbidden', `${name} (${absPath}) cannot be read (${code ?? (error as Error).message}); check its permissions.`);
}
