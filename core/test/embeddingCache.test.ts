import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
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

describe('the embedding cache of model vectors', () => {
  it('embeds each text once: re-chunked or moved text takes its vector from the cache, keyed by a hash of the text', async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'reverie-embedding-cache-'));
    const { db, vectorBackend } = openIndexDatabase(path.join(dir, 'index.sqlite'), { reclaim: false });
    try {
      const store = new IndexStore(db);
      const chunks = ['The NAS is called atlas.', 'Postgres was upgraded to 16.', 'Dentist moved to Thursday.'].map((text, i) => ({ startLine: i + 1, endLine: i + 1, text }));
      db.transaction(() => store.writeFile(row('memory/a.md'), chunks))();
      const provider = new CountingProvider();
      const vectors = new VectorStore(db, provider.generation, vectorBackend);
      expect(await embedPendingChunks(db, vectors, provider)).toMatchObject({ embedded: 3, fromCache: 0 });
      const first = vectors.vectorsOf(db.prepare('SELECT id FROM chunks ORDER BY id').pluck().all() as number[]);

      // The same text under new chunk ids (the file re-indexed, one text moved to another file), plus one new text.
      const oldIds = db.prepare('SELECT id FROM chunks').pluck().all() as number[];
      db.transaction(() => {
        store.writeFile(row('memory/b.md'), [chunks[2]!, { startLine: 4, endLine: 4, text: 'A new line about restic.' }]);
        store.writeFile(row('memory/a.md'), chunks.slice(0, 2));
      })();
      expect((db.prepare('SELECT id FROM chunks').pluck().all() as number[]).filter((id) => oldIds.includes(id))).toEqual([]);
      expect(await embedPendingChunks(db, vectors, provider)).toMatchObject({ embedded: 1, fromCache: 3 });
      expect(provider.embedded).toEqual([...chunks.map((c) => c.text), 'A new line about restic.']);
      const rows = db.prepare('SELECT id, chunk_text(text) AS text FROM chunks ORDER BY id').all() as Array<{ id: number; text: string }>;
      const now = vectors.vectorsOf(rows.map((r) => r.id));
      for (const [i, c] of chunks.entries()) {
        const id = rows.find((r) => r.text === c.text)!.id;
        expect(Array.from(now.get(id)!)).toEqual(Array.from([...first.values()][i]!));
      }
    } finally {
      db.close();
    }
  });
});
