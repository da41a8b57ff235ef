/**
 * `reverie logs --follow`: new lines of the log as they are appended, across a rotation (the
 * rest of `.1` first) and the day rollover (the rest of yesterday's file, then today's).
 */
import fs from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { errnoCode } from '../errors.js';
import { logFileFor } from './logFiles.js';

export interface FollowLogOptions {
  /** Called with each complete new line, in order. */
  onLine(line: string): void;
  signal: AbortSignal;
  /** Called once the current end of today's file is known: lines appended from then on are followed. */
  onReady?: () => void;
  pollMs?: number;
  now?: () => Date;
}

const MAX_READ_BYTES = 4 * 1024 * 1024;

/** Follows from the current end of today's file until `signal` aborts. */
export async function followLog(dir: string, options: FollowLogOptions): Promise<void> {
  const now = options.now ?? (() => new Date());
  let file = logFileFor(dir, now());
  let offset = await sizeOf(file);
  options.onReady?.();
  // Bytes after the last newline seen: a line still being written (decoded only once whole).
  let carry: Buffer = Buffer.alloc(0);
  const emit = (bytes: Buffer) => {
    const data = carry.length > 0 ? Buffer.concat([carry, bytes]) : bytes;
    const end = data.lastIndexOf(10);
    carry = end === -1 ? data : data.subarray(end + 1);
    if (end === -1) return;
    for (const line of data.subarray(0, end).toString('utf8').split('\n')) if (line !== '') options.onLine(line);
  };
  while (!options.signal.aborted) {
    const today = logFileFor(dir, now());
    if (today !== file) {
      emit(await readRange(file, offset));
      ({ file, offset, carry } = { file: today, offset: 0, carry: Buffer.alloc(0) });
    }
    const size = await sizeOf(file);
    if (size < offset) {
      // Rotated: what was appended before the rotation is at the end of `.1`.
      emit(await readRange(`${file}.1`, offset));
      ({ offset, carry } = { offset: 0, carry: Buffer.alloc(0) });
    }
    if (size > offset) {
      const bytes = await readRange(file, offset, size);
      offset += bytes.length;
      emit(bytes);
    }
    await sleep(options.pollMs ?? 250, undefined, { signal: options.signal }).catch((error: unknown) => {
      if ((error as Error).name !== 'AbortError') throw error; // Ctrl-C: the loop ends
    });
  }
}

/** Bytes `[from, to)` of a file (a missing file reads as none), at most MAX_READ_BYTES at a time. */
async function readRange(file: string, from: number, to?: number): Promise<Buffer> {
  let handle: fs.promises.FileHandle;
  try {
    handle = await fs.promises.open(file, 'r');
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return Buffer.alloc(0);
    throw error;
  }
  try {
    const end = Math.min(to ?? (await handle.stat()).size, from + MAX_READ_BYTES);
    if (end <= from) return Buffer.alloc(0);
    const buffer = Buffer.alloc(end - from);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, from);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

async function sizeOf(file: string): Promise<number> {
  try {
    return (await fs.promises.stat(file)).size;
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return 0; // nothing logged yet today
    throw error;
  }
}
