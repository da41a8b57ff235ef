import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { EngineEvent } from '../src/contract/index.js';
import type { MemoryService } from '../src/engine/memoryService.js';
import type { IndexService } from '../src/index/indexService.js';
import { MemoryWatcher } from '../src/index/watcher.js';
import { graphSnapshot, indexDb } from './helpers/graphSnapshot.js';
import { createTempWorkspace, openService, SAMPLE_NOTES, type TempWorkspace } from './helpers/workspace.js';

let ws: TempWorkspace;
let service: MemoryService | undefined;
let watcher: MemoryWatcher | undefined;
afterEach(async () => {
  await watcher?.close();
  watcher = undefined;
  await service?.close();
  service = undefined;
  ws?.cleanup();
});

function nextEvent<T extends EngineEvent['type']>(s: MemoryService, type: T, matches: (e: Extract<EngineEvent, { type: T }>) => boolean = () => true): Promise<Extract<EngineEvent, { type: T }>> {
  return new Promise((resolve) => {
    const off = s.onDidEmitEvent((e) => {
      if (e.type === type && matches(e as Extract<EngineEvent, { type: T }>)) {
        off();
        resolve(e as Extract<EngineEvent, { type: T }>);
      }
    });
  });
}

/** The host's watcher synced a change: search is ready, then the derived work (the graph) is done. */
async function nextWatchedSync(s: MemoryService) {
  const ready = await nextEvent(s, 'index-ready');
  await (s as unknown as { index: IndexService }).index.whenSyncsDone();
  return ready.report;
}

/** The files read, each once: the sync reads a changed file, and the derived pass reads it again for its entry kinds. */
const distinct = (reads: readonly string[]): string[] => [...new Set(reads)].sort();

/** A service whose file reads are listed (workspace-relative), hosting the workspace with its watcher. */
async function hostWithReadLog(w: TempWorkspace, reads: string[]): Promise<MemoryService> {
  const s = openService(w, {
    readBytes: async (p) => {
      reads.push(path.relative(w.root, p));
      return fs.promises.readFile(p);
    },
  });
  await s.startHosting({ kind: 'serve', url: null });
  await s.sync(false);
  return s;
}

