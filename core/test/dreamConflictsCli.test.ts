import { afterEach, describe, expect, it } from 'vitest';
import type { DreamConflict } from '../src/contract/index.js';
import { cliEnv, runCli } from './helpers/cli.js';
import { createTempWorkspace, openService, type TempWorkspace } from './helpers/workspace.js';

const ANY_RECALL = ['--min-score', '0', '--min-recall-count', '1', '--min-unique-queries', '1'];

let ws: TempWorkspace | null = null;
afterEach(() => {
  ws?.cleanup();
  ws = null;
});

describe('reverie dream conflicts', () => {
  it('lists the contradictions a sweep queued and records the decision; a bad decision is a clear error', async () => {
    ws = createTempWorkspace({
      'MEMORY.md': '# Long-Term Memory\n',
      'memory/2026-11-28.md': '# 2026-11-28\n\n- The wiki says the metrics endpoint listens on port 9102.\n- Jun says the metrics endpoint is on port 9464.\n',
    });
    const service = openService(ws);
    try {
      await service.sync(false);
      for (const query of ['metrics endpoint port', 'which port metrics endpoint']) await service.invoke('memory.search', { query, limit: 5 });
      service.dreams.recorder.flush();
    } finally {
      await service.close();
    }
    const env = cliEnv(ws.dataDir);
    const at = ['--workspace', ws.root];
    expect((await runCli(['dream', '--json', ...ANY_RECALL, ...at], env)).code).toBe(0);

    const listed = await runCli(['dream', 'conflicts', '--json', ...at], env);
    expect(listed.code).toBe(0);
    const { conflicts } = JSON.parse(listed.stdout) as { conflicts: DreamConflict[] };
    expect(conflicts).toHaveLength(1);
    expect([conflicts[0]!.a.text, conflicts[0]!.b.text].sort()).toEqual(['Jun says the metrics endpoint is on port 9464.', 'The wiki says the metrics endpoint listens on port 9102.']);

    const bad = await runCli(['dream', 'conflicts', '--resolve', conflicts[0]!.id, 'maybe', ...at], env);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toMatch(/needs a decision: keep-a, keep-b, keep-both, dismissed/);

    const resolved = await runCli(['dream', 'conflicts', '--resolve', conflicts[0]!.id, 'keep-b', ...at], env);
    expect(resolved.code).toBe(0);
    expect(resolved.stdout).toContain(`${conflicts[0]!.id}: keep-b.`);
    expect((await runCli(['dream', 'conflicts', ...at], env)).stdout).toContain('No open contradictions.');
    expect((await runCli(['dream', 'conflicts', '--all', ...at], env)).stdout).toContain('keep-b');
  }, 240_000);
});
