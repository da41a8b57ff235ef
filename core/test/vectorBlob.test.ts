import { describe, expect, it } from 'vitest';
import { HashEmbeddingProvider } from '../src/embed/hashProvider.js';
import { blobToFloats, floatsToBlob } from '../src/index/vectorBlob.js';

describe('vector blobs', () => {
  it('stores a short entry’s hash vector sparsely and reads back the same floats', () => {
    const v = new HashEmbeddingProvider().embedSync('Mira deploys the staging gateway for Kestrel with pnpm.');
    const blob = floatsToBlob(v);
    expect(blob.byteLength).toBeLessThan(v.byteLength / 2);
    expect(Array.from(blobToFloats(blob))).toEqual(Array.from(v));
  });

  it('keeps a dense vector dense, and reads blobs written before sparse storage existed', () => {
    const dense = Float32Array.from({ length: 384 }, (_, i) => Math.sin(i + 1) / 10);
    const blob = floatsToBlob(dense);
    expect(blob.byteLength).toBe(dense.byteLength);
    expect(Array.from(blobToFloats(blob))).toEqual(Array.from(dense));
    // An old row: the raw bytes at an unaligned offset in a larger buffer.
    const pool = Buffer.alloc(blob.byteLength + 3);
    blob.copy(pool, 3);
    expect(Array.from(blobToFloats(pool.subarray(3)))).toEqual(Array.from(dense));
  });

  it('round-trips the zero vector of an entry with no words', () => {
    const zero = new HashEmbeddingProvider().embedSync('— … —');
    expect(Array.from(blobToFloats(floatsToBlob(zero)))).toEqual(Array.from(zero));
  });

  it('gives a word the same vector whether its features were remembered or not', () => {
    const provider = new HashEmbeddingProvider();
    const first = provider.embedSync('restic backs up nightly snapshots; restic rotates keys');
    provider.embedSync('snapshots nightly restic keys rotates backs');
    expect(Array.from(provider.embedSync('restic backs up nightly snapshots; restic rotates keys'))).toEqual(Array.from(first));
    expect(Array.from(new HashEmbeddingProvider().embedSync('restic backs up nightly snapshots; restic rotates keys'))).toEqual(Array.from(first));
  });
});
