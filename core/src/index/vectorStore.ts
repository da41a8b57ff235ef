import type Database from 'better-sqlite3';
import { unpackChunkText, withChunkTexts } from './chunkText.js';
import { writeStampReader } from './writeStamp.js';
import * as sqliteVec from 'sqlite-vec';
import { sha256Hex } from '../platform/hash.js';
import { HashEmbeddingProvider } from '../embed/hashProvider.js';
import { generationId, type EmbeddingGeneration } from '../embed/provider.js';
import { VectorCells } from './vectorCells.js';
import { blobToFloats, floatsToBlob } from './vectorBlob.js';

export { blobToFloats, floatsToBlob };

export type VectorBackend = 'sqlite-vec' | 'scan';

/** Loads sqlite-vec into a connection; without it, vector search falls back to a bounded scan. */
export function loadVectorExtension(db: Database.Database, disabled = false): { backend: VectorBackend; problem: string | null } {
  if (disabled) return { backend: 'scan', problem: 'sqlite-vec is disabled (REVERIE_DISABLE_SQLITE_VEC)' };
  try {
    db.loadExtension(unpackedPath(sqliteVec.getLoadablePath()));
    db.prepare('SELECT vec_version()').get();
    return { backend: 'sqlite-vec', problem: null };
  } catch (error) {
    return { backend: 'scan', problem: `sqlite-vec could not be loaded (${(error as Error).message})` };
  }
}

/** In a packaged app the extension is unpacked beside app.asar: SQLite cannot open a file inside the archive. */
export function unpackedPath(file: string): string {
  return file.replace(/\.asar([\\/])/, '.asar.unpacked$1');
}

export interface PendingChunk {
  id: number;
  text: string;
}

export interface VectorHit {
  chunkId: number;
  /** Cosine similarity, -1…1 (vectors are unit length). */
  similarity: number;
  /** The chunk's vector, read for the similarity anyway: callers need not read it again. */
  vector: Float32Array;
}

const SCAN_BATCH = 2_000;
/**
 * Binary-quantised KNN returns this many candidates per wanted hit for the float re-rank.
 * sqlite-vec picks its top k with k passes over each chunk of vectors, so k drives the cost
 * (10k vectors: k=64 1.4 ms, k=40 1.0 ms, k=20 0.7 ms). The hash provider's vectors lose
 * nothing measurable at 2× (LoCoMo recall within 0.1 point of 3×); model vectors keep 3×
 * until that is measured for them.
 */
const OVERSAMPLING = { hash: { factor: 2, min: 40 }, model: { factor: 3, min: 64 } } as const;
const MAX_CANDIDATES = 160;

/** How the whole index is searched for a query's nearest vectors. */
export interface KnnLimits {
  /** Up to this many vectors, one KNN over all of them (hybrid p95 at 100k with it: 26 ms, over the 20 ms budget). */
  flatMax: number;
  /** A model generation above this many vectors gets cells (vectorCells.ts), ready before `flatMax` is passed. */
  cellsFrom: number;
}

export const DEFAULT_KNN_LIMITS: KnnLimits = { flatMax: 50_000, cellsFrom: 40_000 };

export type KnnMode = 'flat' | 'scan' | 'cells' | 'off';

/** Stored in place of a vector the store recomputes from its chunk's text (see `VectorStore.recompute`). */
const RECOMPUTED = Buffer.alloc(0);

interface StoredVector {
  chunk_id: number;
  vector: Buffer;
  /** The chunk's stored text (index/chunkText.ts) when its vector is recomputed, else null. */
  packed: Buffer | null;
}

/**
 * The vectors of one embedding generation: exact floats in `vectors_<key>` (the re-rank and
 * fallback source) and, with sqlite-vec, a binary-quantised `vec0` index for fast KNN.
 *
 * The built-in hash provider's floats are not stored when sqlite-vec is there: they are a
 * deterministic function of the chunk's text and cost microseconds, so the re-rank recomputes the
 * few it reads (identical floats, so identical results), and `vectors_<key>` keeps an empty blob
 * per chunk only to say "embedded". They were a fifth of the index. Without sqlite-vec every
 * search scans all vectors, so there they are stored as before.
 */
