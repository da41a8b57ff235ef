import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { errnoCode, ReverieError } from '../platform/errors.js';
import { nodeDownloadFileSystem, type DownloadFileSystem, type PartFile } from './download.js';
import { ProgressMeter, type DownloadProgress } from './downloadProgress.js';
import { processLogger } from '../platform/log/processLog.js';

const log = processLogger('models');

export const GGUF_MAGIC = 'GGUF';

/** Checks that a local path is an existing `.gguf` file that starts with the GGUF header; returns its size. */
export function checkLocalModelFile(file: string): number {
  if (!/\.gguf$/i.test(file)) {
    throw new ReverieError('invalid-input', `${file} is not a .gguf file: Reverie runs llama.cpp models in GGUF format (convert or download a .gguf).`);
  }
  let stat: fs.Stats;
  try {
    stat = fs.statSync(file);
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') throw new ReverieError('not-found', `No such file: ${file}. Check the path to the .gguf model.`);
    throw new ReverieError('invalid-input', `Cannot read ${file}: ${(error as Error).message}`);
  }
  if (!stat.isFile()) throw new ReverieError('invalid-input', `${file} is not a file; give the path to a .gguf model file.`);
  if (!hasGgufHeader(file)) {
    throw new ReverieError('invalid-input', `${file} is not a GGUF model: it does not start with the GGUF header (is it truncated, or another format renamed to .gguf?).`);
  }
  return stat.size;
}

export function hasGgufHeader(file: string): boolean {
  const header = Buffer.alloc(GGUF_MAGIC.length);
  const fd = fs.openSync(file, 'r');
  try {
    return fs.readSync(fd, header, 0, header.length, 0) === header.length && header.toString('latin1') === GGUF_MAGIC;
  } finally {
    fs.closeSync(fd);
  }
}

export async function sha256OfFile(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of fs.createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

export interface CopyOptions {
  onProgress?: (progress: DownloadProgress) => void;
  signal?: AbortSignal;
  fileSystem?: DownloadFileSystem;
  progressIntervalMs?: number;
}

/**
 * Copies `source` to `dest` (a temporary name the caller renames), hashing on the way and
 * fsyncing at the end. On any failure `dest` is removed.
 */
export async function copyAndHash(source: string, dest: string, options: CopyOptions = {}): Promise<{ sha256: string; size: number }> {
  const hash = createHash('sha256');
  const meter = new ProgressMeter(options.onProgress, options.progressIntervalMs ?? 100);
  let size = 0;
  let file: PartFile | null = null;
  try {
    options.signal?.throwIfAborted();
    file = await (options.fileSystem ?? nodeDownloadFileSystem).openPart(dest, 'truncate');
    meter.start(0, fs.statSync(source).size);
    for await (const chunk of fs.createReadStream(source, { signal: options.signal })) {
      await file.write(chunk as Buffer);
      hash.update(chunk as Buffer);
      size += (chunk as Buffer).length;
      meter.update(size);
    }
    await file.sync();
    meter.finish();
  } catch (error) {
    // The copy failed already (reported below); closing its file is clean-up.
    await file?.close().catch((closeError: unknown) => log.debug('A model copy could not be closed', { file: dest, error: closeError }));
    file = null;
    fs.rmSync(dest, { force: true });
    throw copyError(error, source, path.dirname(dest), options.signal);
  } finally {
    await file?.close();
  }
  return { sha256: hash.digest('hex'), size };
}

function copyError(error: unknown, source: string, dir: string, signal: AbortSignal | undefined): ReverieError {
  if (signal?.aborted) return new ReverieError('internal', `Adding ${path.basename(source)} was cancelled; nothing was added.`);
  const code = errnoCode(error);
  if (code === 'ENOSPC' || code === 'EDQUOT') return new ReverieError('internal', `Disk full while copying ${source} into ${dir}; free space and retry.`);
  return new ReverieError('internal', `Could not copy ${source} into ${dir}: ${code ?? (error as Error)?.message ?? String(error)}`);
}
