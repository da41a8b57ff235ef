/**
 * Simulated use of one fold on a fake clock (the service's `now` seam): each day's note is
 * written in the morning and indexed, the day's searches run through the contract as an agent
 * would (some results opened with memory.get, some in the window with files.read), and on each
 * sweep night a default-gated `dream.run` runs at 03:00.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { CallContext } from '../../../core/src/contract/index.js';
import type { DreamRun, DreamThresholds } from '../../../core/src/contract/index.js';
import { MemoryService } from '../../../core/src/engine/memoryService.js';
import { resolveExistingWorkspace } from '../../../core/src/workspace/resolveWorkspace.js';
import { makeTempWorkspace, removeTempWorkspace } from '../engine.js';
import type { Fold } from './folds.js';

const DAY_MS = 86_400_000;
const AGENT: CallContext = { transport: 'mcp', agent: { id: 'bench-agent', name: 'bench-agent', scopes: ['read'] } };
const WINDOW: CallContext = { transport: 'ui' };

export interface SimulationResult {
  /** Final text of MEMORY.md and USER.md ('' when absent). */
  finalFiles: { 'MEMORY.md': string; 'USER.md': string };
  startFiles: { 'MEMORY.md': string; 'USER.md': string };
  runs: DreamRun[];
  sweepSeconds: number[];
  searches: number;
  opened: number;
  /** What each search showed: the query, its local day and the result line ranges. */
  shown: Array<{ query: string; day: string; results: Array<{ path: string; startLine: number; endLine: number }> }>;
}

/** Local midnight of a YYYY-MM-DD day, as the product's local-day logic sees it. */
export function localDay(day: string): number {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return new Date(y, m - 1, d).getTime();
}

function dayString(ms: number): string {
  const d = new Date(ms);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

function readOr(file: string): string {
  return fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
}

/** `thresholds` override the default gates of every sweep (calibration only; the benchmark runs the defaults). */
export async function simulateFold(fold: Fold, thresholds: DreamThresholds = {}): Promise<SimulationResult> {
  const ws = makeTempWorkspace(`curation-${fold.name}`);
  const notes = [...fold.files.keys()].filter((f) => /^memory\/\d{4}-\d\d-\d\d\.md$/.test(f)).sort();
  for (const [rel, text] of fold.files) {
    if (notes.includes(rel)) continue; // daily notes appear on their own day
    fs.mkdirSync(path.dirname(path.join(ws.workspace, rel)), { recursive: true });
    fs.writeFileSync(path.join(ws.workspace, rel), text);
  }
  const noteDay = (rel: string) => rel.slice('memory/'.length, -'.md'.length);
  const days = [...notes.map(noteDay), ...Object.keys(fold.use.searches), ...fold.use.sweeps].sort();
  const first = localDay(days[0]!);
  const last = localDay(days[days.length - 1]!);
  let clock = first;
  const startFiles = { 'MEMORY.md': readOr(path.join(ws.workspace, 'MEMORY.md')), 'USER.md': readOr(path.join(ws.workspace, 'USER.md')) };
  const service = new MemoryService({ dataDir: ws.dataDir, workspace: resolveExistingWorkspace(ws.workspace), now: () => clock });
  const result: SimulationResult = { finalFiles: startFiles, startFiles, runs: [], sweepSeconds: [], searches: 0, opened: 0, shown: [] };
  try {
    for (let midnight = first; midnight <= last; midnight += DAY_MS) {
      // Daylight-saving days are 23 or 25 hours: re-anchor on the local date.
      const day = dayString(midnight + DAY_MS / 2);
      const at = (hour: number, minute = 0) => localDay(day) + hour * 3_600_000 + minute * 60_000;
      if (fold.use.sweeps.includes(day)) {
        clock = at(3);
        const started = performance.now();
        const run = await service.invoke('dream.run', { thresholds });
        result.sweepSeconds.push((performance.now() - started) / 1000);
        if (run.status === 'failed') throw new Error(`${fold.name}: the sweep of ${day} failed: ${run.reason}`);
        result.runs.push(run);
        // Hours pass before the day's first search: the sync of what the sweep wrote has finished by
        // then (without this wait, whether a search finds the new lines would depend on timing).
        await service.sync(false);
      }
      const note = `memory/${day}.md`;
      if (fold.files.has(note)) {
        clock = at(8, 30);
        const file = path.join(ws.workspace, note);
        fs.mkdirSync(path.dirname(file), { recursive: true });
        fs.writeFileSync(file, fold.files.get(note)!);
        fs.utimesSync(file, new Date(clock), new Date(clock));
        await service.sync(false);
      }
      const queries = fold.use.searches[day] ?? [];
      for (const [i, typed] of queries.entries()) {
        clock = at(9, 30 + i * 97); // spread over the working day
        const open = typed.startsWith('>');
        const query = open ? typed.slice(1).trim() : typed;
        const { results } = await service.invoke('memory.search', { query, limit: 5 }, AGENT);
        result.searches++;
        result.shown.push({ query, day, results: results.map((r) => ({ path: r.path, startLine: r.startLine, endLine: r.endLine })) });
        const top = results[0];
        if (open && top) {
          clock += 60_000;
          // Alternate the two ways a result gets opened: an agent's memory_get, the person's window.
          if (result.opened % 2 === 0) await service.invoke('memory.get', { path: top.path, from: top.startLine, lines: top.endLine - top.startLine + 1 }, AGENT);
          else await service.invoke('files.read', { path: top.path }, WINDOW);
          result.opened++;
        }
        service.dreams.recorder.flush();
      }
    }
    result.finalFiles = { 'MEMORY.md': readOr(path.join(ws.workspace, 'MEMORY.md')), 'USER.md': readOr(path.join(ws.workspace, 'USER.md')) };
    return result;
  } finally {
    await service.close();
    removeTempWorkspace(ws);
  }
}
