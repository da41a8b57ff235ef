import { unpackChunkTexts } from '../index/chunkText.js';

/** A chunk row as a search reads it: `text` still in its stored (deflated) form, index/chunkText.ts. */
export type StoredChunk<R extends { text: string }> = Omit<R, 'text'> & { text: Uint8Array };

/** Characters of inflated text kept: ~1,500 chunks, 2–4 MB. */
const KEPT_CHARS = 2_000_000;

/**
 * Reads the texts of the chunks a search scores, after it has gathered them all: the ones not
 * kept from earlier searches are inflated in one call (zlib's set-up is paid once a search, not
 * once a statement), and rows read but dropped before scoring are never inflated.
 *
 * Inflating is most of what the stored form costs a search (~5 µs a chunk, tens of chunks a
 * search, up to a hundred more for a dated question), and searches in a row keep finding the
 * same chunks, so their texts are kept (least recently used dropped first) until any
 * connection writes to the index: a chunk's id can then name another text.
 */
export class ChunkTextReader {
  private readonly kept = new Map<number, string>();
  private keptChars = 0;
  private keptAt: string | null = null;

  constructor(
    /** Changes whenever any connection wrote to the index (KeywordSearcher.writesSeen). */
    private readonly writesSeen: () => string,
    private readonly maxChars = KEPT_CHARS,
  ) {}

  /** The rows with their texts read, in order. */
  read<R extends { id: number; text: string }>(rows: ReadonlyArray<StoredChunk<R>>): R[] {
    const texts = this.texts(rows);
    return rows.map((row, i) => ({ ...row, text: texts[i]! }) as R);
  }

  /** The rows' texts, in order. */
  texts(rows: ReadonlyArray<{ id: number; text: Uint8Array }>): string[] {
    const stamp = this.writesSeen();
    if (stamp !== this.keptAt) {
      this.kept.clear();
      this.keptChars = 0;
      this.keptAt = stamp;
    }
    const texts = new Array<string>(rows.length);
    // Rows to inflate, by chunk id: one chunk can be read twice in a search (a candidate and a file match).
    const missing = new Map<number, number[]>();
    rows.forEach((row, i) => {
      const kept = this.kept.get(row.id);
      if (kept === undefined) {
        const at = missing.get(row.id);
        if (at) at.push(i);
        else missing.set(row.id, [i]);
        return;
      }
      // Most recently used last: the first entry is the one dropped.
      this.kept.delete(row.id);
      this.kept.set(row.id, kept);
      texts[i] = kept;
    });
    if (missing.size === 0) return texts;
    const positions = [...missing.values()];
    const inflated = unpackChunkTexts(positions.map((at) => rows[at[0]!]!.text));
    positions.forEach((at, k) => {
      const text = inflated[k]!;
      for (const i of at) texts[i] = text;
      this.keep(rows[at[0]!]!.id, text);
    });
    return texts;
  }

  private keep(id: number, text: string): void {
    // A text bigger than the whole budget is read each time rather than dropping everything else.
    if (text.length > this.maxChars) return;
    this.kept.set(id, text);
    this.keptChars += text.length;
    for (const [oldest, oldText] of this.kept) {
      if (this.keptChars <= this.maxChars) break;
      this.kept.delete(oldest);
      this.keptChars -= oldText.length;
    }
  }
}