export class VectorStore {
  readonly key: string;
  readonly id: string;
  private readonly floatsTable: string;
  private readonly vecTable: string;
  private readonly stmts;
  /** Cells for whole-index KNN over many model vectors; hash vectors never get them (see knnMode). */
  private readonly cells: VectorCells | null;
  /** Recomputes this generation's vectors from chunk text: the hash provider of the very same generation, else null. */
  private readonly recompute: HashEmbeddingProvider | null;
  /** False when `put` stores an empty blob and reads recompute the vector. */
  private readonly storesFloats: boolean;
  /**
   * Recently recomputed vectors by chunk id, with the stored text they came from (a chunk id whose
   * text changed is recomputed): searches keep meeting the same candidates, and a hit is a
   * comparison of the stored bytes instead of inflating them and ~50 µs of hashing. `checked` is the index's write stamp when the text
   * was last compared: while no connection has written since, the vector is still the chunk's
   * and `vectorsOf` need not read the text again (see `keptUnchanged`).
   */
  private readonly recomputed = new Map<number, KeptVector>();
  /** The write stamp `vectorsOf` read last, before reading any text: what texts read after it are checked against. */
  private stamp = '';
  private readonly writeStamp: () => string;

  constructor(
    private readonly db: Database.Database,
    readonly generation: EmbeddingGeneration,
    readonly backend: VectorBackend,
    mode: 'create' | 'existing' = 'create',
    private readonly limits: KnnLimits = DEFAULT_KNN_LIMITS,
  ) {
    this.id = generationId(generation);
    this.writeStamp = writeStampReader(db);
    this.key = sha256Hex(this.id).slice(0, 12);
    this.floatsTable = `vectors_${this.key}`;
    this.vecTable = `vec_${this.key}`;
    if (mode === 'create') this.ensureTables();
    const hasCells =
      backend === 'sqlite-vec' &&
      generation.provider !== 'hash' &&
      db.prepare('SELECT 1 FROM sqlite_master WHERE name = ?').get(VectorCells.tableName(this.key)) !== undefined;
    this.cells = hasCells ? new VectorCells(db, this.key, generation.dims) : null;
    this.recompute = recomputingProvider(generation);
    this.storesFloats = !(this.recompute && backend === 'sqlite-vec');
    // With a recomputing provider, reads bring the text of chunks whose vector is not stored.
    const read = this.recompute
      ? `SELECT v.chunk_id, v.vector, CASE WHEN length(v.vector) = 0 THEN c.text END AS packed FROM ${this.floatsTable} v JOIN chunks c ON c.id = v.chunk_id`
      : `SELECT v.chunk_id, v.vector, NULL AS packed FROM ${this.floatsTable} v`;
    this.stmts = {
      pending: withChunkTexts(db.prepare<[number, number], PendingChunk>(
        `SELECT c.id, c.text FROM chunks c LEFT JOIN ${this.floatsTable} v ON v.chunk_id = c.id
         WHERE v.chunk_id IS NULL AND c.id > ? ORDER BY c.id LIMIT ?`,
      )),
      countEmbedded: db.prepare<[], { n: number }>(`SELECT count(*) AS n FROM ${this.floatsTable}`),
      newestChunk: db.prepare<[], { id: number | null; embedded: number }>(
        `SELECT newest.id, EXISTS (SELECT 1 FROM ${this.floatsTable} v WHERE v.chunk_id = newest.id) AS embedded FROM (SELECT max(id) AS id FROM chunks) newest`,
      ),
      putFloat: db.prepare(`INSERT OR REPLACE INTO ${this.floatsTable} (chunk_id, vector) VALUES (?, ?)`),
      getFloat: db.prepare<[number], StoredVector>(`${read} WHERE v.chunk_id = ?`),
      getFloats: db.prepare<[string], StoredVector>(`${read} WHERE v.chunk_id IN (SELECT value FROM json_each(?))`),
      scan: db.prepare<[number, number], StoredVector>(`${read} WHERE v.chunk_id > ? ORDER BY v.chunk_id LIMIT ?`),
      putBits: backend === 'sqlite-vec' ? db.prepare(`INSERT OR REPLACE INTO ${this.vecTable} (rowid, embedding) VALUES (?, vec_bit(?))`) : null,
      knnBits:
        backend === 'sqlite-vec'
          ? db.prepare<[Buffer, number], { rowid: number }>(`SELECT rowid FROM ${this.vecTable} WHERE embedding MATCH vec_bit(?) AND k = ?`)
          : null,
    };
  }

