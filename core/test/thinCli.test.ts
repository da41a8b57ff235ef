import fs from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { ownerTokenPath } from '../src/agents/socket/ownerToken.js';
import { runThinCommand } from '../src/cli/fast/thinCommands.js';
import type { MemoryService } from '../src/engine/memoryService.js';
import { capturingStdout, cliEnv, runCli } from './helpers/cli.js';
import { createTempWorkspace, openService, SAMPLE_NOTES, type TempWorkspace } from './helpers/workspace.js';

// Spawned CLIs run from source through tsx on a loaded machine: generous.
const SLOW = 240_000;
let ws: TempWorkspace;
let host: MemoryService | null = null;

afterEach(async () => {
  await host?.close();
  host = null;
  ws?.cleanup();
});

async function startHost(): Promise<void> {
  ws = createTempWorkspace(SAMPLE_NOTES);
  host = openService(ws);
  await host.sync(false);
  await host.startHosting({ kind: 'serve', url: null });
}

const where = () => ['--workspace', ws.root, '--data-dir', ws.dataDir];

/** The thin path in this process, its stdout captured; a fallback (loading the engine) fails the test. */
async function thin(args: string[], onFallback: () => Promise<number> = () => Promise.reject(new Error(`the thin path fell back for ${args.join(' ')}`))): Promise<string> {
  const { out, result } = await capturingStdout(() => runThinCommand([...args, ...where()], onFallback));
  expect(result).toBe(0);
  return out;
}

/** The full command (engine loaded in the CLI process) while the host runs. */
async function full(args: string[]): Promise<string> {
  const result = await runCli([...args, ...where()], cliEnv(ws.dataDir, { REVERIE_THIN: '0' }), SLOW);
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  return result.stdout;
}

describe('one-shot commands answered by the running host', () => {
  it('print exactly what the full commands print', async () => {
    await startHost();
    const cases = [
      ['search', 'atlas', 'systemd'],
      ['search', 'restic', '--json', '--limit', '3', '--source', 'memory'],
      ['get', 'MEMORY.md', '--from', '3', '--lines', '2'],
      ['get', 'memory/2026-04-06.md', '--json'],
      ['status'],
    ];
    for (const args of cases) {
      const answered = await thin(args);
      expect(answered.length).toBeGreaterThan(0);
      expect(answered, args.join(' ')).toBe(await full(args));
    }
  }, SLOW * 5);

  it('runs through bin/reverie.js with the host, and loads the engine once the host is gone', async () => {
    await startHost();
    const env = cliEnv(ws.dataDir);
    const withHost = await runCli(['search', 'atlas', '--json', ...where()], env, SLOW);
    expect(withHost.code).toBe(0);
    const hits = JSON.parse(withHost.stdout) as Array<{ path: string }>;
    expect(hits.map((h) => h.path)).toContain('memory/2026-04-06.md');

    await host!.close();
    host = null;
    // A clean stop removes the owner token: the thin path has nothing to ask and falls back.
    expect(fs.existsSync(ownerTokenPath(ws.dataDir))).toBe(false);
    let fellBack = false;
    await thin(['status'], async () => {
      fellBack = true;
      return 0;
    });
    expect(fellBack).toBe(true);
    const withoutHost = await runCli(['search', 'atlas', '--json', ...where()], env, SLOW);
    expect(withoutHost.code).toBe(0);
    expect(JSON.parse(withoutHost.stdout)).toEqual(hits);
  }, SLOW * 3);

  it('leaves refusals and unusual flags to the full command, which words the error', async () => {
    await startHost();
    for (const args of [
      ['search', 'atlas', '--source', 'nowhere'], // the host refuses the source
      ['search', 'atlas', '--limit', '0'],
      ['search', 'atlas', '--graph'],
      ['get', '../outside.md'], // the host refuses the path
      ['status', '--bogus'],
      ['search', '--help'],
    ]) {
      let fellBack = false;
      await thin(args, async () => {
        fellBack = true;
        return 0;
      });
      expect(fellBack, args.join(' ')).toBe(true);
    }
    // A stale or forged owner token is refused: the CLI falls back rather than reading the host.
    fs.writeFileSync(ownerTokenPath(ws.dataDir), 'not-the-token');
    let fellBack = false;
    await thin(['status'], async () => {
      fellBack = true;
      return 0;
    });
    expect(fellBack).toBe(true);
  }, SLOW);
});
