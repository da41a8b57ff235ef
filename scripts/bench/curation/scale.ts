/**
 * The curation sweep at scale: a generated workspace of 10,000 daily-note entries (facts,
 * tasks, questions, near-duplicates) with recall signals from real searches, then one
 * default-gated sweep, timed.
 */
import fs from 'node:fs';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { MemoryService } from '../../../core/src/engine/memoryService.js';
import { resolveExistingWorkspace } from '../../../core/src/workspace/resolveWorkspace.js';
import { makeTempWorkspace, removeTempWorkspace } from '../engine.js';
import { Rng } from '../prng.js';
import { log } from '../stats.js';
import { localDay } from './simulate.js';

const DAY_MS = 86_400_000;
const SERVICES = 'ledger billing search auth gateway invoices reports exporter scheduler notifier'.split(' ');
const PEOPLE = ['Asha', 'Bram', 'Chen', 'Dario', 'Elif', 'Femi', 'Greta', 'Hiro'];

function entry(rng: Rng, day: number, i: number): string {
  const service = SERVICES[rng.int(SERVICES.length)]!;
  const who = PEOPLE[rng.int(PEOPLE.length)]!;
  const host = `${service}-${(day * 13 + i) % 40}.corp.internal`;
  switch (rng.int(6)) {
    case 0: return `- The ${service} service runs on ${host}, port ${4000 + rng.int(900)}.`;
    case 1: return `- ${who} owns the ${service} repo and prefers small PRs.`;
    case 2: return `- [ ] ask ${who} about the ${service} alert thresholds`;
    case 3: return `- Why does ${service} slow down after the nightly export? Need to check.`;
    case 4: return `- Decision: ${service} moves to the shared queue, reviewed by ${who}.`;
    default: return `- reminder: ${service} lives on ${host}`;
  }
}

export interface ScaleFigures {
  curation_10k_entries: number;
  curation_10k_searches: number;
  curation_10k_sweep_s: number;
  /** CPU seconds of this process during the sweep: steadier than wall time on a loaded machine. */
  curation_10k_sweep_cpu_s: number;
  curation_10k_promoted: number;
  /** The longest the engine's thread was held without a break during the sweep: how long an agent's call could wait. */
  curation_10k_sweep_longest_block_ms: number;
}

export async function runCurationScale(entries = 10_000): Promise<ScaleFigures> {
  const days = 40;
  const perDay = Math.ceil(entries / days);
  const ws = makeTempWorkspace('curation-10k');
  const rng = new Rng(10_000);
  const sweepAt = localDay('2026-11-30') + 3 * 3_600_000;
  let clock = sweepAt - days * DAY_MS;
  fs.writeFileSync(path.join(ws.workspace, 'MEMORY.md'), '# Long-Term Memory\n\n## Services\n- The VPN is required for every corp.internal host.\n');
  let written = 0;
  for (let d = 0; d < days; d++) {
    const date = new Date(sweepAt - (days - d) * DAY_MS + 6 * 3_600_000);
    const stamp = `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;
    const count = Math.min(perDay, entries - written);
    const file = path.join(ws.workspace, 'memory', `${stamp}.md`);
    fs.writeFileSync(file, `# ${stamp}\n\n${Array.from({ length: count }, (_, i) => entry(rng, d, i)).join('\n')}\n`);
    fs.utimesSync(file, date, date);
    written += count;
  }
  const service = new MemoryService({ dataDir: ws.dataDir, workspace: resolveExistingWorkspace(ws.workspace), now: () => clock });
  try {
    await service.sync(false);
    const searches = 400;
    for (let k = 0; k < searches; k++) {
      clock = sweepAt - (1 + rng.int(days - 1)) * DAY_MS + rng.int(10) * 3_600_000;
      const service_ = SERVICES[rng.int(SERVICES.length)]!;
      const query = rng.chance(0.5) ? `${service_} host port` : `who owns ${service_} ${PEOPLE[rng.int(PEOPLE.length)]}`;
      await service.invoke('memory.search', { query, limit: 10 }, { transport: 'mcp' });
      if (k % 50 === 49) service.dreams.recorder.flush();
    }
    service.dreams.recorder.flush();
    clock = sweepAt;
    log(`  curation 10k: ${written} entries, ${searches} searches; sweeping …`);
    const started = performance.now();
    const cpuBefore = process.cpuUsage();
    const blocks = monitorEventLoopDelay({ resolution: 10 });
    blocks.enable();
    const run = await service.invoke('dream.run', {});
    blocks.disable();
    const seconds = (performance.now() - started) / 1000;
    const cpu = process.cpuUsage(cpuBefore);
    if (run.status === 'failed') throw new Error(`the 10,000-entry sweep failed: ${run.reason}`);
    return { curation_10k_entries: written, curation_10k_searches: searches, curation_10k_sweep_s: seconds, curation_10k_sweep_cpu_s: (cpu.user + cpu.system) / 1e6, curation_10k_promoted: run.phases.deep.promoted, curation_10k_sweep_longest_block_ms: Math.round(blocks.max / 1e6) };
  } finally {
    await service.close();
    removeTempWorkspace(ws);
  }
}
