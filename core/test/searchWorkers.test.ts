import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import type { SearchResult } from '../src/contract/index.js';
import type { MemoryService } from '../src/engine/memoryService.js';
import type { SearchWorkerPool } from '../src/search/workers/searchWorkerPool.js';
import { writeBertGguf } from './fixtures/gguf.js';
import { createTempWorkspace, openService, SAMPLE_NOTES, type TempWorkspace } from './helpers/workspace.js';

// These tests count the searches workers answer and read damaged pages again: every search must reach the index.
process.env.REVERIE_SEARCH_CACHE = '0';

let ws: TempWorkspace | undefined;
let service: MemoryService | undefined;
afterEach(async () => {
  await service?.close();
  service = undefined;
  ws?.cleanup();
  ws = undefined;
});

const QUERIES = ['restic backups', 'who is out sick', 'timezone bug ledgerd', 'postgres upgrade', 'lantern garden 2026-03-0', 'what did we decide about the canary rollout?'];

/** A workspace with more than the sample notes, so rankings have something to order. */
function notes(): Record<string, string> {
  const files: Record<string, string> = { ...SAMPLE_NOTES };
  const topics = ['canary rollout', 'lantern garden', 'restic retention', 'postgres vacuum', 'standup notes', 'timezone cutoff'];
  for (let day = 1; day <= 28; day++) {
    const d = String(day).padStart(2, '0');
    const lines = topics.map((t, i) => `- ${t}: decision ${day * 7 + i} about the ${topics[(day + i) % topics.length]} (${['Sam', 'Ana', 'Lee'][(day + i) % 3]})`);
    files[`memory/2026-03-${d}.md`] = `# 2026-03-${d}\n\n${lines.join('\n')}\n`;
  }
  return files;
}

async function searchAll(s: MemoryService): Promise<SearchResult[][]> {
  const out: SearchResult[][] = [];
  for (const query of QUERIES) out.push((await s.invoke('memory.search', { query, limit: 8 })).results);
  return out;
}

const poolOf = (s: MemoryService) => (s as unknown as { search: { pool: SearchWorkerPool } }).search.pool;

/** Indexes the notes, searches them on the engine thread, then starts hosting (with search workers): what the workers must answer. */
async function hostedAfterSearchingOnTheEngineThread(): Promise<{ hosted: MemoryService; expected: SearchResult[][] }> {
  ws = createTempWorkspace(notes());
  const hosted = (service = openService(ws));
  await hosted.invoke('index.sync', {});
  const expected = await searchAll(hosted);
  await hosted.startHosting({ kind: 'daemon', url: null });
  expect(await hosted.search.whenWorkersReady()).toBe(true);
  return { hosted, expected };
}

