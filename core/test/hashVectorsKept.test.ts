import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { HashEmbeddingProvider } from '../src/embed/hashProvider.js';
import { openIndexDatabase } from '../src/index/database.js';
import { embedPendingChunks } from '../src/index/embedSync.js';
import { IndexStore, type FileRow } from '../src/index/indexStore.js';
import { loadVectorExtension, VectorStore } from '../src/index/vectorStore.js';
import { unpackChunkText } from '../src/index/chunkText.js';

const dbs: Database.Database[] = [];
let dir: string | undefined;
afterEach(() => {
  for (const db of dbs.splice(0)) db.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

const row = (p: string): FileRow => ({ path: p, absPath: `/ws/${p}`, source: 'memory', sha256: null, mtimeMs: 0, size: 1, status: 'indexed', reason: null });
const lines = (words: string, n: number) => Array.from({ length: n }, (_, i) => ({ startLine: i + 1, endLine: i + 1, text: `${words} line ${i}` }));

/** An index with the hash generation's vectors (recomputed from text), and a second, read-only connection to it as a search worker has. */
function openIndex(): { db: Database.Database; store: IndexStore; reader: Database.Database; file: string } {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'reverie-kept-vectors-'));
  const file = path.join(dir, 'index.sqlite');
  const { db } = openIndexDatabase(file, { reclaim: false });
  const reader = new Database(file, { readonly: true });
  loadVectorExtension(reader);
  dbs.push(reader, db);
  return { db, store: new IndexStore(db), reader, file };
}

describe('hash vectors kept between searches', () => {
  it('a chunk id that comes back with other text gets the vector of its new text, whichever connection wrote it', async () => {
    const { db, store, reader } = openIndex();
    const hash = new HashEmbeddingProvider();
    const writer = new VectorStore(db, hash.generation, 'sqlite-vec');
    expect(writer.floatsStored).toBe(false);
    db.transaction(() => {
      store.writeFile(row('memory/a.md'), lines('restic backups on atlas', 5));
      store.writeFile(row('memory/b.md'), lines('the kettle was descaled', 5));
    })();
    await embedPendingChunks(db, writer, hash);
    const searcher = VectorStore.openExisting(reader, hash.generation, 'sqlite-vec')!;
    const textOf = (c: Database.Database, id: number) => unpackChunkText(c.prepare('SELECT text FROM chunks WHERE id = ?').pluck().get(id) as Buffer);
    const ids = db.prepare("SELECT id FROM chunks WHERE path = 'memory/b.md' ORDER BY id").pluck().all() as number[];
    for (const vectors of [writer, searcher]) {
      const first = vectors.vectorsOf(ids);
      expect([...first.keys()].sort((a, b) => a - b)).toEqual(ids);
      // Asked again with nothing written: the same vectors (kept, the text not read again).
      expect(vectors.vectorsOf(ids)).toEqual(first);
      for (const id of ids) expect(first.get(id)).toEqual(hash.embedSync(textOf(db, id)));
    }

    // The newest file re-indexed with other words: its chunks are deleted and the new ones reuse their ids.
    db.transaction(() => store.writeFile(row('memory/b.md'), lines('the violin was practised in the evening', 5)))();
    await embedPendingChunks(db, writer, hash);
    const again = db.prepare("SELECT id FROM chunks WHERE path = 'memory/b.md' ORDER BY id").pluck().all() as number[];
    expect(again).toEqual(ids);
    for (const vectors of [writer, searcher]) {
      const after = vectors.vectorsOf(ids);
      for (const id of ids) expect(after.get(id)).toEqual(hash.embedSync(textOf(reader, id)));
      expect(after.get(ids[0]!)).not.toEqual(hash.embedSync(`the kettle was descaled line 0`));
    }

    // A deleted chunk is left out, also when its vector was kept.
    db.transaction(() => store.writeFile(row('memory/b.md'), []))();
    for (const vectors of [writer, searcher]) expect(vectors.vectorsOf(ids).size).toBe(0);
  });
});
