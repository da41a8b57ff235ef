import { afterEach, describe, expect, it, vi } from 'vitest';
import type { StatusOutput } from '../src/contract/index.js';
import type { MemoryService } from '../src/engine/memoryService.js';
import { graphSnapshot, indexDb } from './helpers/graphSnapshot.js';
import { createTempWorkspace, openService, type TempWorkspace } from './helpers/workspace.js';

const opened: Array<{ ws: TempWorkspace; services: MemoryService[] }> = [];
afterEach(async () => {
  for (const { ws, services } of opened.splice(0)) {
    for (const s of services) await s.close();
    ws.cleanup();
  }
});

const PEOPLE = ['Marek Nowak', 'Dana Reyes', 'Priya Natarajan', 'Zoe Muller', 'Sam Okafor', 'Lena Park', 'Tomas Berg', 'Ines Duarte'];
const SYSTEMS = ['ledgerd', 'atlas', 'billing-api', 'restic', 'grafana', 'postgres', 'kafka', 'vault'];

/** Enough daily notes that the graph's first pass takes many 10 ms slices after search is ready. */
function dailyNotes(count: number): Record<string, string> {
  const files: Record<string, string> = {};
  for (let i = 0; i < count; i++) {
    const day = new Date(Date.UTC(2026, 0, 1) + i * 86_400_000).toISOString().slice(0, 10);
    const lines = [`# ${day}`, ''];
    for (let j = 0; j < 24; j++) {
      const person = PEOPLE[(i + j) % PEOPLE.length]!;
      const system = SYSTEMS[(i * 3 + j) % SYSTEMS.length]!;
      lines.push(`- ${person} owns ${system} and moved it to host-${(i + j) % 17}; talked with ${PEOPLE[(i + 2 * j + 1) % PEOPLE.length]} about ${system} on ${day}.`);
    }
    files[`memory/${day}.md`] = lines.join('\n') + '\n';
  }
  return files;
}

function workspaceWith(files: Record<string, string>): { ws: TempWorkspace; open: () => MemoryService } {
  const ws = createTempWorkspace(files);
  const entry = { ws, services: [] as MemoryService[] };
  opened.push(entry);
  return {
    ws,
    open: () => {
      const s = openService(ws);
      entry.services.push(s);
      return s;
    },
  };
}

const derivedOf = async (s: MemoryService): Promise<StatusOutput['index']['derived']> => (await s.invoke('status', {})).index.derived;

describe('search first, derived work after', () => {
  it('answers a sync at search-ready while the graph goes on in the background, and says so in status', async () => {
    const { open } = workspaceWith(dailyNotes(150));
    const service = open();
    const progress: number[] = [];
    service.onDidEmitEvent((e) => e.type === 'derived-progress' && progress.push(e.progress.done));

    await service.invoke('index.sync', { until: 'search' });
    const status = await service.invoke('status', {});
    expect(status.index.searchReady).toBe(true);
    expect(status.index.derived.total).toBe(150);
    expect(status.index.derived.done).toBeLessThan(150);
    expect(status.index.derived.state).not.toBe('done');
    // Search works meanwhile, over every file.
    const found = await service.invoke('memory.search', { query: 'Marek Nowak ledgerd host-3', sources: ['memory'], recall: false });
    expect(found.results.length).toBeGreaterThan(0);

    // `until: 'all'` (the default) answers once the graph has caught up.
    const report = await service.invoke('index.sync', {});
    expect(report.unchanged).toBe(150);
    expect(await derivedOf(service)).toEqual({ state: 'done', done: 150, total: 150 });
    expect(progress.length).toBeGreaterThan(0);
    expect(progress.at(-1)).toBe(150);
  }, 240_000);

  it('picks up a file edited during the background pass before that pass ends, and the graph includes the edit', async () => {
    const { ws, open } = workspaceWith(dailyNotes(150));
    const service = open();
    await service.invoke('index.sync', { until: 'search' });
    expect((await derivedOf(service)).done).toBeLessThan(150);

    ws.write('memory/2026-01-03.md', '# 2026-01-03\n\n- Wilhelmina Quartz owns the zephyrine pipeline and moved it to host-99.\n');
    // What the watcher does: a sync that stops the graph's pass at its next slice and goes first.
    const edit = await service.invoke('index.sync', { until: 'search' });
    expect(edit.updated).toBe(1);
    const afterEdit = await derivedOf(service);
    expect(afterEdit.done).toBeLessThan(150); // the first pass had not finished: the edit did not wait for it
    const hits = await service.invoke('memory.search', { query: 'zephyrine', sources: ['memory'], recall: false });
    expect(hits.results.map((r) => r.path)).toContain('memory/2026-01-03.md');

    await service.invoke('index.sync', {});
    expect(await derivedOf(service)).toEqual({ state: 'done', done: 150, total: 150 });
    const entities = await service.invoke('graph.search', { text: 'Wilhelmina Quartz' });
    expect(entities.entities.map((e) => e.label)).toContain('Wilhelmina Quartz');
  }, 240_000);

  it('resumes a derived pass cut off by the engine stopping, and ends with the graph a single pass makes', async () => {
    const notes = dailyNotes(120);
    const { open } = workspaceWith(notes);
    const first = open();
    await first.invoke('index.sync', { until: 'search' });
    // Let a slice of the graph commit, then stop the engine mid-pass (quitting, or a crash after a commit). Watched
    // between slices rather than through the once-a-second progress event: on a fast machine the pass ends sooner.
    const graphFiles = indexDb(first).prepare('SELECT count(*) FROM graph_files').pluck();
    await vi.waitFor(() => expect(graphFiles.get()).toBeGreaterThan(0), { timeout: 60_000, interval: 1 });
    await first.close();

    const second = open();
    const before = await derivedOf(second);
    expect(before.done).toBeGreaterThan(0);
    expect(before.done).toBeLessThan(120);
    expect(before.state).toBe('waiting'); // behind, with no pass running until a sync starts one
    await second.invoke('index.sync', {});
    expect(await derivedOf(second)).toEqual({ state: 'done', done: 120, total: 120 });

    // The same notes indexed in one go make the same graph.
    const { open: openFresh } = workspaceWith(notes);
    const fresh = openFresh();
    await fresh.invoke('index.sync', {});
    expect(graphSnapshot(indexDb(second))).toEqual(graphSnapshot(indexDb(fresh)));
  }, 300_000);
});
