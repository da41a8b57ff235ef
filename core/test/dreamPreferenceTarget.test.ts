import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { MemoryService } from '../src/engine/memoryService.js';
import { isDirective } from '../src/dreaming/curated/directive.js';
import { createTempWorkspace, openService, type TempWorkspace } from './helpers/workspace.js';
import { dream, recallOver, testClock } from './helpers/dreaming.js';

let ws: TempWorkspace | null = null;
let service: MemoryService | null = null;
afterEach(async () => {
  await service?.close();
  ws?.cleanup();
  service = null;
  ws = null;
});

const SWEEP_AT = new Date(2026, 10, 29, 3, 0, 0).getTime();

describe('where a promoted preference goes', () => {
  it('a rule of the person that isDirective does not word-match still goes to USER.md, by its kind', async () => {
    const rule = 'zsh > bash for every shell script of mine';
    expect(isDirective(rule)).toBe(false); // the wording rules alone would send it to MEMORY.md
    ws = createTempWorkspace({ 'memory/2026-11-27.md': `# 2026-11-27\n\n- ${rule}\n- The build box is forge-02.lan, port 2222.\n` });
    const clock = testClock(SWEEP_AT);
    service = openService(ws, { now: clock.now });
    await service.sync(false);
    await recallOver(service, clock, [
      { query: 'zsh or bash for scripts', daysAgo: 2 },
      { query: 'which shell for scripts', daysAgo: 1 },
      { query: 'shell script zsh bash', daysAgo: 0 },
      { query: 'build box port', daysAgo: 2 },
      { query: 'forge-02 ssh port', daysAgo: 1 },
      { query: 'where do builds run', daysAgo: 0 },
    ]);
    const run = await dream(service);
    const byText = new Map(run.candidates.map((c) => [c.text, c]));
    expect(byText.get(rule)).toMatchObject({ kind: 'preference', outcome: 'promoted', target: 'USER.md' });
    expect(fs.readFileSync(path.join(ws.root, 'USER.md'), 'utf8')).toContain('zsh > bash');
    expect(fs.readFileSync(path.join(ws.root, 'MEMORY.md'), 'utf8')).not.toContain('zsh > bash');
  });
});
