import { holdsWikiLink, packChunkTextsTogether } from './chunkText.js';
import type { IndexedChunk } from './indexStore.js';
import { gramTermsOf } from './unspacedGrams.js';

/**
 * Chunks packed off the engine thread for one set-based insert (`IndexStore.appendPackedChunks`).
 * A reader thread packs them; the engine thread binds one string. Row by row, each INSERT was
 * its own statement, and FTS5 writes its pending terms to disk at every statement's savepoint:
 * a level-0 segment per chunk, merged again and again (2.7 CPU s per 100 MB of transcripts,
 * against 1.7 s as one statement per batch).
 */
export interface PackedChunks {
  /**
   * JSON array of `[startLine, endLine, textStart, textLength, origin, sessionKind, observedAt, wikiLinks]`,
   * in insert order, as UTF-8 bytes: moved to the engine thread, not copied, and outside both
   * threads' heaps (as megabyte strings they waited in V8's large-object space for a full
   * collection: +80 MB RSS). `textStart`/`textLength`: the chunk's stored text in `packed`.
   */
  json: Uint8Array;
  /** The chunks' stored texts end to end, packed here, off the engine thread (chunkText.ts packChunkTextsTogether). */
  packed: Uint8Array;
  /** JSON array of the chunks' texts in the same order, for the FTS5 rows (UTF-8 bytes as above). */
  texts: Uint8Array;
  count: number;
  /** The unspaced-script terms of the chunks that have some (`[index in json, terms]`), see unspacedGrams.ts. */
  grams: Array<[number, string]>;
}

const utf8 = new TextEncoder();

/** Packs chunks as `appendChunks` would store them (origin 'owner' when absent). */
export function packChunks(chunks: readonly IndexedChunk[]): PackedChunks {
  const rows: unknown[] = [];
  const grams: Array<[number, string]> = [];
  const texts = chunks.map((c) => c.text);
  const { bytes, spans } = packChunkTextsTogether(texts);
  chunks.forEach((c, i) => {
    rows.push([c.startLine, c.endLine, spans[i]![0], spans[i]![1], c.origin ?? 'owner', c.sessionKind ?? null, c.observedAt ?? null, holdsWikiLink(c.text) ? 1 : 0]);
    const terms = gramTermsOf(c.text);
    if (terms) grams.push([i, terms]);
  });
  return { json: utf8.encode(JSON.stringify(rows)), packed: bytes, texts: utf8.encode(JSON.stringify(texts)), count: chunks.length, grams };
}
