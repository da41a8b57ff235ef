import type Database from 'better-sqlite3';

/**
 * Whole-index KNN for large generations of model vectors, as an inverted file over the binary
 * codes: the codes are clustered (k-majority, the binary form of k-means) into about √n cells,
 * each vector is stored in a `vec0` table partitioned by its nearest cell, and a query asks
 * sqlite-vec's KNN only inside the cells nearest to it. sqlite-vec's brute-force KNN makes k
 * passes over every vector (100k 768-bit codes, k=64: ~10.5 ms); a query here reads ~3% of
 * them (~2 ms) and, on clustered test vectors, finds what the full KNN finds (recall 0.93 both).
 */

/** Clustering reads at most this many codes per cell, spread evenly over the generation. */
const SAMPLE_PER_CELL = 40;
const TRAINING_ROUNDS = 6;
const MIN_CELLS = 64;
const MIN_PROBES = 8;
const MAX_CELLS = 1_024;
/**
 * Vectors per vec0 chunk. A KNN passes over whole chunks, and the default (1,024) would be
 * mostly empty slots for cells of ~300: 128 cut the KNN in 18 cells from 4.1 to 2.7 ms.
 */
const CHUNK_SIZE = 128;
/** Codes assigned (or sample codes compared) between yields to the event loop. */
const WORK_SLICE = 2_000;

export interface CellsState {
  cells: number;
  trainedOn: number;
  state: 'assigning' | 'ready';
}

export class VectorCells {
  private readonly table: string;
  private readonly words: number;
  private readonly stmts;
  private centroids: Uint32Array | null = null;
  private loadedAt = -Infinity;
  private current: CellsState | null = null;

  constructor(
    private readonly db: Database.Database,
    private readonly key: string,
    dims: number,
  ) {
    this.table = `vcells_${key}`;
    this.words = Math.ceil(dims / 32);
    this.stmts = {
      state: db.prepare<[string], { centroids: Buffer; cells: number; trained_on: number; state: CellsState['state'] }>(
        'SELECT centroids, cells, trained_on, state FROM vector_cells WHERE table_key = ?',
      ),
      nearest: db.prepare<[Buffer, number, string], { rowid: number; distance: number }>(
        `SELECT rowid, distance FROM ${this.table} WHERE embedding MATCH vec_bit(?) AND k = ? AND cell IN (SELECT value FROM json_each(?))`,
      ),
      remove: db.prepare<[bigint]>(`DELETE FROM ${this.table} WHERE rowid = ?`),
      insert: db.prepare<[bigint, bigint, Buffer]>(`INSERT INTO ${this.table} (rowid, cell, embedding) VALUES (?, ?, vec_bit(?))`),
    };
  }

  /** The generation's partitioned vec0 table (empty until a model generation grows large). */
  static createTable(db: Database.Database, key: string, dims: number): void {
    db.exec(`CREATE VIRTUAL TABLE IF NOT EXISTS vcells_${key} USING vec0(cell integer partition key, embedding bit[${dims}], chunk_size=${CHUNK_SIZE})`);
  }

  static tableName(key: string): string {
    return `vcells_${key}`;
  }

  /**
   * The cells as stored, re-read at most every two seconds (another connection may rebuild
   * them); the centroids with them (a few tens of KB), so a rebuild is never half seen.
   */
  state(): CellsState | null {
    const now = performance.now();
    if (now - this.loadedAt < 2_000) return this.current;
    this.loadedAt = now;
    const row = this.stmts.state.get(this.key);
    this.centroids = row ? wordsOf(row.centroids) : null;
    this.current = row ? { cells: row.cells, trainedOn: row.trained_on, state: row.state } : null;
    return this.current;
  }

  /** Forget the cached state: the next call reads the table (after this connection rebuilt it). */
  private reload(): void {
    this.loadedAt = -Infinity;
  }

  /** True when every vector of the generation has its cell. */
  ready(): boolean {
    return this.state()?.state === 'ready';
  }

  /** Files a new vector under its cell, once cells exist (call inside the put's transaction). */
  put(chunkId: number, bits: Buffer): void {
    if (!this.state() || !this.centroids) return;
    this.insert(chunkId, bits);
  }

  private insert(chunkId: number, bits: Buffer): void {
    const cell = nearestCells(wordsOf(bits), this.centroids!, 1)[0]!;
    // vec0 has no upsert: a vector filed while the cells were being assigned is filed again.
    this.stmts.remove.run(BigInt(chunkId));
    this.stmts.insert.run(BigInt(chunkId), BigInt(cell), bits);
  }

  /**
   * The `candidates` codes nearest to `bits` (Hamming distance) among the cells nearest to it:
   * one cell in 32, at least 8 (10 of 318 at 100k vectors). On clustered test vectors 6 cells
   * already found all that one KNN over every vector finds; the rest is margin.
   */
  nearest(bits: Buffer, candidates: number): number[] {
    const state = this.state();
    if (!state || state.state !== 'ready' || !this.centroids) return [];
    const probes = Math.min(state.cells, Math.max(MIN_PROBES, Math.ceil(state.cells / 32)));
    const cells = nearestCells(wordsOf(bits), this.centroids, probes);
    // vec0 answers k per partition: keep the best `candidates` over all of them.
    const rows = this.stmts.nearest.all(bits, candidates, JSON.stringify(cells));
    return rows
      .sort((a, b) => a.distance - b.distance || a.rowid - b.rowid)
      .slice(0, candidates)
      .map((r) => r.rowid);
  }

