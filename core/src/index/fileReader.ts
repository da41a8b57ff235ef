import fsSync, { constants as fsConstants } from 'node:fs';
import fs from 'node:fs/promises';
import { errnoCode } from '../platform/errors.js';
import { processLogger } from '../platform/log/processLog.js';

const log = processLogger('index');

export type ReadOutcome =
  | { kind: 'text'; text: string; bytes: Buffer }
  | { kind: 'vanished' }
  | { kind: 'skipped'; reason: string; bytes: Buffer | null }
  | { kind: 'failed'; reason: string };

/** Reads raw bytes; the seam tests use to simulate races and permission errors. */
export type ReadBytes = (absPath: string) => Promise<Buffer>;

/** Thrown by the default reader when the path is a FIFO, socket or device: reading one could block forever. */
class NotRegularFileError extends Error {
  constructor(readonly kind: string) {
    super(`not a regular file (${kind})`);
  }
}

function nonRegularKind(stat: { isFIFO(): boolean; isSocket(): boolean; isCharacterDevice(): boolean; isBlockDevice(): boolean; isDirectory(): boolean }): string {
  if (stat.isFIFO()) return 'named pipe';
  if (stat.isSocket()) return 'socket';
  if (stat.isCharacterDevice() || stat.isBlockDevice()) return 'device';
  if (stat.isDirectory()) return 'folder';
  return 'special file';
}

/**
 * Opens without blocking (O_NONBLOCK: a FIFO with no writer would otherwise hang `open`) and
 * checks the opened handle is a regular file before reading, so a path swapped for a pipe
 * after discovery cannot hang indexing.
 */
export async function readRegularFile(absPath: string): Promise<Buffer> {
  const handle = await fs.open(absPath, fsConstants.O_RDONLY | (fsConstants.O_NONBLOCK ?? 0));
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) throw new NotRegularFileError(nonRegularKind(stat));
    return await handle.readFile();
  } finally {
    await handle.close();
  }
}

/**
 * `readRegularFile` in one blocking call, for a reader thread (noteReadWorker.ts), where waiting
 * blocks nothing else: four round trips through the thread pool per file cost the engine thread
 * more than the read itself.
 */
export function readRegularFileSync(absPath: string): Buffer {
  const fd = fsSync.openSync(absPath, fsConstants.O_RDONLY | (fsConstants.O_NONBLOCK ?? 0));
  try {
    const stat = fsSync.fstatSync(fd);
    if (!stat.isFile()) throw new NotRegularFileError(nonRegularKind(stat));
    return fsSync.readFileSync(fd);
  } finally {
    fsSync.closeSync(fd);
  }
}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/** Reads a Markdown file and decides whether it can be indexed, with a reason a person understands. */
export async function readMarkdownFile(absPath: string, readBytes: ReadBytes = readRegularFile): Promise<ReadOutcome> {
  let bytes: Buffer;
  try {
    bytes = await readBytes(absPath);
  } catch (error) {
    return unreadOutcome(error);
  }
  return decodedOutcome(bytes);
}

/** `readMarkdownFile` with the blocking reader, for a reader thread. */
export function readMarkdownFileSync(absPath: string): ReadOutcome {
  let bytes: Buffer;
  try {
    bytes = readRegularFileSync(absPath);
  } catch (error) {
    return unreadOutcome(error);
  }
  return decodedOutcome(bytes);
}

/** Why a file could not be read, in words. */
function unreadOutcome(error: unknown): ReadOutcome {
  if (error instanceof NotRegularFileError) return { kind: 'skipped', reason: `${error.message}; not read`, bytes: null };
  const code = errnoCode(error);
  if (code === 'ENOENT') return { kind: 'vanished' };
  if (code === 'EACCES' || code === 'EPERM') return { kind: 'failed', reason: `unreadable (permission denied, ${code})` };
  if (code === 'EISDIR') return { kind: 'skipped', reason: 'not a file', bytes: null };
  return { kind: 'failed', reason: `unreadable (${code ?? (error as Error).message})` };
}

/** Bytes read: text to index, or the reason they are not. */
function decodedOutcome(bytes: Buffer): ReadOutcome {
  if (bytes.includes(0)) return { kind: 'skipped', reason: 'binary content (contains NUL bytes)', bytes };
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch (error) {
    // Reported as the file's coverage reason; the log has the decoder's word for it.
    log.debug('A file is not UTF-8', { error });
    return { kind: 'skipped', reason: `not UTF-8 (invalid byte at offset ${firstInvalidUtf8Offset(bytes)}); re-save it as UTF-8`, bytes };
  }
  return { kind: 'text', text, bytes };
}

/** The text as indexed: a leading byte-order mark is not part of the first line. */
export function withoutByteOrderMark(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** Byte offset of the first invalid UTF-8 sequence, so the message can point at it. */
export function firstInvalidUtf8Offset(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i]!;
    const need = b < 0x80 ? 0 : b >= 0xc2 && b <= 0xdf ? 1 : b >= 0xe0 && b <= 0xef ? 2 : b >= 0xf0 && b <= 0xf4 ? 3 : -1;
    if (need < 0) return i;
    for (let k = 1; k <= need; k++) {
      const c = bytes[i + k];
      if (c === undefined || (c & 0xc0) !== 0x80) return i;
    }
    i += need + 1;
  }
  return i;
}
