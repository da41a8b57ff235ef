import { unpackChunkTexts } from '../index/chunkText.js';

/** A chunk row as a search reads it: `text` still in its stored (deflated) form, index/chunkText.ts. */
export type StoredChunk<R extends { text: string }> = Omit<R, 'text'> & { text: Uint8Array };

/**
 * Bytes of kept texts (and their stored forms, counted as below): ~5,000 chunks of notes. The
 * agents' host bench's whole workspace (2,800 chunks) counts 9.3 MB; at 4 MB a distinct question
 * inflated 12 of the 32 texts it read (~4 % of a search worker's CPU), at 16 MB none once warm.
 * Each search worker keeps its own, filled only as far as its searches read.
 */
const KEPT_BYTES = 16_000_000;

/**
 * Reads the texts of the chunks a search scores, after it has gathered them all: the ones not
 * kept from earlier searches are inflated in one call (zlib's set-up is paid once a search, not
 * once a statement), and rows read but dropped before scoring are never inflated.
 *
 * Inflating is most of what the stored form costs a search (~5 µs a chunk, tens of chunks a
 * search, up to a hundred more for a dated question), and searches in a row keep finding the
 * same chunks, so their texts are kept (least recently used dropped first) with the stored bytes
 * they came from: a kept text is used only while the row still holds those bytes (a chunk id
 * can name another text after a write). Comparing them costs a hundredth of inflating, and the
 * texts stay valid while the graph or a sync writes other rows.
 */
export class ChunkTextReader {
  private readonly kept = new Map<number, { stored: Uint8Array; text: string }>();
  private keptBytes = 0;

  constructor(private readonly maxBytes = KEPT_BYTES) {}

  /** The rows with their texts read, in order. */
  read<R extends { id: number; text: string }>(rows: ReadonlyArray<StoredChunk<R>>): R[] {
    const texts = this.texts(rows);
    return rows.map((row, i) => ({ ...row, text: texts[i]! }) as R);
  }

  /** The rows' texts, in order. */
  texts(rows: ReadonlyArray<{ id: number; text: Uint8Array }>): string[] {
    const texts = new Array<string>(rows.length);
    // Rows to inflate, by chunk id: one chunk can be read twice in a search (a candidate and a file match).
    const missing = new Map<number, number[]>();
    rows.forEach((row, i) => {
      const kept = this.kept.get(row.id);
      if (kept === undefined || !Buffer.from(kept.stored.buffer, kept.stored.byteOffset, kept.stored.byteLength).equals(row.text)) {
        const at = missing.get(row.id);
        if (at) at.push(i);
        else missing.set(row.id, [i]);
        return;
      }
      // Most recently used last: the first entry is the one dropped.
      this.kept.delete(row.id);
      this.kept.set(row.id, kept);
      texts[i] = kept.text;
    });
    if (missing.size === 0) return texts;
    const positions = [...missing.values()];
    const inflated = unpackChunkTexts(positions.map((at) => rows[at[0]!]!.text));
    positions.forEach((at, k) => {
      const text = inflated[k]!;
      for (const i of at) texts[i] = text;
      this.keep(rows[at[0]!]!.id, rows[at[0]!]!.text, text);
    });
    return texts;
  }

  private keep(id: number, stored: Uint8Array, text: string): void {
    const old = this.kept.get(id);
    if (old) {
      this.kept.delete(id);
      this.keptBytes -= sizeOf(old);
    }
    const entry = { stored, text };
    // A text bigger than the whole budget is read each time rather than dropping everything else.
    if (sizeOf(entry) > this.maxBytes) return;
    this.kept.set(id, entry);
    this.keptBytes += sizeOf(entry);
    for (const [oldest, oldEntry] of this.kept) {
      if (this.keptBytes <= this.maxBytes) break;
      this.kept.delete(oldest);
      this.keptBytes -= sizeOf(oldEntry);
    }
  }
}

/** Roughly what an entry holds: its stored bytes, and its text at up to 2 bytes a character. */
function sizeOf(entry: { stored: Uint8Array; text: string }): number {
  return entry.stored.byteLength + 2 * entry.text.length;
}
