import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type Database from 'better-sqlite3';
import { openIndexDatabase } from '../src/index/database.js';
import { IndexStore, type FileRow, type IndexedChunk } from '../src/index/indexStore.js';

const dirs: string[] = [];
const dbs: Database.Database[] = [];
afterEach(() => {
  for (const db of dbs.splice(0)) db.close();
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function openStore(): IndexStore {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'reverie-together-'));
  dirs.push(dir);
  const { db } = openIndexDatabase(path.join(dir, 'index.sqlite'), { reclaim: false, disableVectorExtension: true });
  dbs.push(db);
  return new IndexStore(db);
}

const rowOf = (p: string): FileRow => ({ path: p, absPath: `/ws/${p}`, source: 'memory', sha256: `sha-${p}`, mtimeMs: 1, size: 10, status: 'indexed', reason: null });
const chunksOf = (p: string, n: number, text = (i: number) => `${p} chunk ${i} about the ferry and 会議室の鍵`): IndexedChunk[] =>
  Array.from({ length: n }, (_, i) => ({ startLine: i * 2 + 1, endLine: i * 2 + 2, text: text(i), origin: 'owner', observedAt: '2026-01-01T00:00:00.000Z' }));

type Step = { write: string; chunks: IndexedChunk[] } | { remove: string };

/** Everything the steps leave in the index: chunk rows with ids, the grams and the keyword index's answers. */
function apply(steps: Step[][], together: boolean): unknown {
  const store = openStore();
  for (const slice of steps) {
    const work = (): void => {
      for (const step of slice) {
        if ('remove' in step) store.removeFile(step.remove);
        else store.writeFile(rowOf(step.write), step.chunks);
      }
    };
    store.transaction(() => (together ? store.writeFilesTogether(work) : work()));
  }
  const db = store.db;
  return {
    chunks: db.prepare('SELECT id, path, source, start_line, end_line, text, origin, session_kind, observed_at FROM chunks ORDER BY id').all(),
    // Which rows hold unspaced-script terms, and how many (`origin` is FTS5's own count of segments written, not content).
    grams: db.prepare('SELECT id, sz FROM chunks_grams_docsize ORDER BY id').all(),
    meetingRoom: db.prepare("SELECT rowid FROM chunks_grams WHERE chunks_grams MATCH '\"会議\"' ORDER BY rowid").all(),
    ferry: db.prepare("SELECT rowid FROM chunks_fts WHERE chunks_fts MATCH 'ferry' ORDER BY rowid").all(),
    runs: db.prepare('SELECT * FROM chunk_source_runs ORDER BY 1').all(),
  };
}

describe('writeFilesTogether', () => {
  it('leaves the chunks, ids, grams and keyword index that writing each file alone leaves', () => {
    const steps: Step[][] = [
      [{ write: 'a.md', chunks: chunksOf('a.md', 3) }, { write: 'b.md', chunks: chunksOf('b.md', 2) }, { write: 'c.md', chunks: chunksOf('c.md', 4) }],
      // c.md holds the highest ids: rewriting it after a new file must not hand its ids to the new one.
      [{ write: 'd.md', chunks: chunksOf('d.md', 2) }, { write: 'c.md', chunks: chunksOf('c.md', 1) }, { write: 'e.md', chunks: chunksOf('e.md', 2) }],
      // A file written twice in one transaction, a file removed after its chunks were written in the same one.
      [{ write: 'f.md', chunks: chunksOf('f.md', 2) }, { write: 'f.md', chunks: chunksOf('f.md', 3) }, { write: 'g.md', chunks: chunksOf('g.md', 1) }, { remove: 'g.md' }, { remove: 'a.md' }],
      // A lone surrogate (half of a pair) goes row by row, as it always did.
      [{ write: 'h.md', chunks: chunksOf('h.md', 2, (i) => `broken \ud83d pair ${i} ferry`) }, { write: 'i.md', chunks: chunksOf('i.md', 2) }],
    ];
    const alone = apply(steps, false);
    expect(apply(steps, true)).toEqual(alone);
    const written = alone as { chunks: unknown[]; ferry: unknown[]; meetingRoom: unknown[] };
    expect(written.chunks.length).toBe(3 + 2 + 2 + 1 + 2 + 3 + 4 - 3);
    expect(written.ferry.length).toBe(written.chunks.length);
    expect(written.meetingRoom.length).toBeGreaterThan(0);
  });
});
