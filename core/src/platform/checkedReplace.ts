import fs from 'node:fs';
import path from 'node:path';
import { ReverieError, errnoCode } from './errors.js';
import { sha256Hex } from './hash.js';
import { syncDirectory, writeSyncedTempFile } from './safeWrite.js';
import { withWriteLockSync } from './writeLock.js';

/** Where the replaced bytes are kept; `amend` replaces them when more arrived before the rename. */
export interface KeptPreImage {
  id: string;
  amend(bytes: Buffer): void;
}

export interface CheckedReplaceRequest {
  file: string;
  /** What the caller read; null means the file must not exist yet. */
  expectedSha256: string | null;
  next: Buffer;
  lockFile: string;
  /** Keeps the current bytes before anything changes; null when this file keeps no pre-images. */
  keepPreImage?: (current: Buffer) => KeptPreImage | null;
  /** Runs with the new bytes on disk and before the rename: the caller records the write it is about to make. */
  beforeRename?: (planned: { preImageId: string | null; afterSha256: string }) => void;
}

export type CheckedReplaceResult =
  | {
      outcome: 'written';
      afterSha256: string;
      preImageId: string | null;
      /** Bytes another writer appended while this one wrote, carried into the new file. */
      carriedOver: number;
    }
  | { outcome: 'changed'; reason: string };

/**
 * Replaces a file only if it still holds the expected bytes, without losing a byte anyone else
 * writes meanwhile. Under the workspace write lock (which Reverie's own writers take), it
 * reads the file through a descriptor it keeps, keeps a pre-image, writes a temporary file and
 * renames it over. A writer that does not take the lock (an editor, `>>` in a shell) appends to
 * the descriptor's file: after the rename those late bytes are read back from it, put into the
 * pre-image, and appended to the new file; an in-place rewrite instead wins over this write.
 */
export function replaceFileChecked(request: CheckedReplaceRequest): CheckedReplaceResult {
  return withWriteLockSync(request.lockFile, () => replaceLocked(request));
}

function replaceLocked(request: CheckedReplaceRequest): CheckedReplaceResult {
  const { file, next } = request;
  const name = path.basename(file);
  const fd = openIfExists(file);
  if (fd === null) {
    if (request.expectedSha256 !== null) return { outcome: 'changed', reason: `${name} was deleted on disk after it was read, so it was not written.` };
    const afterSha256 = sha256Hex(next);
    request.beforeRename?.({ preImageId: null, afterSha256 });
    testPause('REVERIE_TEST_PAUSE_BEFORE_RENAME_MS', `paused before rename (${name})`);
    if (!createExclusively(file, next)) return { outcome: 'changed', reason: `${name} was created on disk by another writer meanwhile, so it was not overwritten.` };
    return { outcome: 'written', afterSha256, preImageId: null, carriedOver: 0 };
  }
  try {
    const current = readAll(fd);
    if (request.expectedSha256 === null) return { outcome: 'changed', reason: `${name} already exists on disk, so it was not overwritten.` };
    if (sha256Hex(current) !== request.expectedSha256) {
      return { outcome: 'changed', reason: `${name} changed on disk after it was read (an editor or another process wrote it), so it was not overwritten.` };
    }
    const preImage = request.keepPreImage?.(current) ?? null;
    const temp = writeSyncedTempFile(file, next);
    try {
      request.beforeRename?.({ preImageId: preImage?.id ?? null, afterSha256: sha256Hex(next) });
      testPause('REVERIE_TEST_PAUSE_BEFORE_RENAME_MS', `paused before rename (${name})`);
      if (!sameFile(fd, file)) {
        return { outcome: 'changed', reason: `${name} was replaced on disk while it was being written (an editor saved it), so it was not overwritten.` };
      }
      fs.renameSync(temp, file);
    } finally {
      fs.rmSync(temp, { force: true });
    }
    syncDirectory(path.dirname(file));
    testPause('REVERIE_TEST_PAUSE_AFTER_RENAME_MS', `paused after rename (${name})`);
    const settled = settleLateWrites(fd, file, current, next, 0);
    if (settled.lateBytes) preImage?.amend(settled.lateBytes);
    if (settled.overruled) return { outcome: 'changed', reason: settled.overruled };
    return { outcome: 'written', afterSha256: sha256Hex(settled.onDisk), preImageId: preImage?.id ?? null, carriedOver: settled.carriedOver };
  } finally {
    fs.closeSync(fd);
  }
}

interface Settled {
  onDisk: Buffer;
  carriedOver: number;
  /** The old file's bytes when more arrived in it before the rename. */
  lateBytes: Buffer | null;
  /** Why this write gave way to another writer's. */
  overruled: string | null;
}

/** How many times late bytes are carried over before the file is left as it is. */
const MAX_SETTLE_ROUNDS = 5;

/**
 * Bytes written to the old file between the check and the rename are still in it (the
 * descriptor keeps it alive). Appends are carried over to the new file; any other change
 * restores that version instead, because an edit made on disk wins over this write. Carrying
 * over is itself a replace, so it settles the same way, a bounded number of rounds.
 */