describe('search workers (hosts)', () => {
  it('answer hosted searches on worker threads with exactly the results of the engine thread, and see what it writes', async () => {
    ws = createTempWorkspace(notes());
    service = openService(ws);
    await service.invoke('index.sync', {});
    expect(service.search.workers()).toBeNull(); // a one-shot engine (CLI) searches on its own thread
    const onEngineThread = await searchAll(service);
    expect(onEngineThread.every((r) => r.length > 0)).toBe(true);

    await service.startHosting({ kind: 'daemon', url: null });
    expect(await service.search.whenWorkersReady()).toBe(true);
    const before = service.search.workers()!;
    const onWorkers = await searchAll(service);
    expect(onWorkers).toEqual(onEngineThread);
    const after = service.search.workers()!;
    expect(after.answered - before.answered).toBe(QUERIES.length);
    expect(after.onEngineThread).toBe(before.onEngineThread);

    // Concurrent searches spread over the workers and all come back right.
    const concurrent = await Promise.all(QUERIES.flatMap((query) => [query, query]).map((query) => service!.invoke('memory.search', { query, limit: 8 })));
    expect(concurrent.map((r) => r.results)).toEqual(QUERIES.flatMap((_, i) => [onEngineThread[i], onEngineThread[i]]));

    // A note the engine indexes is found by the workers' own connections.
    ws.write('memory/2026-04-09.md', '# 2026-04-09\n\n- The zeppelin hangar lease ends in June.\n');
    await service.invoke('index.sync', {});
    const found = (await service.invoke('memory.search', { query: 'zeppelin hangar' })).results;
    expect(found[0]?.path).toBe('memory/2026-04-09.md');
    expect(service.search.workers()!.onEngineThread).toBe(before.onEngineThread);
  }, 60_000);

  it("resolve the entries each result recalled on the worker: dreaming gets the same signals as from the engine thread", async () => {
    ws = createTempWorkspace(notes());
    let now = Date.now();
    service = openService(ws, { now: () => now });
    await service.invoke('index.sync', {});
    const signals = async (): Promise<unknown[]> => {
      await service!.dreams.recorder.whenResolved(); // workers send the recalled entries after the results
      service!.dreams.recorder.flush();
      const db = new Database(path.join(ws!.dataDir, 'dreaming', `${service!.workspace.id}.sqlite`), { readonly: true });
      try {
        return db.prepare('SELECT path, start_line, end_line, entry_hash, query_hash, score, transport FROM recall_signals ORDER BY id').all();
      } finally {
        db.close();
      }
    };
    await searchAll(service);
    const onEngineThread = await signals();
    expect(onEngineThread.length).toBeGreaterThan(QUERIES.length);

    await service.startHosting({ kind: 'daemon', url: null });
    expect(await service.search.whenWorkersReady()).toBe(true);
    const answered = service.search.workers()!.answered;
    now += 11 * 60_000; // the same queries again later: within 10 minutes they would be one look
    await searchAll(service);
    expect(service.search.workers()!.answered).toBe(answered + QUERIES.length);
    // Two workers may send their recalled entries in either order: compare the rows, not their order.
    const sorted = (rows: unknown[]): string[] => rows.map((r) => JSON.stringify(r)).sort();
    expect(sorted(await signals())).toEqual(sorted([...onEngineThread, ...onEngineThread]));
  }, 60_000);

  it('share one queue: a worker holds at most two searches, the rest wait for whichever worker has room first', async () => {
    const { hosted, expected } = await hostedAfterSearchingOnTheEngineThread();
    const pool = poolOf(hosted) as unknown as { queue: unknown[]; workers: Array<{ searching: number; worker: { postMessage(m: unknown): void } }> };
    while (pool.workers.some((w) => !(w as unknown as { ready: boolean }).ready)) await new Promise((r) => setTimeout(r, 20));
    let mostHeld = 0;
    let mostQueued = 0;
    for (const w of pool.workers) {
      const post = w.worker.postMessage.bind(w.worker);
      w.worker.postMessage = (message: unknown) => {
        mostHeld = Math.max(mostHeld, w.searching);
        mostQueued = Math.max(mostQueued, pool.queue.length);
        post(message);
      };
    }
    const answered = hosted.search.workers()!.answered;
    const rounds = 4;
    const all = await Promise.all(Array.from({ length: rounds }, () => QUERIES.map((query) => hosted.invoke('memory.search', { query, limit: 8 }))).flat());
    expect(all.map((r) => r.results)).toEqual(Array.from({ length: rounds }, () => expected).flat());
    expect(hosted.search.workers()!.answered).toBe(answered + rounds * QUERIES.length);
    expect(mostHeld).toBeLessThanOrEqual(2);
    expect(mostQueued).toBeGreaterThan(0); // more searches than room: some waited in the shared queue
    expect(pool.queue).toHaveLength(0);
  }, 60_000);

  it('answers on the engine thread while a worker is gone, and replaces the worker', async () => {
    const { hosted, expected } = await hostedAfterSearchingOnTheEngineThread();
    const pool = poolOf(hosted);
    const size = (pool as unknown as { workers: unknown[] }).workers.length;
    expect(size).toBeGreaterThan(0);

    // Every worker dies while searches are in flight: each search still gets its answer.
    const inFlight = QUERIES.map((query) => hosted.invoke('memory.search', { query, limit: 8 }));
    for (const w of (pool as unknown as { workers: Array<{ worker: { terminate(): Promise<number> } }> }).workers) void w.worker.terminate();
    expect((await Promise.all(inFlight)).map((r) => r.results)).toEqual(expected);
    expect(await searchAll(hosted)).toEqual(expected);
    expect(hosted.search.workers()!.onEngineThread).toBeGreaterThan(0);

    // Replacements start after a short pause and answer again.
    const deadline = Date.now() + 20_000;
    while (hosted.search.workers()!.ready < size && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(hosted.search.workers()!.ready).toBe(size);
    const answered = hosted.search.workers()!.answered;
    expect(await searchAll(hosted)).toEqual(expected);
    expect(hosted.search.workers()!.answered).toBe(answered + QUERIES.length);
  }, 60_000);

  it('search with a local GGUF embedding model: the worker asks the engine for query vectors', async () => {
    ws = createTempWorkspace(notes());
    service = openService(ws);
    const model = writeBertGguf(path.join(ws.dataDir, '..', 'tiny-bert.gguf'), { embeddingLength: 32, seed: 7 });
    await service.invoke('models.pull', { uri: model, role: 'embedding' });
    await service.switchEmbeddingProvider();
    await service.sync(false); // the derived work (entry kinds, which results carry) done too: answers compared whole
    const expected = await searchAll(service);
    expect(expected.flat().some((r) => r.matchedBy.includes('vector'))).toBe(true);

    await service.startHosting({ kind: 'daemon', url: null });
    expect(await service.search.whenWorkersReady()).toBe(true);
    const answered = service.search.workers()!.answered;
    expect(await searchAll(service)).toEqual(expected);
    expect(service.search.workers()!.answered).toBe(answered + QUERIES.length);
  }, 90_000);

  it('while the engine indexes, a lone search (a person typing) runs between its slices; overlapping searches go to the workers', async () => {
    const files = notes();
    for (let i = 0; i < 3_000; i++) files[`memory/archive/n${i}.md`] = `# Note ${i}\n\n- item ${i} about the canary rollout and restic retention\n`;
    ws = createTempWorkspace(files);
    service = openService(ws);
    await service.startHosting({ kind: 'daemon', url: null });
    expect(await service.search.whenWorkersReady()).toBe(true);
    let synced = false;
    const sync = service.invoke('index.sync', {}).then(() => (synced = true));
    await new Promise<void>((resolve) => {
      const stop = service!.onDidEmitEvent((e) => {
        if (e.type === 'index-progress') {
          stop();
          resolve();
        }
      });
    });
    const before = service.search.workers()!;
    await service.invoke('memory.search', { query: 'canary rollout', limit: 8 });
    const stillIndexing = !synced; // indexing, or extracting the graph
    const afterLone = service.search.workers()!;
    if (stillIndexing) {
      expect(afterLone.onEngineThread).toBe(before.onEngineThread + 1);
      expect(afterLone.answered).toBe(before.answered);
    }
    await Promise.all(QUERIES.map((query) => service!.invoke('memory.search', { query, limit: 8 })));
    expect(service.search.workers()!.answered).toBeGreaterThanOrEqual(afterLone.answered + QUERIES.length - 1);
    await sync;

    // With the engine idle, even a lone search goes to a worker.
    await new Promise((r) => setTimeout(r, 50));
    const idle = service.search.workers()!;
    await service.invoke('memory.search', { query: 'canary rollout', limit: 8 });
    expect(service.search.workers()!.answered).toBe(idle.answered + 1);
    expect(stillIndexing).toBe(true); // the workspace is large enough for the search to land mid-sync
  }, 90_000);
});
