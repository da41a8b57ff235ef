/**
 * The scale benchmark's bad input "100,000 files in one folder" (issue 24): N one-line notes in
 * memory/inbox/, indexed by the product's engine, then hosted with its file watcher. Measures the
 * first index, a no-op resync (a whole sync that finds nothing changed), and one edit's pickup
 * through the watcher: from the write until a search finds the new word, CPU (all threads of
 * this process: watcher, sync, search) and wall, with the sync's own share.
 *
 *   npm run bench -- --only scale --one-folder [N]     (N defaults to 100,000)
 */
import fs from 'node:fs';
import path from 'node:path';
import type { EngineEvent, SyncReport } from '../../core/src/contract/index.js';
import { MemoryService } from '../../core/src/engine/memoryService.js';
import { resolveExistingWorkspace } from '../../core/src/workspace/resolveWorkspace.js';
import { makeTempWorkspace, removeTempWorkspace } from './engine.js';
import { Rng } from './prng.js';
import { log, percentile, round } from './stats.js';

export const DEFAULT_ONE_FOLDER_NOTES = 100_000;
/** Edits timed one after another (each waits for the last one's derived work). */
const EDITS = 5;
const WORDS = ['atlas', 'heron', 'ledger', 'canal', 'lease', 'backup', 'dentist', 'review', 'budget', 'garden', 'invoice', 'piano', 'router', 'sprint', 'tram', 'visa'];

export interface OneFolderFigures {
  one_folder_notes: number;
  one_folder_generate_s: number;
  one_folder_first_index: { wall_s: number; cpu_s: number };
  one_folder_noop_resync: { wall_s: number; cpu_s: number };
  /** Starting the host's watcher over the folder (it lists every file once). */
  one_folder_watch_start: { wall_s: number; cpu_s: number };
  /** Per edit, medians: write → searchable (includes the watcher's debounce), sync start → searchable, and the CPU from write to searchable. */
  one_folder_edit_pickup: { edits: number; write_to_searchable_ms: number; sync_to_searchable_ms: number; cpu_ms: number; max_write_to_searchable_ms: number; found: number; files_read_per_sync: number; files_step_ms: number; embedding_step_ms: number };
}

function cpuSecondsSince(since: NodeJS.CpuUsage): number {
  const d = process.cpuUsage(since);
  return (d.user + d.system) / 1e6;
}

function writeOneFolderNotes(workspace: string, notes: number): void {
  const dir = path.join(workspace, 'memory', 'inbox');
  fs.mkdirSync(dir, { recursive: true });
  const rng = new Rng(24);
  const pick = () => WORDS[rng.int(WORDS.length)]!;
  for (let i = 0; i < notes; i++) fs.writeFileSync(path.join(dir, `note-${String(i).padStart(6, '0')}.md`), `- ${pick()} and ${pick()}: item ${i}\n`);
}

/** Resolves when the engine emits an event that `matches`, with the time it came. */
function nextEvent(service: MemoryService, matches: (e: EngineEvent) => boolean): Promise<{ at: number; event: EngineEvent }> {
  return new Promise((resolve) => {
    const off = service.onDidEmitEvent((event) => {
      if (!matches(event)) return;
      off();
      resolve({ at: performance.now(), event });
    });
  });
}