function settleLateWrites(oldFd: number, file: string, before: Buffer, written: Buffer, round: number): Settled {
  waitUntilQuiet(oldFd);
  const late = readAll(oldFd);
  if (late.equals(before) || round >= MAX_SETTLE_ROUNDS) return { onDisk: written, carriedOver: 0, lateBytes: null, overruled: null };
  const name = path.basename(file);
  const isAppend = late.length > before.length && late.subarray(0, before.length).equals(before);
  const wanted = isAppend ? Buffer.concat([written, late.subarray(before.length)]) : late;
  const overruled = isAppend ? null : `${name} was edited on disk while it was being written; that edit was kept and this write was undone.`;
  const fd = openIfExists(file);
  if (fd === null) return { onDisk: Buffer.alloc(0), carriedOver: 0, lateBytes: late, overruled: `${name} was deleted on disk just after it was written.` };
  try {
    const onDisk = readAll(fd);
    if (!onDisk.subarray(0, written.length).equals(written)) {
      return { onDisk, carriedOver: 0, lateBytes: late, overruled: `${name} was replaced on disk just after it was written; that version was kept.` };
    }
    // Whatever others appended to the new file since the rename stays after the carried bytes.
    const next = Buffer.concat([wanted, onDisk.subarray(written.length)]);
    const temp = writeSyncedTempFile(file, next);
    try {
      if (!sameFile(fd, file)) return { onDisk, carriedOver: 0, lateBytes: late, overruled: `${name} was replaced on disk just after it was written; that version was kept.` };
      fs.renameSync(temp, file);
    } finally {
      fs.rmSync(temp, { force: true });
    }
    syncDirectory(path.dirname(file));
    const further = settleLateWrites(fd, file, onDisk, next, round + 1);
    const carried = isAppend ? late.length - before.length : 0;
    return { onDisk: further.onDisk, carriedOver: carried + further.carriedOver, lateBytes: late, overruled: overruled ?? further.overruled };
  } finally {
    fs.closeSync(fd);
  }
}

/** How long the old file must stay unchanged before no late append is expected into it. */
const QUIET_MS = 20;
const QUIET_LIMIT_MS = 250;

/**
 * A writer that opened the old file just before the rename (and was then descheduled) can
 * still append to it a few milliseconds later: wait until its size has been still for
 * QUIET_MS (at most QUIET_LIMIT_MS, for a writer that keeps it open and never stops).
 */
function waitUntilQuiet(fd: number): void {
  const started = Date.now();
  let size = fs.fstatSync(fd).size;
  let stillSince = Date.now();
  while (Date.now() - stillSince < QUIET_MS && Date.now() - started < QUIET_LIMIT_MS) {
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 4);
    const now = fs.fstatSync(fd).size;
    if (now !== size) {
      size = now;
      stillSince = Date.now();
    }
  }
}

function openIfExists(file: string): number | null {
  try {
    return fs.openSync(file, 'r');
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return null;
    throw new ReverieError('forbidden', `${file} cannot be read (${errnoCode(error) ?? (error as Error).message}), so it was not written.`, { cause: error });
  }
}

function readAll(fd: number): Buffer {
  const size = fs.fstatSync(fd).size;
  const chunks: Buffer[] = [];
  let position = 0;
  for (;;) {
    const chunk = Buffer.allocUnsafe(Math.max(64 * 1024, size - position + 1));
    const n = fs.readSync(fd, chunk, 0, chunk.length, position);
    if (n === 0) break;
    chunks.push(chunk.subarray(0, n));
    position += n;
  }
  return Buffer.concat(chunks);
}

/** True while the path still names the file the descriptor holds (no one renamed another over it). */
function sameFile(fd: number, file: string): boolean {
  try {
    const held = fs.fstatSync(fd);
    const named = fs.statSync(file);
    return held.ino === named.ino && held.dev === named.dev;
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return false;
    throw error;
  }
}


/** A new file: linked into place from a finished temporary file, so it appears whole or not at all. */
function createExclusively(file: string, bytes: Buffer): boolean {
  const temp = writeSyncedTempFile(file, bytes);
  try {
    fs.linkSync(temp, file);
    syncDirectory(path.dirname(file));
    return true;
  } catch (error) {
    if (errnoCode(error) === 'EEXIST') return false;
    if (!['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS'].includes(errnoCode(error) ?? '')) throw error;
    // No hard links on this file system: under the write lock, a checked rename is as good.
    if (fs.existsSync(file)) return false;
    fs.renameSync(temp, file);
    syncDirectory(path.dirname(file));
    return true;
  } finally {
    fs.rmSync(temp, { force: true });
  }
}

/** Test seams for the kill -9 and racing-append tests: hold the write just before or just after its rename. */
function testPause(variable: string, message: string): void {
  const ms = Number(process.env[variable] ?? 0);
  if (ms > 0) {
    process.stderr.write(`reverie-test: ${message}\n`);
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
  }
}
