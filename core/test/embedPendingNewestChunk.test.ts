import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { openIndexDatabase } from '../src/index/database.js';
import { embedPendingChunks } from '../src/index/embedSync.js';
import { IndexStore, type FileRow } from '../src/index/indexStore.js';
import { VectorStore } from '../src/index/vectorStore.js';
import { CountingProvider } from './helpers/countingEmbeddings.js';

let dir: string | undefined;
afterEach(() => {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

const row = (p: string): FileRow => ({ path: p, absPath: `/ws/${p}`, source: 'memory', sha256: null, mtimeMs: 0, size: 1, status: 'indexed', reason: null });
const lines = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => ({ startLine: i + 1, endLine: i + 1, text: `${prefix} line ${i} about restic backups number ${i}` }));

function openIndex(): { db: Database.Database; store: IndexStore; file: string } {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'reverie-newest-chunk-'));
  const file = path.join(dir, 'index.sqlite');
  // 'scan' backend: the vectors' own table only, as without sqlite-vec (the invariant does not depend on it).
  const { db } = openIndexDatabase(file, { reclaim: false, disableVectorExtension: true });
  return { db, store: new IndexStore(db), file };
}

/** Chunks with no vector in the generation, counted the slow way (every chunk). */
function chunksWithoutVector(vectors: VectorStore): number {
  return vectors.pendingChunks(0, 1_000_000).length;
}

describe('the embedding pass when every chunk has a vector', () => {
  it('finds the chunks of a re-indexed last file (their ids reused), of a new file, and of a pass stopped part-way', async () => {
    const { db, store } = openIndex();
    try {
      const provider = new CountingProvider();
      const vectors = new VectorStore(db, provider.generation, 'scan');
      expect(vectors.isEveryChunkEmbedded()).toBe(true); // no chunks at all
      db.transaction(() => {
        store.writeFile(row('memory/a.md'), lines('a', 10));
        store.writeFile(row('memory/b.md'), lines('b', 10));
      })();
      expect(vectors.isEveryChunkEmbedded()).toBe(false);
      expect(await embedPendingChunks(db, vectors, provider)).toMatchObject({ embedded: 20 });
      expect(vectors.isEveryChunkEmbedded()).toBe(true);

      // The newest file re-indexed: its chunks are deleted (vectors with them) and the new ones reuse their ids.
      const idsBefore = db.prepare("SELECT id FROM chunks WHERE path = 'memory/b.md'").pluck().all() as number[];
      db.transaction(() => store.writeFile(row('memory/b.md'), lines('b2', 12)))();
      const idsAfter = db.prepare("SELECT id FROM chunks WHERE path = 'memory/b.md'").pluck().all() as number[];
      expect(idsAfter.filter((id) => idsBefore.includes(id)).length).toBeGreaterThan(0);
      expect(vectors.isEveryChunkEmbedded()).toBe(false);
      expect(await embedPendingChunks(db, vectors, provider)).toMatchObject({ embedded: 12 });
      expect(chunksWithoutVector(vectors)).toBe(0);

      // An older file re-indexed (its new chunks above every other) and a pass that stops after its first batch.
      db.transaction(() => store.writeFile(row('memory/a.md'), lines('a2', 150)))();
      let batches = 0;
      const stopped = await embedPendingChunks(db, vectors, provider, { shouldStop: () => batches++ > 0 });
      expect(stopped.embedded).toBe(64);
      expect(vectors.isEveryChunkEmbedded()).toBe(false);
      expect(await embedPendingChunks(db, vectors, provider)).toMatchObject({ embedded: 150 - 64 });
      expect(chunksWithoutVector(vectors)).toBe(0);
      expect(vectors.isEveryChunkEmbedded()).toBe(true);

      // A new generation (another model) has no vectors yet: all of them are pending for it.
      const other = new CountingProvider({ provider: 'llama', model: 'another-model', dims: 384, preprocessing: 'test' });
      const otherVectors = new VectorStore(db, other.generation, 'scan');
      expect(otherVectors.isEveryChunkEmbedded()).toBe(false);
      expect(await embedPendingChunks(db, otherVectors, other)).toMatchObject({ embedded: 162 });
    } finally {
      db.close();
    }
  });

  it('reads no chunk text and counts nothing when nothing is pending', async () => {
    const { db, store, file } = openIndex();
    const provider = new CountingProvider();
    try {
      db.transaction(() => store.writeFile(row('memory/a.md'), lines('a', 30)))();
      await embedPendingChunks(db, new VectorStore(db, provider.generation, 'scan'), provider);
    } finally {
      db.close();
    }
    // The same index through a connection that records every statement it runs.
    const statements: string[] = [];
    const traced = new Database(file, { verbose: (sql) => statements.push(String(sql)) });
    try {
      const vectors = new VectorStore(traced, provider.generation, 'scan', 'existing');
      statements.length = 0;
      provider.embedded = [];
      expect(await embedPendingChunks(traced, vectors, provider)).toMatchObject({ embedded: 0, fromCache: 0 });
      expect(provider.embedded).toEqual([]);
      expect(statements).toHaveLength(1);
      expect(statements[0]).toContain('max(id)');
      expect(statements.join('\n')).not.toMatch(/count\(\*\)|c\.text/);
    } finally {
      traced.close();
    }
  });
});