/** The derived work (the graph) of the last sync has caught up: the next edit does not wait behind it. */
async function derivedDone(service: MemoryService): Promise<void> {
  for (;;) {
    const { index } = await service.invoke('status', {});
    if (index.state === 'ready' && index.derived.state === 'done') return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export async function runOneFolderBench(notes: number): Promise<OneFolderFigures> {
  const ws = makeTempWorkspace(`one-folder-${notes}`);
  let service: MemoryService | null = null;
  try {
    let t = performance.now();
    writeOneFolderNotes(ws.workspace, notes);
    const generateS = (performance.now() - t) / 1000;
    log(`  one folder: ${notes} one-line notes in memory/inbox/ written in ${generateS.toFixed(1)} s`);
    service = new MemoryService({ dataDir: ws.dataDir, workspace: resolveExistingWorkspace(ws.workspace) });

    let cpu = process.cpuUsage();
    t = performance.now();
    const first = await service.invoke('index.sync', { force: false });
    const firstIndex = { wall_s: round((performance.now() - t) / 1000, 2), cpu_s: round(cpuSecondsSince(cpu), 2) };
    log(`    first index ${firstIndex.wall_s} s (cpu ${firstIndex.cpu_s} s): ${first.files} files, ${first.chunks} chunks`);

    cpu = process.cpuUsage();
    t = performance.now();
    const noop = await service.invoke('index.sync', { force: false });
    const noopResync = { wall_s: round((performance.now() - t) / 1000, 3), cpu_s: round(cpuSecondsSince(cpu), 3) };
    if (noop.added + noop.updated + noop.removed > 0) throw new Error(`the no-op resync changed files: ${JSON.stringify(noop)}`);
    log(`    no-op resync ${noopResync.wall_s} s (cpu ${noopResync.cpu_s} s)`);

    cpu = process.cpuUsage();
    t = performance.now();
    await service.startHosting({ kind: 'serve', url: null });
    const watchStart = { wall_s: round((performance.now() - t) / 1000, 2), cpu_s: round(cpuSecondsSince(cpu), 2) };
    log(`    host and watcher started in ${watchStart.wall_s} s (cpu ${watchStart.cpu_s} s)`);
    await derivedDone(service);

    const writeToSearchable: number[] = [];
    const syncToSearchable: number[] = [];
    const cpuMs: number[] = [];
    const filesRead: number[] = [];
    // The sync's own figures: its files step (discovery, reads, writes) and the embedding pass after it.
    const filesStepMs: number[] = [];
    const embeddingStepMs: number[] = [];
    let found = 0;
    for (let edit = 0; edit < EDITS; edit++) {
      const note = `memory/inbox/note-${String(Math.floor((notes * (edit + 0.5)) / EDITS)).padStart(6, '0')}.md`;
      const word = `quillorbit${edit}x${notes}`;
      const syncStarted = nextEvent(service, (e) => e.type === 'index-progress' && e.phase === 'discover');
      const ready = nextEvent(service, (e) => e.type === 'index-ready');
      cpu = process.cpuUsage();
      t = performance.now();
      fs.appendFileSync(path.join(ws.workspace, note), `- Follow-up: ${word} moved to Thursday.\n`);
      const { event } = await ready;
      const report = (event as Extract<EngineEvent, { type: 'index-ready' }>).report as SyncReport;
      const results = await service.invoke('memory.search', { query: word, limit: 5, sources: ['memory'] });
      const at = performance.now();
      cpuMs.push(cpuSecondsSince(cpu) * 1000);
      writeToSearchable.push(at - t);
      syncToSearchable.push(at - (await syncStarted).at);
      filesRead.push(report.added + report.updated + report.unchanged + report.failed + report.skipped);
      filesStepMs.push(report.durationMs);
      embeddingStepMs.push(report.embedding?.durationMs ?? 0);
      if (results.results.some((r) => r.path === note)) found++;
      await derivedDone(service);
    }
    const pickup = {
      edits: EDITS,
      write_to_searchable_ms: round(percentile(writeToSearchable, 50), 1),
      sync_to_searchable_ms: round(percentile(syncToSearchable, 50), 1),
      cpu_ms: round(percentile(cpuMs, 50), 1),
      max_write_to_searchable_ms: round(Math.max(...writeToSearchable), 1),
      found,
      files_read_per_sync: percentile(filesRead, 50),
      files_step_ms: round(percentile(filesStepMs, 50), 1),
      embedding_step_ms: round(percentile(embeddingStepMs, 50), 1),
    };
    log(
      `    one edit through the watcher: searchable after ${pickup.write_to_searchable_ms} ms from the write (max ${pickup.max_write_to_searchable_ms}), ` +
        `${pickup.sync_to_searchable_ms} ms from the sync's start; cpu ${pickup.cpu_ms} ms; ${pickup.files_read_per_sync} files compared per sync (files step ${pickup.files_step_ms} ms, embedding ${pickup.embedding_step_ms} ms); found ${found}/${EDITS}`,
    );
    return {
      one_folder_notes: notes,
      one_folder_generate_s: round(generateS, 2),
      one_folder_first_index: firstIndex,
      one_folder_noop_resync: noopResync,
      one_folder_watch_start: watchStart,
      one_folder_edit_pickup: pickup,
    };
  } finally {
    await service?.close();
    removeTempWorkspace(ws);
  }
}
