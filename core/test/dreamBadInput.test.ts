import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { MemoryService } from '../src/engine/memoryService.js';
import { classifyEntry } from '../src/workspace/entryKind.js';
import { createTempWorkspace, openService, type TempWorkspace } from './helpers/workspace.js';
import { DAY_MS, dream, recallOver, testClock } from './helpers/dreaming.js';

let ws: TempWorkspace | null = null;
let service: MemoryService | null = null;
afterEach(async () => {
  await service?.close();
  ws?.cleanup();
  service = null;
  ws = null;
});

const SWEEP_AT = new Date(2026, 10, 29, 3, 0, 0).getTime();

async function setup(files: Record<string, string>) {
  ws = createTempWorkspace(files);
  const clock = testClock(SWEEP_AT);
  service = openService(ws, { now: clock.now });
  await service.sync(false);
  return { ws, service, clock };
}

describe('dreaming on bad input', () => {
  it('a note of 500 checkbox lines, all recalled, promotes none of them and the sweep finishes', async () => {
    const tasks = Array.from({ length: 500 }, (_, i) => `- [ ] migrate table t${i} to the ledgerd-archive cluster`).join('\n');
    const { service, clock } = await setup({ 'memory/2026-11-28.md': `# 2026-11-28\n\n${tasks}\n` });
    await recallOver(service, clock, [
      { query: 'migrate table ledgerd-archive', daysAgo: 2 },
      { query: 'ledgerd-archive cluster tables', daysAgo: 1 },
      { query: 'which tables move to archive', daysAgo: 0 },
    ]);
    const run = await dream(service);
    expect(run.status).toBe('nothing-to-do');
    expect(run.candidates.length).toBeGreaterThan(0);
    expect(run.candidates.filter((c) => c.outcome !== 'duplicate' && (c.kind !== 'task' || c.outcome === 'promoted')).map((c) => `${c.kind} ${c.outcome} ${c.text}`)).toEqual([]);
    expect(fs.existsSync(path.join(ws!.root, 'MEMORY.md')) ? fs.readFileSync(path.join(ws!.root, 'MEMORY.md'), 'utf8') : '').not.toContain('ledgerd-archive');
  });

  it('entries in other languages and scripts fall back to a fact (or their cue) and sweep without error', async () => {
    const lines = [
      'ステージングサーバーは ares.internal のポート 8443 です。',
      'Сервер staging — ares.internal, порт 8443.',
      'خادم الاختبار هو ares.internal على المنفذ 8443.',
      'Der Staging-Server ist ares.internal auf Port 8443.',
      '🚀🚀 ares.internal 8443 🚀',
      '\u200f\u202e ares.internal \u202c',
    ];
    for (const line of lines) expect(classifyEntry(`- ${line}`, '2026-11-28').kind).toBe('fact');
    const { service, clock } = await setup({ 'memory/2026-11-28.md': `# 2026-11-28\n\n${lines.map((l) => `- ${l}`).join('\n')}\n` });
    await recallOver(service, clock, [
      { query: 'ares.internal 8443', daysAgo: 2 },
      { query: 'ares.internal staging', daysAgo: 1 },
      { query: 'port 8443', daysAgo: 0 },
    ]);
    const run = await dream(service);
    expect(run.status).toBe('ok');
    expect(run.candidates.length).toBe(lines.length - (run.phases.light.duplicates ?? 0));
  });

  it('the clock going backwards between two sweeps: the second sweep runs, writes nothing twice and dates nothing in the future', async () => {
    const { ws, service, clock } = await setup({ 'memory/2026-11-27.md': '# 2026-11-27\n\n- The staging database is ledgerd-staging on port 5433.\n' });
    const recalls = [
      { query: 'staging database port', daysAgo: 2 },
      { query: 'ledgerd-staging host', daysAgo: 1 },
      { query: 'which port is staging on', daysAgo: 0 },
    ];
    await recallOver(service, clock, recalls);
    const first = await dream(service);
    expect(first.promoted.map((p) => p.candidateKey)).toEqual(['memory/2026-11-27.md:3:3']);
    const memory = fs.readFileSync(path.join(ws.root, 'MEMORY.md'), 'utf8');

    clock.set(SWEEP_AT - 2 * DAY_MS); // the machine's clock was set back two days
    await recallOver(service, clock, recalls);
    const second = await dream(service);
    expect(['ok', 'nothing-to-do']).toContain(second.status);
    expect(second.promoted).toEqual([]);
    expect(fs.readFileSync(path.join(ws.root, 'MEMORY.md'), 'utf8')).toBe(memory);
  });
});
