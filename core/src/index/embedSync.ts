import type Database from 'better-sqlite3';
import type { EmbeddingProvider } from '../embed/provider.js';
import type { SyncProgress } from './sync.js';
import { sha256Hex } from '../platform/hash.js';
import { blobToFloats, floatsToBlob, type PendingChunk, type VectorStore } from './vectorStore.js';

const BATCH = 64;
// Hash vectors cost microseconds each: bigger batches mean fewer commits and queries (a 2 MB
// Hermes import has 18,000 entries), and a batch still takes only tens of milliseconds.
const HASH_BATCH = 512;
const PROGRESS_INTERVAL_MS = 100;

export interface EmbedReport {
  embedded: number;
  fromCache: number;
  durationMs: number;
}

/**
 * Gives every chunk a vector in the active generation. Unchanged text is never embedded twice:
 * the cache is keyed by (generation, sha256(text)), so re-chunking a file or switching back to
 * an earlier model costs lookups only. Work goes in bounded batches, yielding between them.
 */
export async function embedPendingChunks(
  db: Database.Database,
  vectors: VectorStore,
  provider: EmbeddingProvider,
  options: {
    onProgress?: (p: SyncProgress) => void;
    shouldStop?: () => boolean;
    /** Runs after each batch is stored (the vector cells of a growing model generation). */
    afterBatch?: () => Promise<unknown>;
  } = {},
): Promise<EmbedReport> {
  const started = performance.now();
  const report: EmbedReport = { embedded: 0, fromCache: 0, durationMs: 0 };
  // The common case (every no-op sync, a CLI search without a host) costs two lookups, not a pass over every chunk.
  if (vectors.isEveryChunkEmbedded()) {
    report.durationMs = Math.round(performance.now() - started);
    return report;
  }
  const generation = vectors.id;
  const total = (db.prepare('SELECT count(*) AS n FROM chunks').get() as { n: number }).n;
  const cacheGet = db.prepare<[string, string], { vector: Buffer }>('SELECT vector FROM embedding_cache WHERE generation = ? AND text_hash = ?');
  const cachePut = db.prepare('INSERT OR REPLACE INTO embedding_cache (generation, text_hash, vector, used_at) VALUES (?, ?, ?, ?)');
  // Hash vectors cost less to compute than to look up: only model vectors are cached.
  const useCache = provider.generation.provider !== 'hash';
  const batch = useCache ? BATCH : HASH_BATCH;
  let done = vectors.embeddedCount();
  let lastProgress = 0;
  let after = 0;

  for (;;) {
    if (options.shouldStop?.()) break;
    const pending = vectors.pendingChunks(after, batch);
    if (pending.length === 0) break;
    after = pending[pending.length - 1]!.id;

    const ready: Array<{ id: number; vector: Float32Array; hash: string; fresh: boolean }> = [];
    const missing: Array<PendingChunk & { hash: string }> = [];
    for (const chunk of pending) {
      // The cache key: sha256 of the text, computed here (the index keeps no hash per chunk).
      const hash = useCache ? sha256Hex(chunk.text) : '';
      const cached = useCache ? cacheGet.get(generation, hash) : undefined;
      if (cached) ready.push({ id: chunk.id, vector: blobToFloats(cached.vector), hash, fresh: false });
      else missing.push({ ...chunk, hash });
    }
    if (missing.length > 0) {
      const fresh = await provider.embedBatch(missing.map((c) => c.text));
      missing.forEach((c, i) => ready.push({ id: c.id, vector: fresh[i]!, hash: c.hash, fresh: true }));
    }
    const now = Date.now();
    db.transaction(() => {
      for (const r of ready) {
        vectors.put(r.id, r.vector);
        if (r.fresh && useCache) cachePut.run(generation, r.hash, floatsToBlob(r.vector), now);
      }
    }).immediate();
    report.embedded += missing.length;
    report.fromCache += ready.length - missing.length;
    done += ready.length;

    const t = performance.now();
    if (t - lastProgress >= PROGRESS_INTERVAL_MS) {
      lastProgress = t;
      options.onProgress?.({ phase: 'embed', done: Math.min(done, total), total, path: null });
    }
    await options.afterBatch?.();
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  options.onProgress?.({ phase: 'embed', done: Math.min(done, total), total, path: null });
  report.durationMs = Math.round(performance.now() - started);
  return report;
}
