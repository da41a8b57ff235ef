import fs from 'node:fs';
import path from 'node:path';
import { ReverieError, errnoCode } from '../platform/errors.js';
import { sha256Hex } from '../platform/hash.js';
import type { PreImageFile, PreImageStore } from './preImages.js';
import { writeFileAtomically } from '../platform/safeWrite.js';
import { isProcessAlive } from '../platform/processAlive.js';
import { processLogger } from '../platform/log/processLog.js';

const log = processLogger('workspace');

/** A curated file as read when the sweep began: later writes are checked against its hash. */
export interface CuratedFileSnapshot {
  name: PreImageFile;
  abs: string;
  exists: boolean;
  text: string;
  sha256: string | null;
  /** Set when the file could only be partly read (DREAMS.md over 16 MB): never rewritten then. */
  truncated?: boolean;
}

export function readCuratedFile(workspaceRoot: string, name: PreImageFile): CuratedFileSnapshot {
  const abs = path.join(workspaceRoot, name);
  let stat: fs.Stats;
  try {
    stat = fs.lstatSync(abs);
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return { name, abs, exists: false, text: '', sha256: null };
    throw new ReverieError('forbidden', `${name} cannot be read (${errnoCode(error) ?? (error as Error).message}).`);
  }
  if (stat.isSymbolicLink()) throw new ReverieError('forbidden', `${name} is a symbolic link; dreaming does not follow it. Replace it with a regular file.`);
  const bytes = fs.readFileSync(abs);
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch (error) {
    throw new ReverieError('invalid-input', `${name} is not UTF-8; re-save it as UTF-8 so dreaming can update it.`, { cause: error });
  }
  return { name, abs, exists: true, text, sha256: sha256Hex(bytes) };
}

export type CuratedWriteResult =
  | { outcome: 'written'; afterSha256: string; preImageId: string | null }
  | { outcome: 'aborted'; reason: string };

/**
 * Replaces a curated file only if it still holds what was read at the start (an editor or
 * another process may have changed it), keeping a pre-image, through an atomic rename.
 */
export function writeCuratedFile(snapshot: CuratedFileSnapshot, nextText: string, preImages: PreImageStore, reason: string, runId: string | null): CuratedWriteResult {
  let current: Buffer | null = null;
  try {
    if (fs.lstatSync(snapshot.abs).isSymbolicLink()) return { outcome: 'aborted', reason: `${snapshot.name} became a symbolic link during the sweep; it was not written.` };
    current = fs.readFileSync(snapshot.abs);
  } catch (error) {
    if (errnoCode(error) !== 'ENOENT') return { outcome: 'aborted', reason: `${snapshot.name} could not be re-read (${errnoCode(error) ?? (error as Error).message}).` };
  }
  const currentSha = current ? sha256Hex(current) : null;
  if (currentSha !== snapshot.sha256) {
    return {
      outcome: 'aborted',
      reason: `${snapshot.name} changed on disk while the sweep ran (an editor or another process wrote it), so it was not overwritten; the candidates stay staged for the next sweep.`,
    };
  }
  const preImage = current ? preImages.keep(snapshot.name, current, reason, runId) : null;
  const bytes = Buffer.from(nextText, 'utf8');
  writeFileAtomically(snapshot.abs, bytes, { beforeRename: testPauseBeforeRename });
  return { outcome: 'written', afterSha256: sha256Hex(bytes), preImageId: preImage?.id ?? null };
}

/** Test seam for the kill -9 test: hold the finished temp file before its rename. */
function testPauseBeforeRename(): void {
  const ms = Number(process.env.REVERIE_TEST_PAUSE_BEFORE_RENAME_MS ?? 0);
  if (ms > 0) {
    process.stderr.write('reverie-test: paused before rename\n');
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
  }
}

/** Temp files of an interrupted atomic write (`.MEMORY.md.<pid>.<hex>.tmp`) are removed by the next sweep. */
export function removeStaleTempFiles(workspaceRoot: string): number {
  let removed = 0;
  for (const name of safeReaddir(workspaceRoot)) {
    const m = /^\.(MEMORY\.md|USER\.md|DREAMS\.md)\.(\d+)\.[0-9a-f]+\.tmp$/.exec(name);
    if (!m || isProcessAlive(Number(m[2]))) continue;
    fs.rmSync(path.join(workspaceRoot, name), { force: true });
    removed++;
  }
  return removed;
}

function safeReaddir(dir: string): string[] {
  try {
    return fs.readdirSync(dir);
  } catch (error) {
    log.debug('A folder could not be listed; read as empty', { dir, error });
    return [];
  }
}

