import fs from 'node:fs';
import type Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import type { MemoryService } from '../src/engine/memoryService.js';
import { IndexDamageReport } from '../src/index/indexDamage.js';
import { isCorruptionError } from '../src/platform/sqliteSchema.js';
import { DEFAULT_HYBRID } from '../src/search/hybridSearch.js';
import { SearchWorkerPool } from '../src/search/workers/searchWorkerPool.js';
import { scribbleOverPages } from './helpers/damagePages.js';
import { createTempWorkspace, openService, SAMPLE_NOTES, type TempWorkspace } from './helpers/workspace.js';

// These tests count the searches workers answer and read damaged pages again: every search must reach the index.
process.env.REVERIE_SEARCH_CACHE = '0';

let ws: TempWorkspace | undefined;
let service: MemoryService | undefined;
let pool: SearchWorkerPool | undefined;
afterEach(async () => {
  await pool?.close();
  pool = undefined;
  await service?.close();
  service = undefined;
  ws?.cleanup();
  ws = undefined;
});

function bulkNotes(): Record<string, string> {
  const files: Record<string, string> = { ...SAMPLE_NOTES };
  for (let i = 0; i < 100; i++) files[`memory/bulk/${i}.md`] = `# note ${i}\n` + `- bulk line ${i} about harbours and ships\n`.repeat(30);
  return files;
}

const corruptionNotices = async (s: MemoryService): Promise<string[]> => (await s.invoke('status', {})).notices.filter((n) => /corrupted/.test(n));
const indexDb = (s: MemoryService) => (s as unknown as { index: { db: Database.Database } }).index.db;

describe('search workers meeting a damaged index', () => {
  it('reject the search with a typed damage report, not a generic error', async () => {
    ws = createTempWorkspace(bulkNotes());
    service = openService(ws);
    await service.invoke('index.sync', { force: false });
    const indexPath = service.indexPath;
    await service.close();
    service = undefined;
    expect(scribbleOverPages(indexPath, 'chunks_fts_data')).toBeGreaterThan(0);

    pool = new SearchWorkerPool({ indexPath, vectorBackend: 'scan', afterSearch: null, size: 1, embedQuery: () => Promise.reject(new Error('keywords only')) });
    expect(await pool.whenReady()).toBe(true);
    const answer = pool.search({ query: 'harbours', limit: 5, sources: ['memory'], settings: DEFAULT_HYBRID, generation: null, indexChanges: 0 });
    const error = await answer!.then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(IndexDamageReport);
    expect(isCorruptionError(error)).toBe(true);
  });

  it("a hosted search a worker finds damaged rebuilds the index, says so once, and answers (the engine thread's cache hides the damage)", async () => {
    ws = createTempWorkspace(bulkNotes());
    service = openService(ws);
    await service.invoke('index.sync', { force: false });
    expect((await service.invoke('memory.search', { query: 'harbours' })).results).not.toHaveLength(0); // read on the engine thread: its pages cached
    await service.startHosting({ kind: 'daemon', url: null });
    expect(await service.search.whenWorkersReady()).toBe(true);
    indexDb(service).pragma('wal_checkpoint(TRUNCATE)'); // every page in the main file, where the damage goes
    expect(scribbleOverPages(service.indexPath, 'chunks_fts_data')).toBeGreaterThan(0);

    expect((await service.invoke('memory.search', { query: 'harbours' })).results).not.toHaveLength(0);
    expect(await corruptionNotices(service)).toHaveLength(1);
    expect(fs.readdirSync(ws.dataDir, { recursive: true }).some((n) => String(n).includes('.corrupt-'))).toBe(true);
    expect((await service.invoke('memory.search', { query: 'harbours' })).results).not.toHaveLength(0);
    expect(await corruptionNotices(service)).toHaveLength(1);
  });
});