  /**
   * Trains the cells on an even sample of `codes` and files every code under its cell, yielding
   * between slices. Searches ignore the cells until the state is 'ready'; vectors put meanwhile
   * are filed under the new cells as they come.
   */
  async rebuild(count: number, codes: CodeReader, shouldStop: () => boolean): Promise<'ready' | 'stopped'> {
    const cells = Math.min(MAX_CELLS, Math.max(MIN_CELLS, Math.round(Math.sqrt(count))));
    const step = Math.max(1, Math.floor(count / (cells * SAMPLE_PER_CELL)));
    const sample: Uint32Array[] = [];
    for (let after = 0; ; ) {
      const batch = codes(after, WORK_SLICE);
      batch.forEach((c, i) => {
        if (i % step === 0) sample.push(wordsOf(c.bits));
      });
      if (batch.length < WORK_SLICE) break;
      after = batch[batch.length - 1]!.chunkId;
      if (shouldStop()) return 'stopped';
      await yieldToEvents();
    }
    if (sample.length < cells) return 'stopped';
    const centroids = await this.train(sample, cells, shouldStop);
    if (!centroids) return 'stopped';

    this.db.transaction(() => {
      this.db
        .prepare(
          `INSERT INTO vector_cells (table_key, centroids, cells, trained_on, state, updated_at) VALUES (?, ?, ?, ?, 'assigning', ?)
           ON CONFLICT (table_key) DO UPDATE SET centroids = excluded.centroids, cells = excluded.cells, trained_on = excluded.trained_on,
             state = 'assigning', updated_at = excluded.updated_at`,
        )
        .run(this.key, Buffer.from(centroids.buffer, centroids.byteOffset, centroids.byteLength), cells, count, new Date().toISOString());
      this.db.exec(`DELETE FROM ${this.table}`);
    }).immediate();
    this.reload();
    this.state();

    for (let after = 0; ; ) {
      if (shouldStop()) return 'stopped';
      const batch = codes(after, WORK_SLICE);
      this.db.transaction(() => {
        for (const c of batch) this.insert(c.chunkId, c.bits);
      }).immediate();
      if (batch.length < WORK_SLICE) break;
      after = batch[batch.length - 1]!.chunkId;
      await yieldToEvents();
    }
    this.db.prepare(`UPDATE vector_cells SET state = 'ready', updated_at = ? WHERE table_key = ?`).run(new Date().toISOString(), this.key);
    this.reload();
    return 'ready';
  }

  /** k-majority: each centroid becomes the bitwise majority of the codes nearest to it. */
  private async train(sample: readonly Uint32Array[], cells: number, shouldStop: () => boolean): Promise<Uint32Array | null> {
    const W = this.words;
    const centroids = new Uint32Array(cells * W);
    for (let c = 0; c < cells; c++) centroids.set(sample[Math.floor((c * sample.length) / cells)]!.subarray(0, W), c * W);
    const owner = new Int32Array(sample.length);
    for (let round = 0; round < TRAINING_ROUNDS; round++) {
      for (let i = 0; i < sample.length; i++) {
        owner[i] = nearestCells(sample[i]!, centroids, 1)[0]!;
        if (i % WORK_SLICE === WORK_SLICE - 1) {
          if (shouldStop()) return null;
          await yieldToEvents();
        }
      }
      const ones = new Int32Array(cells * W * 32);
      const sizes = new Int32Array(cells);
      for (let i = 0; i < sample.length; i++) {
        const c = owner[i]!;
        sizes[c]!++;
        const code = sample[i]!;
        for (let w = 0; w < W; w++) {
          let word = code[w]!;
          while (word !== 0) {
            const bit = 31 - Math.clz32(word & -word);
            ones[(c * W + w) * 32 + bit]!++;
            word &= word - 1;
          }
        }
      }
      // A cell nobody chose keeps its centroid.
      for (let c = 0; c < cells; c++) {
        if (sizes[c] === 0) continue;
        for (let w = 0; w < W; w++) {
          let word = 0;
          for (let bit = 0; bit < 32; bit++) if (ones[(c * W + w) * 32 + bit]! * 2 > sizes[c]!) word |= 1 << bit;
          centroids[c * W + w] = word >>> 0;
        }
      }
    }
    return centroids;
  }
}

/** Reads the generation's codes in chunk-id order after `afterId`. */
export type CodeReader = (afterId: number, limit: number) => Array<{ chunkId: number; bits: Buffer }>;

/** The `n` centroids nearest to `code` by Hamming distance, nearest first. */
export function nearestCells(code: Uint32Array, centroids: Uint32Array, n: number): number[] {
  const cells = centroids.length / code.length;
  if (n === 1) {
    // Every vector filed takes this path: no array of all distances.
    let best = 0;
    let bestDistance = Infinity;
    for (let c = 0; c < cells; c++) {
      const d = hamming(code, centroids, c);
      if (d < bestDistance) {
        bestDistance = d;
        best = c;
      }
    }
    return [best];
  }
  const distances: Array<[number, number]> = [];
  for (let c = 0; c < cells; c++) distances.push([hamming(code, centroids, c), c]);
  return distances
    .sort((a, b) => a[0] - b[0] || a[1] - b[1])
    .slice(0, n)
    .map((x) => x[1]);
}

/** Hamming distance between `code` and centroid `c` of `centroids`. */
function hamming(code: Uint32Array, centroids: Uint32Array, c: number): number {
  const W = code.length;
  let d = 0;
  for (let w = 0; w < W; w++) d += popcount(code[w]! ^ centroids[c * W + w]!);
  return d;
}

function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (((x + (x >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

/** A code as 32-bit words (zero-padded), whatever the buffer's alignment. */
function wordsOf(bits: Buffer): Uint32Array {
  const words = new Uint32Array(Math.ceil(bits.length / 4));
  new Uint8Array(words.buffer).set(bits);
  return words;
}

function yieldToEvents(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
