import fs from 'node:fs';
import { errnoCode } from '../platform/errors.js';
import { firstInvalidUtf8Offset } from '../index/fileReader.js';
import { SYMLINK_REASON } from './sourceFolders.js';
import { processLogger } from '../platform/log/processLog.js';

const log = processLogger('importers');

export type SourceRead =
  | { kind: 'text'; bytes: Buffer; size: number }
  | { kind: 'skipped'; reason: string; size: number };

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Reads a source file read-only and decides whether it may be imported. Never follows a
 * symlink, never reads a file over the size limit.
 */
export function readSourceFile(absPath: string, maxFileBytes: number): SourceRead {
  let stat: fs.Stats;
  try {
    stat = fs.lstatSync(absPath);
  } catch (error) {
    return { kind: 'skipped', reason: unreadable(error), size: 0 };
  }
  if (stat.isSymbolicLink()) return { kind: 'skipped', reason: SYMLINK_REASON, size: stat.size };
  if (!stat.isFile()) return { kind: 'skipped', reason: 'not a regular file', size: 0 };
  if (stat.size > maxFileBytes) return { kind: 'skipped', reason: `too large (${formatBytes(stat.size)}, limit ${formatBytes(maxFileBytes)})`, size: stat.size };
  let bytes: Buffer;
  try {
    bytes = fs.readFileSync(absPath);
  } catch (error) {
    return { kind: 'skipped', reason: unreadable(error), size: stat.size };
  }
  // The size can grow between lstat and read; the limit applies to what we would copy.
  if (bytes.length > maxFileBytes) return { kind: 'skipped', reason: `too large (${formatBytes(bytes.length)}, limit ${formatBytes(maxFileBytes)})`, size: bytes.length };
  if (bytes.includes(0)) return { kind: 'skipped', reason: 'binary content (contains NUL bytes)', size: bytes.length };
  try {
    utf8.decode(bytes);
  } catch (error) {
    // The plan item's reason says so.
    log.debug('An import source is not UTF-8', { error });
    return { kind: 'skipped', reason: `not UTF-8 (invalid byte at offset ${firstInvalidUtf8Offset(bytes)})`, size: bytes.length };
  }
  return { kind: 'text', bytes, size: bytes.length };
}

function unreadable(error: unknown): string {
  const code = errnoCode(error);
  if (code === 'ENOENT') return 'vanished before it could be read';
  if (code === 'EACCES' || code === 'EPERM') return `unreadable (permission denied, ${code})`;
  return `unreadable (${code ?? (error as Error).message})`;
}

export function formatBytes(n: number): string {
  if (n >= 1024 * 1024) return `${(n / (1024 * 1024)).toFixed(1)} MB`;
  if (n >= 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${n} B`;
}