describe('watcher', () => {
  it('keeps the index fresh while a host runs (debounced batches)', async () => {
    ws = createTempWorkspace(SAMPLE_NOTES);
    service = openService(ws);
    await service.startHosting({ kind: 'serve', url: null });
    await service.sync(false);
    const ready = nextEvent(service, 'index-ready');
    ws.write('memory/2026-04-08.md', '# 2026-04-08\n- saw a heron by the canal\n');
    ws.write('memory/2026-04-09.md', '# 2026-04-09\n- the heron came back\n');
    ws.remove('memory/2026-04-01.md');
    const event = await ready;
    expect(event).toMatchObject({ type: 'index-ready', report: { added: 2, removed: 1 } });
    const { results } = await service.invoke('memory.search', { query: 'heron' });
    expect(results.map((r) => r.path).sort()).toEqual(['memory/2026-04-08.md', 'memory/2026-04-09.md']);
  });

  it('syncs only the changed files, and leaves the index and graph as a whole sync of the disk would', async () => {
    ws = createTempWorkspace(SAMPLE_NOTES);
    const reads: string[] = [];
    service = await hostWithReadLog(ws, reads);
    reads.length = 0;
    const synced = nextWatchedSync(service);
    ws.write('memory/2026-04-05.md', '# 2026-04-05\n\n- [ ] Ask Marta Quintero about the Lisbon office lease.\n- Dentist moved to 2026-04-16.\n');
    fs.renameSync(path.join(ws.root, 'memory/projects/ledgerd.md'), path.join(ws.root, 'memory/projects/ledger-service.md'));
    const report = await synced;
    expect(report).toMatchObject({ updated: 1, added: 1, removed: 1 });
    expect(distinct(reads)).toEqual(['memory/2026-04-05.md', 'memory/projects/ledger-service.md']);
    const watched = { graph: graphSnapshot(indexDb(service)), status: (await service.invoke('status', {})).files };
    expect(watched.graph.entities.some((e) => e.includes('marta quintero'))).toBe(true);
    await service.close();

    // The same disk, indexed whole from nothing.
    fs.rmSync(ws.dataDir, { recursive: true });
    service = openService(ws);
    await service.sync(false);
    expect({ graph: graphSnapshot(indexDb(service)), status: (await service.invoke('status', {})).files }).toEqual(watched);
  });

  it('indexes a save made through the engine by its path alone, once a whole sync ran', async () => {
    ws = createTempWorkspace(SAMPLE_NOTES);
    const reads: string[] = [];
    service = openService(ws, {
      readBytes: async (p) => {
        reads.push(path.relative(ws.root, p));
        return fs.promises.readFile(p);
      },
    });
    await service.sync(false);
    reads.length = 0;
    const ready = nextEvent(service, 'index-ready');
    const { sha256 } = await service.invoke('files.read', { path: 'memory/2026-04-05.md' });
    await service.invoke('files.write', { path: 'memory/2026-04-05.md', text: '# 2026-04-05\n- Dentist moved to Friday.\n', expectedSha256: sha256 });
    expect((await ready).report).toMatchObject({ updated: 1, added: 0, removed: 0 });
    expect(distinct(reads)).toEqual(['memory/2026-04-05.md']);
    expect((await service.invoke('memory.search', { query: 'Friday dentist' })).results[0]?.path).toBe('memory/2026-04-05.md');
  });

  it('compares every file again after the settings that choose files change', async () => {
    ws = createTempWorkspace({ ...SAMPLE_NOTES, 'notes/reading.md': '# Reading\n- Piranesi, chapter 4\n' });
    const reads: string[] = [];
    service = await hostWithReadLog(ws, reads);
    await service.invoke('settings.set', { patch: { extraPaths: ['notes'] } });
    reads.length = 0;
    const synced = nextWatchedSync(service);
    ws.write('memory/2026-04-05.md', '# 2026-04-05\n- Dentist moved again.\n');
    expect(await synced).toMatchObject({ updated: 1, added: 1 });
    expect(distinct(reads)).toEqual(['memory/2026-04-05.md', 'notes/reading.md']);
  });

  it('reports the changed paths of a batch: a rename as its two paths, a new folder, and everything after an error', async () => {
    ws = createTempWorkspace(SAMPLE_NOTES);
    const batches: Array<ReadonlySet<string> | 'everything'> = [];
    let delivered: () => void = () => {};
    watcher = new MemoryWatcher({
      workspaceRoot: ws.root,
      extraPaths: [],
      debounceMs: 300,
      onDidChangeFiles: (changed) => {
        batches.push(changed);
        delivered();
      },
    });
    await watcher.start();
    const nextBatch = () => new Promise<void>((resolve) => (delivered = resolve));

    let batch = nextBatch();
    fs.renameSync(path.join(ws.root, 'memory/2026-04-05.md'), path.join(ws.root, 'memory/2026-04-05-dentist.md'));
    ws.write('memory/trips/lisbon.md', '# Lisbon\n');
    ws.write('memory/todo.txt', 'not a note\n');
    await batch;
    const changed = batches.at(-1);
    expect(changed).not.toBe('everything');
    const rel = [...(changed as ReadonlySet<string>)].map((p) => path.relative(ws.root, p));
    expect(rel).toEqual(expect.arrayContaining(['memory/2026-04-05.md', 'memory/2026-04-05-dentist.md', 'memory/trips']));
    expect(rel).not.toContain('memory/todo.txt');

    // Events may have been lost (a watch limit, a folder gone): every file is compared.
    batch = nextBatch();
    (watcher as unknown as { watchers: Array<{ emit(event: string, error: Error): void }> }).watchers[1]!.emit('error', new Error('ENOSPC: System limit for number of file watchers reached'));
    ws.write('memory/2026-04-06.md', '# 2026-04-06\n- edited\n');
    await batch;
    expect(batches.at(-1)).toBe('everything');
  });

  it('compares every file on a timer even when no event arrives (a dropped event heals)', async () => {
    ws = createTempWorkspace(SAMPLE_NOTES);
    const batches: Array<ReadonlySet<string> | 'everything'> = [];
    let delivered: () => void = () => {};
    const batch = new Promise<void>((resolve) => (delivered = resolve));
    watcher = new MemoryWatcher({
      workspaceRoot: ws.root,
      extraPaths: [],
      debounceMs: 50,
      fullCompareEveryMs: 200,
      onDidChangeFiles: (changed) => {
        batches.push(changed);
        delivered();
      },
    });
    await watcher.start();
    await batch;
    expect(batches).toEqual(['everything']);
  });
});
