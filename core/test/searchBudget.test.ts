import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MemoryService } from '../src/engine/memoryService.js';
import { createTempWorkspace, openService, type TempWorkspace } from './helpers/workspace.js';

let ws: TempWorkspace;
let service: MemoryService;

const filler = (i: number): string => `- Entry ${i}: the morning was quiet and the kettle took a while to boil as usual.`;

beforeAll(async () => {
  ws = createTempWorkspace({
    'memory/2025-02-01-garden.md': [
      '# Garden',
      '',
      ...Array.from({ length: 6 }, (_, i) => filler(i)),
      '- Planted the heirloom tomatoes along the south fence, next to the rosemary.',
      '- The tomatoes need staking before the June storms arrive.',
      ...Array.from({ length: 6 }, (_, i) => filler(i + 6)),
    ].join('\n'),
    'memory/2025-02-02-garden.md': '# More garden\n\n- Watered the tomatoes twice; the heirloom ones wilt fast in the heat.\n',
    'memory/2025-02-03-garden.md': '# Even more\n\n- Gave the neighbour six tomatoes from the heirloom plants.\n',
  });
  service = openService(ws);
  await service.invoke('index.sync', { force: false });
}, 60_000);
afterAll(async () => {
  await service.close();
  ws.cleanup();
});

const search = async (query: string, extra: object = {}) => (await service.invoke('memory.search', { query, sources: ['memory'], ...extra })).results;
const totalChars = (results: Array<{ snippet: string }>): number => results.reduce((n, r) => n + r.snippet.length, 0) + Math.max(0, results.length - 1);

describe('memory.search with a character budget', () => {
  it('fits the snippets into the budget, best result first, matched lines whole', async () => {
    const whole = await search('heirloom tomatoes');
    const packed = await search('heirloom tomatoes', { budget: 300 });
    expect(packed.length).toBeGreaterThan(0);
    expect(totalChars(packed)).toBeLessThanOrEqual(300);
    expect(packed[0]!.id).toBe(whole[0]!.id);
    // Every snippet is whole lines of its file, in order, from its first to its last line:
    // runs that are apart are joined by a line of "…", and no line is cut.
    for (const r of packed) {
      const file = fs.readFileSync(path.join(ws.root, r.path), 'utf8').split('\n');
      const runs = r.snippet.split('\n…\n').map((run) => run.split('\n'));
      expect(file[r.startLine - 1]).toBe(runs[0]![0]);
      expect(file[r.endLine - 1]).toBe(runs.at(-1)!.at(-1));
      let at = r.startLine - 1;
      for (const run of runs) {
        const start = file.indexOf(run[0]!, at);
        expect(start).toBeGreaterThanOrEqual(at);
        expect(file.slice(start, start + run.length)).toEqual(run);
        at = start + run.length;
      }
      expect(at).toBe(r.endLine);
    }
    // More results fit than whole snippets would leave room for.
    expect(packed.map((r) => r.path)).toContain('memory/2025-02-03-garden.md');
  }, 30_000);

  it('widens the windows when the budget allows, and never repeats a line', async () => {
    const small = await search('heirloom tomatoes', { budget: 300 });
    const large = await search('heirloom tomatoes', { budget: 5000 });
    expect(totalChars(large)).toBeGreaterThan(totalChars(small));
    expect(totalChars(large)).toBeLessThanOrEqual(5000);
    const seen = new Set<string>();
    for (const r of large) {
      for (let l = r.startLine; l <= r.endLine; l++) {
        const key = `${r.path}:${l}`;
        expect(seen.has(key)).toBe(false);
        seen.add(key);
      }
    }
  }, 30_000);

  it('gives back nothing rather than half a line when a budget is too small for any line', async () => {
    expect(await search('heirloom tomatoes', { budget: 5 })).toEqual([]);
  }, 30_000);

  it('refuses a budget of 0 or of 10 MB with a message naming the field', async () => {
    await expect(search('tomatoes', { budget: 0 })).rejects.toThrow(/budget must be at least 1/);
    await expect(search('tomatoes', { budget: 10 * 1024 * 1024 })).rejects.toThrow(/budget is over 100000 characters/);
  }, 30_000);

  it('answers a 5,000-word query, stop words or punctuation only, without a crash', async () => {
    const huge = Array.from({ length: 5000 }, (_, i) => (i % 7 === 0 ? 'tomatoes' : `word${i % 300}`)).join(' ').slice(0, 19_999);
    expect(Array.isArray(await search(huge, { budget: 1500 }))).toBe(true);
    expect(Array.isArray(await search('the of and to', { budget: 1500 }))).toBe(true);
    expect(await search('?!… ,;', { budget: 1500 })).toEqual([]);
  }, 60_000);
});
