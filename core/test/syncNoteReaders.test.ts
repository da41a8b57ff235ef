import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HashEmbeddingProvider } from '../src/embed/hashProvider.js';
import { type IndexStore } from '../src/index/indexStore.js';
import { NoteReaderPool } from '../src/index/noteReaderPool.js';
import { syncIndex, type ChunkVectorSink } from '../src/index/sync.js';
import { sha256Hex } from '../src/platform/hash.js';
import { storesClosedAfterEachTest } from './helpers/indexStores.js';
import { createTempWorkspace, type TempWorkspace } from './helpers/workspace.js';

// A large sync reads, chunks, dates and (for hash vectors) embeds its files on note reader
// threads while the engine thread writes: the index must be the one this thread alone writes,
// and a reader's failure, a stop, or a file changed mid-sync must end as they do on this thread.

let ws: TempWorkspace;
const stores = storesClosedAfterEachTest(() => ws.dataDir);
const pools: NoteReaderPool[] = [];

/** Daily notes with dates to resolve, a front-matter note, a non-UTF-8 file and a file of NUL bytes among them. */
function notes(count: number): Record<string, string> {
  const files: Record<string, string> = {
    'notes/front.md': '---\ndate: 2026-03-02\n---\n# Planning\nNext Tuesday we ship the ledgerd fix.\n',
    'notes/empty.md': '',
  };
  for (let i = 0; i < count; i++) {
    const day = `2026-${String(1 + (i % 12)).padStart(2, '0')}-${String(1 + (i % 28)).padStart(2, '0')}`;
    const lines = Array.from({ length: 20 + (i % 30) }, (_, k) => `- line ${k} of note ${i}: met Dana ${k % 3 === 0 ? 'two weeks ago' : 'yesterday'} about the restic backup ${i * 7 + k}.`);
    files[`memory/${day}-${String(i).padStart(4, '0')}.md`] = `# ${day}\n${lines.join('\n')}\n`;
  }
  return files;
}

// More than the waves a sync sends ahead (6 of 32 files): the last notes are read only after the first waves are written.
const NOTES = 300;
const FILES = NOTES + 4;

beforeEach(() => {
  ws = createTempWorkspace(notes(NOTES));
  fs.writeFileSync(path.join(ws.root, 'notes', 'latin1.md'), Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]));
  fs.writeFileSync(path.join(ws.root, 'notes', 'binary.md'), Buffer.from([0x61, 0x00, 0x62]));
});
afterEach(async () => {
  await Promise.all(pools.splice(0).map((p) => p.close()));
  ws.cleanup();
});

const openStore = stores.open;

const discovery = () => ({ workspaceRoot: ws.root, extraPaths: ['notes'] });

/** Everything a sync writes, ids included (search ties follow them), without write times. */
function snapshot(store: IndexStore) {
  return {
    files: store.db.prepare('SELECT path, abs_path, source, sha256, mtime_ms, size, status, reason FROM files ORDER BY path').all(),
    chunks: store.db.prepare('SELECT id, path, source, start_line, end_line, chunk_text(text) AS text, origin, session_kind, observed_at FROM chunks ORDER BY id').all(),
    lineDates: store.db.prepare('SELECT path, line, day_from, day_to, precision FROM line_dates ORDER BY 1, 2, 3, 4').all(),
  };
}

/** A sink that keeps the vectors a sync stores, by chunk id. */
function vectorSink(): ChunkVectorSink & { stored: Map<number, Float32Array> } {
  const stored = new Map<number, Float32Array>();
  return { dims: 384, stored, put: (id, vector) => void stored.set(id, Float32Array.from(vector)) };
}

