import fs from 'node:fs';
import path from 'node:path';
import { ReverieError, errnoCode } from '../platform/errors.js';
import { sha256Hex } from '../platform/hash.js';
import type { PreImageFile, PreImageStore } from './preImages.js';
import { replaceFileChecked, type KeptPreImage } from '../platform/checkedReplace.js';
import { workspaceLockFile } from './workspaceLocks.js';
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
  | { outcome: 'written'; afterSha256: string; preImageId: string | null; carriedOver: number }
  | { outcome: 'aborted'; reason: string };

/**
 * Replaces a curated file only if it still holds what was read at the start (an editor or
 * another process may have changed it), keeping a pre-image, through an atomic rename under
 * the workspace's Markdown write lock; bytes appended meanwhile are carried over, never lost.
 * `beforeRename` lets a sweep record the write before it happens, so a killed run can be undone.
 */
export function writeCuratedFile(
  snapshot: CuratedFileSnapshot,
  nextText: string,
  preImages: PreImageStore,
  reason: string,
  runId: string | null,
  beforeRename?: (planned: { preImageId: string | null; afterSha256: string }) => void,
): CuratedWriteResult {
  try {
    if (fs.lstatSync(snapshot.abs).isSymbolicLink()) return { outcome: 'aborted', reason: `${snapshot.name} became a symbolic link during the sweep; it was not written.` };
  } catch (error) {
    if (errnoCode(error) !== 'ENOENT') return { outcome: 'aborted', reason: `${snapshot.name} could not be re-read (${errnoCode(error) ?? (error as Error).message}).` };
  }
  const result = replaceFileChecked({
    file: snapshot.abs,
    expectedSha256: snapshot.sha256,
    next: Buffer.from(nextText, 'utf8'),
    lockFile: workspaceLockFile(path.dirname(snapshot.abs), 'markdown'),
    keepPreImage: (current) => keptPreImage(preImages, snapshot.name, current, reason, runId),
    beforeRename,
  });
  if (result.outcome === 'changed') return { outcome: 'aborted', reason: `${result.reason} The candidates stay staged for the next sweep.` };
  if (result.carriedOver > 0) log.info('Lines appended during a curated write were carried over', { file: snapshot.name, bytes: result.carriedOver, runId });
  return { outcome: 'written', afterSha256: result.afterSha256, preImageId: result.preImageId, carriedOver: result.carriedOver };
}

/** A pre-image as the checked replace uses it: kept now, amended if more bytes arrive before the rename. */
export function keptPreImage(preImages: PreImageStore, name: PreImageFile, current: Buffer, reason: string, runId: string | null): KeptPreImage {
  const record = preImages.keep(name, current, reason, runId);
  return { id: record.id, amend: (bytes) => void preImages.amend(record.id, bytes, 'with lines appended while it was being replaced') };
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

