import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type Database from 'better-sqlite3';
import type { MemoryService } from '../src/engine/memoryService.js';
import { AliasBook } from '../src/graph/aliases/aliasBook.js';
import { ExtractionPool } from '../src/graph/extractionPool.js';
import { extractIndexedFile } from '../src/graph/extractionSteps.js';
import { updateGraph } from '../src/graph/graphUpdate.js';
import { emptyGraph, graphRows } from './helpers/graphSnapshot.js';
import { closedAfterEachTest } from './helpers/openedServices.js';

const open = closedAfterEachTest();

const db = (s: MemoryService) => (s as unknown as { db: Database.Database }).db;

/** Notes that exercise what resolution depends on: first names joined then split again (a second pass), short names, relations, tables, votes. */
const NOTES: Record<string, string> = {
  'USER.md': '# User\n\nName: Mika Tanaka\n',
  'memory/2026-03-01.md': '# 2026-03-01\n\n- Dana said the ledgerd deploy is done.\n- Lunch with Priya at Mawingu Labs in Lavington.\n',
  'memory/2026-03-02.md': '# 2026-03-02\n\n- Dana Okafor owns ledgerd; it runs on hestia-01.\n- Moved to Lisbon.\n',
  'memory/2026-03-03.md': '# 2026-03-03\n\n- Dana is out today. Priya Natarajan leads the Payouts team.\n',
  'memory/2026-03-04.md': '# 2026-03-04\n\n- Call with Dana Silva about the Tidewater Systems contract.\n- Jade Liang works at Tidewater Systems.\n',
  'memory/2026-03-05.md': '# 2026-03-05\n\n| service | host | since |\n|---|---|---|\n| ledgerd | hestia-01 | 2026 |\n| Miniflux | atlas | 2025 |\n',
  'memory/people/priya.md': '# Priya Natarajan\n\n- Staff engineer at Quillfin\n- Lives in Wedding.\n',
  'memory/projects/ledgerd.md': '---\ntitle: ledgerd\nstatus: active\n---\n# ledgerd\n\n- lead: Dana Okafor\n- Uses Postgres 16 and Tailscale.\n',
};

describe('graph extraction on worker threads', () => {
  it('writes the same graph, row for row, as extraction on the engine thread', async () => {
    const { service } = open(NOTES);
    await service.invoke('index.sync', {});
    const d = db(service);
    const options = { extraction: { writerName: 'Mika Tanaka' }, aliases: new AliasBook() };

    emptyGraph(d);
    const inline = await updateGraph(d, { ...options, parallelFromFiles: Infinity });
    const inlineRows = graphRows(d);
    expect(inline.extracted).toBe(Object.keys(NOTES).length);
    // The notes name something: an empty graph would prove nothing.
    expect((inlineRows.graph_claims ?? []).length).toBeGreaterThan(10);

    emptyGraph(d);
    const threaded = await updateGraph(d, { ...options, parallelFromFiles: 1 });
    expect(threaded.extracted).toBe(inline.extracted);
    expect(graphRows(d)).toEqual(inlineRows);
  });

  it('skips a file that vanished after indexing, as the engine thread does', async () => {
    const { ws, service } = open(NOTES);
    await service.invoke('index.sync', {});
    const d = db(service);
    ws.remove('memory/2026-03-05.md');

    emptyGraph(d);
    await updateGraph(d, { parallelFromFiles: Infinity });
    const inlineRows = graphRows(d);
    emptyGraph(d);
    await updateGraph(d, { parallelFromFiles: 1 });
    expect(graphRows(d)).toEqual(inlineRows);
    // Not recorded as extracted: the next update tries it again.
    expect(d.prepare("SELECT count(*) FROM graph_files WHERE path = 'memory/2026-03-05.md'").pluck().get()).toBe(0);
  });

  it('hands back the entries the rules extract on the engine thread, field for field', async () => {
    const { ws } = open(NOTES);
    const pool = new ExtractionPool(1);
    try {
      for (const path of ['memory/2026-03-01.md', 'memory/2026-03-04.md', 'memory/projects/ledgerd.md']) {
        const file = { path, abs_path: join(ws.root, path), sha256: 'x', mtime_ms: Date.UTC(2026, 2, 1) };
        const inline = extractIndexedFile(file, NOTES[path]!, { writerName: 'Mika Tanaka' });
        // Votes and claims included: the entries crossed as text, and must come back as the same objects.
        expect(inline.some((e) => e.claims.length > 0 && e.entities.some((m) => m.votes?.length))).toBe(true);
        const threaded = await pool.extract(file, { writerName: 'Mika Tanaka' });
        expect(threaded).toEqual({ text: NOTES[path], entries: inline });
      }
    } finally {
      await pool.close();
    }
  });

  it('fails the files still being extracted when the threads are closed, rather than leaving them waiting', async () => {
    const pool = new ExtractionPool(1);
    const missing = { path: 'memory/x.md', abs_path: '/nonexistent/reverie/x.md', sha256: 'x', mtime_ms: 0 };
    // An unreadable file is answered, not failed: the update skips it.
    await expect(pool.extract(missing, { writerName: null })).resolves.toMatchObject({ text: null, unreadable: expect.stringContaining('ENOENT') });
    const failed = expect(pool.extract(missing, { writerName: null })).rejects.toThrow(/closed/);
    await pool.close();
    await failed;
  });
});
