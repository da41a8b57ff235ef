import { constants, deflateRawSync, inflateRawSync } from 'node:zlib';
import type Database from 'better-sqlite3';

/**
 * Chunk text is stored deflated (migration 0021): it was the largest thing in the index, 40 %
 * of it at 2,000 notes, and halves under deflate. FTS5 keeps its own tokens (the table is
 * contentless), so only code that shows or re-reads the text inflates it.
 *
 * Stored form: the text's UTF-8 length (LEB128), then a raw deflate stream of it ended by a
 * sync flush instead of a final block. Each chunk still reads on its own, and the streams of
 * many chunks, put end to end with one final block, are one valid stream: a search inflates its
 * candidates' texts in one call (~7 µs a chunk against ~20 µs one at a time, most of which is
 * zlib's set-up per call).
 */

/**
 * Level 1: a chunk is ~1.3 KB, too short for level 6's longer match search to find much more
 * (0.556 of the text against 0.549) while it costs the writer more CPU. `chunkSize` is the output
 * buffer each call allocates: zlib's 16 KB default is a fresh allocation per chunk, where a
 * chunk's stream is under 1 KB (4 KB still holds it in one pass; the bytes are the same):
 * deflating the 10,721 chunks of 60 MB of transcripts, alternated, took 425–514 CPU ms with 16 KB
 * and 337–454 with 4 KB (a reader's whole packing of batches, six pairs: 11.15 → 10.85 ms per MB).
 */
const PACK_OPTIONS = { level: 1, finishFlush: constants.Z_SYNC_FLUSH, chunkSize: 4096 };
/** An empty last block (fixed codes, end of block): closes streams that end in a sync flush. */
const LAST_BLOCK = Buffer.from([0x03, 0x00]);

/** The stored form of a chunk's text. */
export function packChunkText(text: string): Buffer {
  const bytes = Buffer.from(text, 'utf8');
  const header: number[] = [];
  let n = bytes.length;
  do {
    header.push((n & 0x7f) | (n >= 0x80 ? 0x80 : 0));
    n = Math.floor(n / 0x80);
  } while (n > 0);
  return Buffer.concat([Buffer.from(header), deflateRawSync(bytes, PACK_OPTIONS)]);
}

/**
 * The stored forms of many chunks' texts end to end in one new buffer (its own memory: it may be
 * moved to another thread), with each one's `[start, length]` in it, `start` counted from 1 as
 * SQL's `substr(?, start, length)` takes it: a multi-row insert slices its rows' texts from one
 * bound blob instead of each text travelling in its JSON row as hex (twice the bytes, and unhex).
 */
export function packChunkTextsTogether(texts: readonly string[]): { bytes: Uint8Array; spans: Array<[number, number]> } {
  const packed = texts.map(packChunkText);
  const bytes = new Uint8Array(packed.reduce((n, p) => n + p.length, 0));
  const spans: Array<[number, number]> = [];
  let at = 0;
  for (const p of packed) {
    bytes.set(p, at);
    spans.push([at + 1, p.length]);
    at += p.length;
  }
  return { bytes, spans };
}

/** The texts of stored chunk texts, in order, inflated together. */
export function unpackChunkTexts(packed: readonly Uint8Array[]): string[] {
  if (packed.length === 0) return [];
  const lengths: number[] = [];
  const streams: Buffer[] = [];
  for (const p of packed) {
    let length = 0;
    let at = 0;
    for (let scale = 1; ; scale *= 0x80) {
      if (at >= p.length || at > 5) throw new Error('A stored chunk text is damaged (its length is cut short); delete the index file to rebuild it.');
      const byte = p[at++]!;
      length += (byte & 0x7f) * scale;
      if (byte < 0x80) break;
    }
    lengths.push(length);
    streams.push(Buffer.from(p.buffer, p.byteOffset + at, p.byteLength - at));
  }
  streams.push(LAST_BLOCK);
  const bytes = inflateRawSync(Buffer.concat(streams));
  const total = lengths.reduce((a, b) => a + b, 0);
  if (bytes.length !== total) throw new Error(`Stored chunk texts are damaged (${bytes.length} bytes where ${total} were stored); delete the index file to rebuild it.`);
  const texts: string[] = [];
  let offset = 0;
  for (const length of lengths) {
    texts.push(bytes.toString('utf8', offset, offset + length));
    offset += length;
  }
  return texts;
}

/** A chunk's text from its stored form. */
export function unpackChunkText(packed: Uint8Array): string {
  return unpackChunkTexts([packed])[0]!;
}

/** Whether a chunk's text may hold a wiki-link (`chunks.wiki_links`): the backlinks read only those chunks. */
export function holdsWikiLink(text: string): boolean {
  return text.includes('[[');
}

/** SQL name of the function that reads one stored chunk text: `chunk_text(c.text)`. */
export const CHUNK_TEXT_FUNCTION = 'chunk_text';

/**
 * Lets SQL on this connection read chunk text (`SELECT chunk_text(text) AS text FROM chunks`).
 * Every connection that reads chunk text registers it: the engine's, the search workers'.
 * Searches read many rows at once through `withChunkTexts` instead (one inflate for them all).
 */
export function registerChunkText(db: Database.Database): void {
  db.function(CHUNK_TEXT_FUNCTION, { deterministic: true }, (packed: unknown) => {
    if (!(packed instanceof Uint8Array)) throw new TypeError(`${CHUNK_TEXT_FUNCTION}() reads a stored chunk text (a blob), got ${packed === null ? 'NULL' : typeof packed}`);
    return unpackChunkText(packed);
  });
}

/** A statement's `all`, with its rows' stored `text` column read as text. */
export interface ChunkTextStatement<P extends unknown[], R extends { text: string }> {
  all(...params: P): R[];
}

/** Wraps a statement that selects the stored `text` column (not `chunk_text(text)`): `all` inflates every row's text in one call. */
export function withChunkTexts<P extends unknown[], R extends { text: string }>(statement: Database.Statement<P, R>): ChunkTextStatement<P, R> {
  return {
    all(...params: P): R[] {
      const rows = statement.all(...params) as Array<{ text: unknown }>;
      const texts = unpackChunkTexts(rows.map((r) => r.text as Uint8Array));
      rows.forEach((r, i) => {
        r.text = texts[i]!;
      });
      return rows as unknown as R[];
    },
  };
}
