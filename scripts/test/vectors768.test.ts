import fs from 'node:fs';
import os from 'node:os';
import { describe, expect, it } from 'vitest';
import { runVectors768Bench } from '../bench/vectors768.js';

const tempRoots = (): string[] => fs.readdirSync(os.tmpdir()).filter((name) => name.startsWith('reverie-bench-vectors768-'));

describe('768-dim hybrid search bench (small scale)', () => {
  it('installs a 768-dim model, embeds a sample with it, searches, and reports finite figures', async () => {
    const before = new Set(tempRoots());
    // A 2-layer model and ~1.5k chunks keep this a smoke test; the bench itself uses a 24-layer model and 100k chunks.
    const r = await runVectors768Bench(true, { targetChunks: 1_500, model: { blockCount: 2 }, sampleChunks: 8, questionScale: 0.1, warmupQueries: 2 });

    for (const key of [
      'search_p50_ms_hybrid_100k_768',
      'search_p95_ms_hybrid_100k_768',
      'embed768_query_p50_ms',
      'embed768_query_p95_ms',
      'embed768_texts_per_s',
      'knn768_p95_ms',
      'knn768_flat_p95_ms',
      'search_p95_ms_hybrid_100k_hash_control',
      'rss_mb_100k_768',
      'v768_model_process_rss_mb',
    ]) {
      const value = r[key];
      expect(typeof value, key).toBe('number');
      expect(Number.isFinite(value), `${key} = ${String(value)}`).toBe(true);
      expect(value as number, key).toBeGreaterThan(0);
    }
    expect(r.embedding_dims_768).toBe(768);
    expect(['sqlite-vec', 'scan']).toContain(r.v768_vector_backend);
    expect(r.v768_chunks as number).toBeGreaterThanOrEqual(1_500);
    // Every chunk has a vector: the sample from the model process, the rest synthetic.
    expect(r.v768_vectors).toBe(r.v768_chunks);
    expect(r.v768_vectors_from_model).toBe(8);
    expect((r.v768_vectors_from_model as number) + (r.v768_vectors_synthetic as number)).toBe(r.v768_chunks);
    // Below 50k vectors one KNN covers every vector (no cells); it finds most of the exact top 20.
    expect(r.knn768_mode).toBe('flat');
    expect(r.v768_cells).toBe('none');
    expect(r.knn768_recall_at_20 as number).toBeGreaterThan(0.5);
    expect(r.search_n_768 as number).toBeGreaterThan(20);
    // The temp workspace, data folder and model file are gone.
    expect(tempRoots().filter((name) => !before.has(name))).toEqual([]);
  }, 60_000);
});
