import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { openIndexDatabase } from '../src/index/database.js';
import { dot, VectorStore, type KnnLimits } from '../src/index/vectorStore.js';
import type { EmbeddingGeneration } from '../src/embed/provider.js';
import { insertChunkRow } from './helpers/chunkRows.js';

const MODEL: EmbeddingGeneration = { provider: 'llama', model: 'cells-test', dims: 256, preprocessing: 'test' };
const HASH: EmbeddingGeneration = { provider: 'hash', model: 'hash:fh-words-trigrams', dims: 256, preprocessing: 'hash-v1' };
/** Small limits so a test-sized generation takes the large-index paths. */
const LIMITS: KnnLimits = { flatMax: 2_000, cellsFrom: 1_500 };

/**
 * Seeded unit vectors shaped like embeddings of notes: a subject (`topics` of them), a narrower
 * matter within it (10 per subject), and the note's own variation.
 */
class Clustered {
  private state: number;
  private readonly subtopics: Array<{ topic: Float32Array; own: Float32Array }>;
  constructor(seed: number, topicCount: number, readonly dims: number) {
    this.state = seed;
    const topics = Array.from({ length: topicCount }, () => this.gaussian(1));
    this.subtopics = Array.from({ length: topicCount * 10 }, (_, i) => ({ topic: topics[i % topicCount]!, own: this.gaussian(0.8) }));
  }
  private next(): number {
    let t = (this.state = (this.state + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  private gaussian(scale: number): Float32Array {
    const v = new Float32Array(this.dims);
    for (let i = 0; i < this.dims; i++) v[i] = scale * Math.sqrt(-2 * Math.log(1 - this.next())) * Math.cos(2 * Math.PI * this.next());
    return v;
  }
  /** A vector in a random subtopic: its directions plus noise of `spread` times a subject's size. */
  vector(spread = 0.6): Float32Array {
    const { topic, own } = this.subtopics[Math.floor(this.next() * this.subtopics.length)]!;
    const noise = this.gaussian(spread);
    const v = topic.map((x, i) => x + own[i]! + noise[i]!);
    const n = Math.sqrt(dot(v, v));
    return v.map((x) => x / n);
  }
}

const dirs: string[] = [];
const dbs: Database.Database[] = [];
afterEach(() => {
  for (const db of dbs.splice(0)) db.close();
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

function openIndex(options: { disableVectorExtension?: boolean } = {}): { db: Database.Database; file: string; backend: 'sqlite-vec' | 'scan' } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'reverie-cells-'));
  dirs.push(dir);
  const file = path.join(dir, 'index.sqlite');
  const opened = openIndexDatabase(file, { reclaim: false, ...options });
  dbs.push(opened.db);
  return { db: opened.db, file, backend: opened.vectorBackend };
}

/** Files and chunks rows for ids 1…n, so deleting a chunk runs the generation's delete trigger. */
function addChunks(db: Database.Database, from: number, to: number): void {
  db.prepare(`INSERT OR IGNORE INTO files (path, abs_path, source, mtime_ms, size, status, indexed_at) VALUES ('a.md', '/a.md', 'memory', 0, 0, 'indexed', 0)`).run();
  const insert = { run: (id: number) => insertChunkRow(db, { id, path: 'a.md', source: 'memory', startLine: 1, endLine: 1, text: 'x' }) };
  db.transaction(() => {
    for (let id = from; id <= to; id++) insert.run(id);
  })();
}

function fill(store: VectorStore, db: Database.Database, data: Clustered, from: number, to: number): Map<number, Float32Array> {
  const vectors = new Map<number, Float32Array>();
  addChunks(db, from, to);
  db.transaction(() => {
    for (let id = from; id <= to; id++) {
      const v = data.vector();
      vectors.set(id, v);
      store.put(id, v);
    }
  })();
  return vectors;
}

function exactTop(vectors: ReadonlyMap<number, Float32Array>, query: Float32Array, k: number): number[] {
  return [...vectors]
    .map(([id, v]) => [dot(query, v), id] as const)
    .sort((a, b) => b[0] - a[0] || a[1] - b[1])
    .slice(0, k)
    .map((x) => x[1]);
}

/** Share of the exact top `k` that `knn` finds, over `queries`. */
function recall(store: VectorStore, vectors: ReadonlyMap<number, Float32Array>, queries: readonly Float32Array[], k: number): number {
  let found = 0;
  for (const q of queries) {
    const exact = new Set(exactTop(vectors, q, k));
    found += store.knn(q, k)!.filter((h) => exact.has(h.chunkId)).length;
  }
  return found / (k * queries.length);
}

describe('vector cells: whole-index KNN for large model generations', () => {
  it('searches a generation that outgrew one KNN through its cells, finding what one KNN over every vector finds', async () => {
    const { db, backend } = openIndex();
    expect(backend).toBe('sqlite-vec');
    const store = new VectorStore(db, MODEL, backend, 'create', LIMITS);
    const data = new Clustered(7, 40, MODEL.dims);
    const vectors = fill(store, db, data, 1, 6_000);
    const queries = Array.from({ length: 40 }, () => data.vector());

    // Above flatMax without cells: no whole-index KNN, and status says why.
    expect(store.knnMode()).toEqual({ mode: 'off', reason: expect.stringContaining('being built') });
    expect(store.knn(queries[0]!, 20)).toBeNull();

    expect(await store.maintainCells()).toBe('ready');
    expect(store.knnMode()).toEqual({ mode: 'cells', reason: null });
    const viaCells = recall(store, vectors, queries, 20);

    // The same vectors searched by one KNN over all of them (what the index does below flatMax).
    const flat = new VectorStore(db, MODEL, backend, 'existing', { flatMax: 1e9, cellsFrom: 1e9 });
    expect(flat.knnMode().mode).toBe('flat');
    const viaFlat = recall(flat, vectors, queries, 20);
    // Both re-rank binary candidates (3× oversampled) by their floats.
    expect(viaFlat).toBeGreaterThanOrEqual(0.85);
    expect(viaCells).toBeGreaterThanOrEqual(viaFlat - 0.03);

    // Nothing to renew below twice the vectors the cells were trained on.
    expect(await store.maintainCells()).toBe('none');
  });

  it('files new vectors under their cell, forgets deleted chunks, and renews the cells at twice the vectors', async () => {
    const { db, backend } = openIndex();
    const store = new VectorStore(db, MODEL, backend, 'create', LIMITS);
    const data = new Clustered(11, 30, MODEL.dims);
    const vectors = fill(store, db, data, 1, 2_500);
    expect(await store.maintainCells()).toBe('ready');

    // A vector put after the cells were built is found by a query next to it.
    const probe = data.vector(0.2);
    addChunks(db, 9_001, 9_001);
    db.transaction(() => store.put(9_001, probe))();
    expect(store.knn(probe, 5)![0]!.chunkId).toBe(9_001);

    // Deleting its chunk takes it out of the cells too.
    db.prepare('DELETE FROM chunks WHERE id = ?').run(9_001);
    expect(store.knn(probe, 5)!.map((h) => h.chunkId)).not.toContain(9_001);
    expect(db.prepare(`SELECT count(*) AS n FROM vcells_${store.key}`).get()).toEqual({ n: 2_500 });

    // Grown to twice the vectors: the cells are trained again (more of them) and every vector filed.
    for (const [id, v] of fill(store, db, data, 2_501, 5_000)) vectors.set(id, v);
    const before = db.prepare('SELECT cells, trained_on FROM vector_cells').get() as { cells: number; trained_on: number };
    expect(await store.maintainCells()).toBe('ready');
    const after = db.prepare('SELECT cells, trained_on, state FROM vector_cells').get() as { cells: number; trained_on: number; state: string };
    expect(before.trained_on).toBe(2_500);
    expect(after).toMatchObject({ trained_on: 5_000, state: 'ready' });
    expect(db.prepare(`SELECT count(*) AS n FROM vcells_${store.key}`).get()).toEqual({ n: 5_000 });
    expect(recall(store, vectors, Array.from({ length: 20 }, () => data.vector()), 10)).toBeGreaterThanOrEqual(0.85);
  });

  it('lets a read-only connection (a search worker) use the cells the engine built', async () => {
    const { db, file, backend } = openIndex();
    const store = new VectorStore(db, MODEL, backend, 'create', LIMITS);
    const data = new Clustered(3, 20, MODEL.dims);
    fill(store, db, data, 1, 2_200);
    const reader = openIndexDatabase(file, { readonly: true });
    dbs.push(reader.db);
    const worker = VectorStore.openExisting(reader.db, MODEL, reader.vectorBackend, LIMITS)!;
    expect(worker.knnMode().mode).toBe('off');
    expect(await store.maintainCells()).toBe('ready');
    // The worker re-reads the cells' state every two seconds: a fresh view sees them at once.
    const fresh = VectorStore.openExisting(reader.db, MODEL, reader.vectorBackend, LIMITS)!;
    expect(fresh.knnMode().mode).toBe('cells');
    const q = data.vector();
    expect(fresh.knn(q, 10)!.map((h) => h.chunkId)).toEqual(store.knn(q, 10)!.map((h) => h.chunkId));
  });

  it('never builds cells for the built-in hash vectors, and says so', async () => {
    const { db, backend } = openIndex();
    const store = new VectorStore(db, HASH, backend, 'create', LIMITS);
    fill(store, db, new Clustered(5, 10, HASH.dims), 1, 2_100);
    expect(await store.maintainCells()).toBe('none');
    expect(store.knnMode()).toEqual({ mode: 'off', reason: expect.stringContaining('hash vectors re-score keyword candidates') });
    expect(store.knn(new Clustered(5, 10, HASH.dims).vector(), 10)).toBeNull();
    expect(db.prepare(`SELECT count(*) AS n FROM sqlite_master WHERE name = 'vcells_${store.key}'`).get()).toEqual({ n: 0 });
  });

  it('without sqlite-vec scans every vector up to flatMax and re-scores keyword candidates above it', async () => {
    const { db, backend } = openIndex({ disableVectorExtension: true });
    expect(backend).toBe('scan');
    const store = new VectorStore(db, MODEL, backend, 'create', LIMITS);
    const data = new Clustered(9, 10, MODEL.dims);
    const vectors = fill(store, db, data, 1, 1_000);
    expect(store.knnMode().mode).toBe('scan');
    const q = data.vector();
    expect(store.knn(q, 10)!.map((h) => h.chunkId)).toEqual(exactTop(vectors, q, 10));
    fill(store, db, data, 1_001, 2_100);
    const wider = new VectorStore(db, MODEL, backend, 'existing', LIMITS);
    expect(await wider.maintainCells()).toBe('none');
    expect(wider.knnMode()).toEqual({ mode: 'off', reason: expect.stringContaining('without sqlite-vec') });
  });
});
