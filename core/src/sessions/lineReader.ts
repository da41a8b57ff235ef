import fs from 'node:fs';
import { processLogger } from '../platform/log/processLog.js';

const log = processLogger('sessions');

export interface JsonlLine {
  /** The decoded line without its newline; null when it is not valid UTF-8 or is longer than the limit. */
  text: string | null;
  /** Why text is null. */
  unreadable?: 'not valid UTF-8' | 'longer than the line limit';
  /** Byte offset where the next line starts. */
  nextOffset: number;
}

export interface LineReadOptions {
  /** Byte offset of the first line to read. */
  start: number;
  /** Byte offset to stop at (exclusive): the file size when reading began. */
  end: number;
  /** Also yield a last line that has no newline (the writer is done with the file). */
  final: boolean;
  /** Longer lines are skipped without being buffered whole. */
  maxLineBytes: number;
}

const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;
const CHUNK_BYTES = 1 << 20;

/**
 * Streams newline-terminated lines of a file from a byte offset. A trailing line without a newline
 * may still be being written, so it is only yielded when `final` is set.
 */
export async function* readJsonlLines(filePath: string, options: LineReadOptions): AsyncGenerator<JsonlLine> {
  if (options.end <= options.start) return;
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const decode = (bytes: Buffer): string | null => {
    const end = bytes.length > 0 && bytes[bytes.length - 1] === CARRIAGE_RETURN ? bytes.length - 1 : bytes.length;
    try {
      return decoder.decode(bytes.subarray(0, end));
    } catch (error) {
      // Counted by the caller as a malformed line.
      log.debug('A transcript line is not UTF-8', { error });
      return null;
    }
  };

  const stream = fs.createReadStream(filePath, { start: options.start, end: options.end - 1, highWaterMark: CHUNK_BYTES });
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let oversized = false;
  let position = options.start;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      let from = 0;
      for (;;) {
        const newline = chunk.indexOf(NEWLINE, from);
        if (newline === -1) break;
        const piece = chunk.subarray(from, newline);
        const lineBytes = pendingBytes + piece.length;
        const nextOffset = position + (newline - from) + 1;
        const tooLong = oversized || lineBytes > options.maxLineBytes;
        const text = tooLong ? null : decode(pending.length === 0 ? piece : Buffer.concat([...pending, piece], lineBytes));
        pending = [];
        pendingBytes = 0;
        oversized = false;
        position = nextOffset;
        from = newline + 1;
        yield lineOf(text, tooLong, nextOffset);
      }
      const rest = chunk.subarray(from);
      position += rest.length;
      if (rest.length === 0) continue;
      if (oversized || pendingBytes + rest.length > options.maxLineBytes) {
        // Drop what we have of an over-long line rather than holding it in memory.
        oversized = true;
        pending = [];
        pendingBytes = 0;
      } else {
        // Copy: the stream may reuse its chunk buffers.
        pending.push(Buffer.from(rest));
        pendingBytes += rest.length;
      }
    }
    if (options.final && (pendingBytes > 0 || oversized)) {
      const text = oversized ? null : decode(Buffer.concat(pending, pendingBytes));
      yield lineOf(text, oversized, position);
    }
  } finally {
    stream.destroy();
  }
}

function lineOf(text: string | null, tooLong: boolean, nextOffset: number): JsonlLine {
  if (text !== null) return { text, nextOffset };
  return { text, nextOffset, unreadable: tooLong ? 'longer than the line limit' : 'not valid UTF-8' };
}
