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

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/** Reads a Markdown file and decides whether it can be indexed, with a reason a person understands. */
export async function readMarkdownFile(absPath: string, readBytes: ReadBytes = (p) => fs.readFile(p)): Promise<ReadOutcome> {
  let bytes: Buffer;
  try {
    bytes = await readBytes(absPath);
  } catch (error) {
    const code = errnoCode(error);
    if (code === 'ENOENT') return { kind: 'vanished' };
    if (code === 'EACCES' || code === 'EPERM') return { kind: 'failed', reason: `unreadable (permission denied, ${code})` };
    if (code === 'EISDIR') return { kind: 'skipped', reason: 'not a file', bytes: null };
    return { kind: 'failed', reason: `unreadable (${code ?? (error as Error).message})` };
  }
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
