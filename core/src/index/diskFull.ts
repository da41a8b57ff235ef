/**
 * A first index that fills the disk: SQLite rolls the batch back and reports SQLITE_FULL. The
 * files committed before it stay indexed and searchable, so the person is told that, and what
 * to do, instead of "database or disk is full".
 */
import path from 'node:path';
import { ReverieError, errnoCode } from '../platform/errors.js';

const FULL_CODES = new Set(['SQLITE_FULL', 'ENOSPC', 'EDQUOT']);

export function isDiskFull(error: unknown): boolean {
  const code = errnoCode(error);
  return code !== undefined && FULL_CODES.has(code);
}

/** The error to report for a sync stopped by a full disk (others are returned unchanged). */
export function explainDiskFull(error: unknown, indexFile: string, indexedFiles: number, totalFiles: number): unknown {
  if (!isDiskFull(error)) return error;
  return new ReverieError(
    'internal',
    `The disk holding the index (${path.dirname(indexFile)}) is full: indexing stopped with ${indexedFiles} of ${totalFiles} files indexed. ` +
      'What was indexed is kept and searchable; free some space and index again to pick up the rest.',
    { cause: error },
  );
}
