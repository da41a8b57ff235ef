/**
 * Dreaming figure: one sweep (fallback writer, no model) over 30 days × 50 notes/day with
 * 20k recall signals, the signals made by real searches through the contract spread over
 * the 30 days on the engine's clock.
 */
import fs from 'node:fs';
import path from 'node:path';
import { MemoryService } from '../../core/src/engine/memoryService.js';
import { resolveExistingWorkspace } from '../../core/src/workspace/resolveWorkspace.js';
import { makeTempWorkspace, removeTempWorkspace } from './engine.js';
import { Rng } from './prng.js';
import { log, round } from './stats.js';

const DAY_MS = 86_400_000;
const TOPICS = (
  'ledgerd staging postgres replica invoice billing deploy hetzner canary rollback dentist lisbon garden espresso marathon ' +
  'podcast budget travel release hotfix queue worker cache token timezone cutoff vacuum metrics alert dashboard novel'
).split(' ');
const NAMES = ['Marek', 'Sam', 'Dana', 'Priya', 'Jonas', 'Aiko'];

export interface DreamingFigures {
  dream_notes: number;
  dream_signals: number;
  dream_searches: number;
  dream_sweep_s: number;
  dream_candidates: number;
  dream_promoted: number;
}

function entry(rng: Rng, day: number, i: number): string {
  const a = TOPICS[rng.int(TOPICS.length)]!;
  const b = TOPICS[rng.int(TOPICS.length)]!;
  const who = NAMES[rng.int(NAMES.length)]!;
  return `- ${who} moved the ${a} ${b} work to host ${a}-${(day * 7 + i) % 50} on port ${5000 + rng.int(900)}.`;
}

export async function runDreamingBench(quick: boolean): Promise<DreamingFigures> {
  const days = 30;
  const perDay = quick ? 10 : 50;
  const targetSignals = quick ? 4_000 : 20_000;
  const ws = makeTempWorkspace('dreaming');
  const now = new Date(2026, 10, 30, 3, 0, 0).getTime();
  let clock = now;
  const rng = new Rng(30);
  fs.writeFileSync(path.join(ws.workspace, 'MEMORY.md'), '# Long-Term Memory\n\n- Keep the gateway on loopback.\n');
  for (let d = 0; d < days; d++) {
    const date = new Date(now - (days - d) * DAY_MS);
    const stamp = date.toISOString().slice(0, 10);
    for (let n = 0; n < perDay; n++) {
      const file = path.join(ws.workspace, 'memory', stamp, `note-${n}.md`);
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, `# ${stamp} note ${n}\n\n${Array.from({ length: 6 }, (_, i) => entry(rng, d, i)).join('\n')}\n`);
      fs.utimesSync(file, date, date);
    }
  }
  const service = new MemoryService({ dataDir: ws.dataDir, workspace: resolveExistingWorkspace(ws.workspace), now: () => clock });
  try {
    await service.sync(false);
    log(`  dreaming: ${days * perDay} notes indexed; searching until ${targetSignals} recall signals …`);
    const countSignals = () => service.dreams.recallSignalCount();
    let searches = 0;
    while (countSignals() < targetSignals) {
      for (let k = 0; k < 100; k++) {
        clock = now - rng.int(days) * DAY_MS - rng.int(DAY_MS);
        const query = `${TOPICS[rng.int(TOPICS.length)]} ${TOPICS[rng.int(TOPICS.length)]} ${rng.chance(0.5) ? NAMES[rng.int(NAMES.length)] : 'host'}`;
        await service.invoke('memory.search', { query, limit: 10 });
        searches++;
      }
      service.dreams.recorder.flush();
    }
    clock = now;
    const signals = countSignals();
    log(`  dreaming: ${signals} signals from ${searches} searches; sweeping …`);
    const started = performance.now();
    const run = await service.invoke('dream.run', {});
    const sweepS = round((performance.now() - started) / 1000, 2);
    if (run.status === 'failed') throw new Error(`dream sweep failed: ${run.reason}`);
    log(`  dreaming: sweep ${sweepS} s, ${run.candidates.length} candidates, ${run.phases.deep.promoted} promoted (${run.status})`);
    return {
      dream_notes: days * perDay,
      dream_signals: signals,
      dream_searches: searches,
      dream_sweep_s: sweepS,
      dream_candidates: run.candidates.length,
      dream_promoted: run.phases.deep.promoted,
    };
  } finally {
    await service.close();
    removeTempWorkspace(ws);
  }
}