describe('note reader threads', () => {
  it('write the index this thread writes alone, with each chunk’s hash vector', async () => {
    const alone = openStore('alone');
    const aloneReport = await syncIndex(alone, discovery(), { maxFileBytes: 1024 * 1024, readerThreads: 0 });
    const threaded = openStore('threaded');
    const sink = vectorSink();
    const threadedReport = await syncIndex(threaded, discovery(), { maxFileBytes: 1024 * 1024, readerThreads: 1, chunkVectors: sink });

    expect({ ...threadedReport, durationMs: 0 }).toEqual({ ...aloneReport, durationMs: 0 });
    expect(threadedReport.problems.map((p) => p.path).sort()).toEqual(['notes/binary.md', 'notes/latin1.md']);
    const snap = snapshot(threaded);
    expect(snap).toEqual(snapshot(alone));
    expect(snap.lineDates.length).toBeGreaterThan(NOTES);

    const chunks = snap.chunks as Array<{ id: number; text: string }>;
    expect([...sink.stored.keys()].sort((a, b) => a - b)).toEqual(chunks.map((c) => c.id));
    const hash = new HashEmbeddingProvider();
    for (const c of chunks) expect(sink.stored.get(c.id)).toEqual(hash.embedSync(c.text));
  });

  it('store hash vectors only when asked to, and the next sync of unchanged files reads none', async () => {
    const store = openStore('plain');
    await syncIndex(store, discovery(), { maxFileBytes: 1024 * 1024, readerThreads: 1 });
    const sink = vectorSink();
    const again = await syncIndex(store, discovery(), { maxFileBytes: 1024 * 1024, readerThreads: 1, chunkVectors: sink });
    expect(again.unchanged).toBe(again.files - again.skipped);
    expect(sink.stored.size).toBe(0);
  });

  it('index a file changed after discovery as it was read', async () => {
    const store = openStore('changed');
    const late = 'memory/2026-12-28-0251.md'; // the last daily note: read long after the first waves went out
    const changed = '# Changed\nThe canal walk moved to Friday.\n';
    let asked = 0;
    const report = await syncIndex(store, discovery(), {
      maxFileBytes: 1024 * 1024,
      readerThreads: 1,
      // Asked before the first wave is written: discovery is done, the late file not read yet.
      shouldStop: () => {
        if (asked++ === 0) fs.writeFileSync(path.join(ws.root, late), changed);
        return false;
      },
    });
    expect(report.failed).toBe(0);
    const row = store.db.prepare('SELECT sha256, size FROM files WHERE path = ?').get(late);
    expect(row).toEqual({ sha256: sha256Hex(Buffer.from(changed)), size: Buffer.byteLength(changed) });
    expect(store.db.prepare('SELECT chunk_text(text) FROM chunks WHERE path = ?').pluck().all(late)).toEqual([changed.trimEnd()]);
  });

  it('stop between waves when the sync is stopped; the next sync indexes the rest', async () => {
    const store = openStore('stopped');
    let waves = 0;
    const stopped = await syncIndex(store, discovery(), { maxFileBytes: 1024 * 1024, readerThreads: 1, shouldStop: () => ++waves > 2 });
    const indexedFirst = (store.db.prepare('SELECT count(*) FROM files').pluck().get() as number);
    expect(indexedFirst).toBeGreaterThan(0);
    expect(indexedFirst).toBeLessThan(FILES);
    expect(stopped.added).toBe(indexedFirst);

    const rest = await syncIndex(store, discovery(), { maxFileBytes: 1024 * 1024, readerThreads: 1 });
    expect(rest.added + rest.skipped).toBe(FILES - indexedFirst);
    const whole = openStore('whole');
    await syncIndex(whole, discovery(), { maxFileBytes: 1024 * 1024, readerThreads: 0 });
    const withoutIds = (s: IndexStore) => ({ ...snapshot(s), chunks: (snapshot(s).chunks as Array<Record<string, unknown>>).map(({ id: _, ...c }) => c).sort((a, b) => String(a.path).localeCompare(String(b.path)) || Number(a.start_line) - Number(b.start_line)) });
    expect(withoutIds(store)).toEqual(withoutIds(whole));
  });
});

describe('NoteReaderPool', () => {
  const file = (rel: string) => ({ path: rel, absPath: path.join(ws.root, rel), source: 'memory' as const, size: 10, mtimeMs: 0, skipReason: null });
  const options = { maxFileBytes: 1024 * 1024, refreshLineDates: false };

  it('rejects with an error naming the file whose preparation threw', async () => {
    const pool = new NoteReaderPool(1);
    pools.push(pool);
    // Line origins that are no map: preparing the file throws on the reader thread.
    const bad = { file: file('memory/2026-01-01-0000.md'), previous: undefined, lineOrigins: 'not a map' as unknown as ReadonlyMap<string, 'owner'> };
    await expect(pool.prepare([bad], options)).rejects.toThrow(/Preparing memory\/2026-01-01-0000\.md for the index failed on a note reader thread: /);
    // The thread is still there for the next files.
    const [ok] = await pool.prepare([{ file: file('memory/2026-01-01-0000.md'), previous: undefined, lineOrigins: undefined }], options);
    expect(ok!.outcome).toBe('added');
  });

  it('fails the reads it holds when closed, naming their files', async () => {
    const pool = new NoteReaderPool(1);
    const jobs = Object.keys(notes(NOTES)).filter((p) => p.startsWith('memory/')).map((p) => ({ file: file(p), previous: undefined, lineOrigins: undefined }));
    const failed = expect(pool.prepare(jobs, options)).rejects.toThrow(new RegExp(String.raw`Preparing memory/2026-01-01-0000\.md \(and ${NOTES - 1} more files\) for the index failed: The note reader threads were closed`));
    await pool.close();
    await failed;
    await expect(pool.prepare(jobs.slice(0, 1), options)).rejects.toThrow(/closed/);
  });

  it('needs at least one thread', () => {
    expect(() => new NoteReaderPool(0)).toThrow(/at least one thread/);
  });
});