  /**
   * The vectors of `generation` on a read-only connection (a search worker): null until the
   * engine has created its tables.
   */
  static openExisting(db: Database.Database, generation: EmbeddingGeneration, backend: VectorBackend, limits: KnnLimits = DEFAULT_KNN_LIMITS): VectorStore | null {
    const key = sha256Hex(generationId(generation)).slice(0, 12);
    const wanted = backend === 'sqlite-vec' ? [`vectors_${key}`, `vec_${key}`] : [`vectors_${key}`];
    const found = db.prepare('SELECT count(*) AS n FROM sqlite_master WHERE name IN (SELECT value FROM json_each(?))').get(JSON.stringify(wanted)) as { n: number };
    return found.n === wanted.length ? new VectorStore(db, generation, backend, 'existing', limits) : null;
  }

  private ensureTables(): void {
    const g = this.generation;
    this.db.transaction(() => {
      this.db
        .prepare(
          `INSERT OR IGNORE INTO vector_generations (id, table_key, provider, model, dims, preprocessing, created_at)
           VALUES (?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(this.id, this.key, g.provider, g.model, g.dims, g.preprocessing, new Date().toISOString());
      this.db.exec(`CREATE TABLE IF NOT EXISTS ${this.floatsTable} (chunk_id INTEGER PRIMARY KEY, vector BLOB NOT NULL) STRICT`);
      const deletes = [`DELETE FROM ${this.floatsTable} WHERE chunk_id = old.id;`];
      if (this.backend === 'sqlite-vec') {
        this.db.exec(`CREATE VIRTUAL TABLE IF NOT EXISTS ${this.vecTable} USING vec0(embedding bit[${g.dims}])`);
        deletes.push(`DELETE FROM ${this.vecTable} WHERE rowid = old.id;`);
        if (g.provider !== 'hash') {
          VectorCells.createTable(this.db, this.key, g.dims);
          deletes.push(`DELETE FROM ${VectorCells.tableName(this.key)} WHERE rowid = old.id;`);
        }
      }
      // A generation created without sqlite-vec gets its trigger replaced once the extension is back.
      this.db.exec(`DROP TRIGGER IF EXISTS chunks_delete_${this.key}`);
      this.db.exec(`CREATE TRIGGER chunks_delete_${this.key} AFTER DELETE ON chunks BEGIN ${deletes.join(' ')} END`);
    }).immediate();
  }

  /** Chunks of the index that have no vector in this generation yet, in id order after `afterId`. */
  pendingChunks(afterId: number, limit: number): PendingChunk[] {
    return this.stmts.pending.all(afterId, limit);
  }

  /**
   * Whether every chunk has a vector in this generation, from two B-tree lookups instead of a
   * scan of every chunk's text (a no-op sync of a 1M-chunk index read all of it). Sound because a
   * new chunk's id is always above every existing one (rowids without AUTOINCREMENT are max + 1),
   * deleting a chunk deletes its vector (the generation's trigger), and `embedPendingChunks`
   * works in id order: a chunk without a vector means the newest chunk has none either.
   */
  isEveryChunkEmbedded(): boolean {
    const newest = this.stmts.newestChunk.get()!;
    return newest.id === null || newest.embedded === 1;
  }

  embeddedCount(): number {
    return this.stmts.countEmbedded.get()!.n;
  }

  private countCache = { n: 0, at: -Infinity };

  /** The vector count, re-read at most every few seconds (search uses it to choose a strategy). */
  approximateCount(): number {
    const now = performance.now();
    if (now - this.countCache.at > 5_000) this.countCache = { n: this.embeddedCount(), at: now };
    return this.countCache.n;
  }

  /** Stores vectors; call inside a transaction. */
  put(chunkId: number, vector: Float32Array): void {
    if (vector.length !== this.generation.dims) {
      throw new Error(`Vector for chunk ${chunkId} has ${vector.length} dims; generation ${this.id} expects ${this.generation.dims}.`);
    }
    this.stmts.putFloat.run(chunkId, this.storesFloats ? floatsToBlob(vector) : RECOMPUTED);
    if (this.stmts.putBits) {
      const bits = signBits(vector);
      this.stmts.putBits.run(BigInt(chunkId), bits);
      this.cells?.put(chunkId, bits);
    }
  }

  /**
   * How a query's nearest vectors are found over the whole index: one KNN over every vector up
   * to `flatMax`; above it, through the cells of a model generation once they are ready; else not
   * at all (vectors then only re-score the keyword candidates). Hash vectors get no cells: their
   * sign bits do not rank neighbours (bit KNN's top 20 shares 2% with the exact top 20 on the
   * bench's 100k chunks) and exact KNN over them changed no LoCoMo figure by more than 0.05.
   */
  knnMode(): { mode: KnnMode; reason: string | null } {
    const mode = this.mode();
    if (mode !== 'off') return { mode, reason: null };
    const above = `${this.approximateCount().toLocaleString('en-US')} vectors, above ${this.limits.flatMax.toLocaleString('en-US')}`;
    if (this.generation.provider === 'hash') return { mode, reason: `${above}: the built-in hash vectors re-score keyword candidates only` };
    if (!this.cells) return { mode, reason: `${above}: without sqlite-vec, vectors re-score keyword candidates only` };
    return { mode, reason: `${above}: its vector cells are being built; meanwhile vectors re-score keyword candidates only` };
  }

  /** knnMode without its reason: every search asks. */
  private mode(): KnnMode {
    if (this.approximateCount() <= this.limits.flatMax) return this.stmts.knnBits ? 'flat' : 'scan';
    return this.cells?.ready() ? 'cells' : 'off';
  }

  /** Nearest chunks by cosine similarity, best first; null when the whole index cannot be searched (see knnMode). */
  knn(query: Float32Array, k: number): VectorHit[] | null {
    const mode = this.mode();
    if (mode === 'off') return null;
    if (mode === 'scan') return this.scan(query, k);
    const { factor, min } = OVERSAMPLING[this.generation.provider === 'hash' ? 'hash' : 'model'];
    const wanted = Math.min(MAX_CANDIDATES, Math.max(min, k * factor));
    const bits = signBits(query);
    const candidates = mode === 'cells' ? this.cells!.nearest(bits, wanted) : this.stmts.knnBits!.all(bits, wanted).map((c) => c.rowid);
    const hits: VectorHit[] = [];
    for (const [chunkId, vector] of this.vectorsOf(candidates)) hits.push({ chunkId, similarity: dot(query, vector), vector });
    return hits.sort((a, b) => b.similarity - a.similarity || a.chunkId - b.chunkId).slice(0, k);
  }

  /**
   * Builds or renews the cells of a model generation that has grown past `cellsFrom` vectors:
   * first when it gets there, again at twice the vectors they were trained on. Yields between
   * slices; searches keep working meanwhile.
   */
  async maintainCells(shouldStop: () => boolean = () => false): Promise<'ready' | 'stopped' | 'none'> {
    if (!this.cells) return 'none';
    const count = this.embeddedCount();
    if (count <= this.limits.cellsFrom) return 'none';
    const state = this.cells.state();
    if (state?.state === 'ready' && count < state.trainedOn * 2) return 'none';
    return this.cells.rebuild(
      count,
      (after, limit) => this.stmts.scan.all(after, limit).map((r) => ({ chunkId: r.chunk_id, bits: signBits(this.decode(r)) })),
      shouldStop,
    );
  }

  /** Exact search without the extension: bounded batches, never all vectors in memory at once. */
  private scan(query: Float32Array, k: number): VectorHit[] {
    const top: VectorHit[] = [];
    let after = 0;
    for (;;) {
      const rows = this.stmts.scan.all(after, SCAN_BATCH);
      for (const row of rows) {
        const vector = this.decode(row);
        const similarity = dot(query, vector);
        if (top.length < k || similarity > top[top.length - 1]!.similarity) {
          top.push({ chunkId: row.chunk_id, similarity, vector });
          top.sort((a, b) => b.similarity - a.similarity);
          if (top.length > k) top.pop();
        }
      }
      if (rows.length < SCAN_BATCH) return top;
      after = rows[rows.length - 1]!.chunk_id;
    }
  }

  /** The vectors of many chunks in one query (chunks without one are left out). */
  vectorsOf(chunkIds: readonly number[]): Map<number, Float32Array> {
    const found = new Map<number, Float32Array>();
    if (chunkIds.length === 0) return found;
    const unread = this.keptUnchanged(chunkIds, found);
    if (unread.length === 0) return found;
    for (const row of this.stmts.getFloats.all(JSON.stringify(unread))) found.set(row.chunk_id, this.decode(row));
    return found;
  }

  /**
   * Recomputed vectors only: puts in `found` the kept vectors whose text was compared since the
   * index's last write (by any connection), which are still their chunks' vectors, and returns
   * the other ids, to be read. Reading a chunk's text to compare it was most of a search's vector
   * reads once the vectors themselves are kept.
   */
  private keptUnchanged(chunkIds: readonly number[], found: Map<number, Float32Array>): readonly number[] {
    if (!this.recompute || this.storesFloats) return chunkIds;
    this.stamp = this.writeStamp();
    const unread: number[] = [];
    for (const id of chunkIds) {
      const kept = this.recomputed.get(id);
      if (kept && kept.checked === this.stamp) {
        this.recomputed.delete(id); // most recently used last
        this.recomputed.set(id, kept);
        found.set(id, kept.vector);
      } else unread.push(id);
    }
    return unread;
  }

  vectorOf(chunkId: number): Float32Array | null {
    const row = this.stmts.getFloat.get(chunkId);
    return row ? this.decode(row) : null;
  }

  /** Whether `put` stores the floats (false: the hash provider's, recomputed on read). */
  get floatsStored(): boolean {
    return this.storesFloats;
  }

  private recomputeCached(chunkId: number, packed: Buffer): Float32Array {
    const kept = this.recomputed.get(chunkId);
    if (kept && kept.packed.equals(packed)) {
      // Most recently used last: the oldest is the one dropped.
      this.recomputed.delete(chunkId);
      kept.checked = this.stamp;
      this.recomputed.set(chunkId, kept);
      return kept.vector;
    }
    const vector = this.recompute!.embedSync(unpackChunkText(packed));
    this.recomputed.delete(chunkId);
    this.recomputed.set(chunkId, { packed, vector, checked: this.stamp });
    if (this.recomputed.size > RECOMPUTED_KEPT) this.recomputed.delete(this.recomputed.keys().next().value!);
    return vector;
  }

  /** A stored row's floats: decoded, or recomputed from the chunk's text when none were stored. */
  private decode(row: StoredVector): Float32Array {
    if (row.vector.byteLength > 0) return blobToFloats(row.vector);
    if (this.recompute && row.packed !== null) return this.recomputeCached(row.chunk_id, row.packed);
    throw new Error(`The vector of chunk ${row.chunk_id} in ${this.floatsTable} is empty and generation ${this.id} cannot recompute it; delete the index file to rebuild it.`);
  }
}

interface KeptVector {
  /** The chunk's stored text (deflated) the vector was computed from. */
  packed: Buffer;
  vector: Float32Array;
  /** The write stamp read before the text was last compared ('' : never to be trusted without reading it). */
  checked: string;
}

/**
 * Recomputed vectors kept per store (each search worker has one): under 3 KB each (floats and
 * the stored text), so at most about 12 MB. A search meets ~70 candidates spread over the index:
 * with 2,048 kept, on the agents' host bench (2,800 chunks, distinct questions) 5.5 of them a
 * search were recomputed (~0.5 ms); with 4,096, 1.
 */
const RECOMPUTED_KEPT = 4_096;

/** The hash provider that produced `generation`'s vectors, when it did (same scheme, dims and preprocessing). */
function recomputingProvider(generation: EmbeddingGeneration): HashEmbeddingProvider | null {
  if (generation.provider !== 'hash') return null;
  const provider = new HashEmbeddingProvider(generation.dims);
  return generationId(provider.generation) === generationId(generation) ? provider : null;
}

/** Binary quantisation: one bit per dimension, set when the value is positive. */
export function signBits(v: Float32Array): Buffer {
  const bits = Buffer.alloc(Math.ceil(v.length / 8));
  for (let i = 0; i < v.length; i++) if (v[i]! > 0) bits[i >> 3]! |= 1 << (i & 7);
  return bits;
}

export function dot(a: Float32Array, b: Float32Array): number {
  let s = 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) s += a[i]! * b[i]!;
  return s;
}
