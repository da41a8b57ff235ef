import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { DreamRun } from '../src/contract/index.js';
import type { MemoryService } from '../src/engine/memoryService.js';
import { dreamDatabasePath, openDreamDatabase } from '../src/dreaming/dreamDatabase.js';
import { resolveExistingWorkspace } from '../src/workspace/resolveWorkspace.js';
import { cliEnv, repoRoot, runCli } from './helpers/cli.js';
import { createTempWorkspace, openService, type TempWorkspace } from './helpers/workspace.js';

const NOTES = {
  'MEMORY.md': '# Long-Term Memory\n\n- Keep the gateway on loopback.\n',
  'USER.md': '# User\n\n- Answer in under ten lines unless asked for detail. <!-- observed: 2026-03-01 --> <!-- status: active -->\n',
  'memory/2026-11-28.md': '# 2026-11-28\n\n- The staging database is ledgerd-staging on port 5433.\n- Always use pnpm, never npm, in the ledgerd repository.\n',
};
const ANY_RECALL = ['--min-score', '0', '--min-recall-count', '1', '--min-unique-queries', '1'];

let ws: TempWorkspace | null = null;
const cleanups: Array<() => void | Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
  ws?.cleanup();
  ws = null;
});

const abs = (rel: string) => path.join(ws!.root, rel);
const read = (rel: string) => fs.readFileSync(abs(rel), 'utf8');

/** A workspace whose two daily-note lines were recalled (on the wall clock the CLI child uses). */
async function recalledWorkspace(): Promise<TempWorkspace> {
  ws = createTempWorkspace(NOTES);
  const service: MemoryService = openService(ws);
  await service.sync(false);
  for (const query of ['staging database port 5433', 'which package manager for ledgerd, pnpm']) await service.invoke('memory.search', { query, limit: 5 });
  service.dreams.recorder.flush();
  await service.close();
  return ws;
}

/** `reverie dream` in a child process, with the write seams set; resolves when it prints `marker`. */
function startSweep(w: TempWorkspace, env: NodeJS.ProcessEnv, marker: string | null): { child: ChildProcess; exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>; reached: Promise<void> } {
  const child = spawn(process.execPath, [path.join(repoRoot, 'bin', 'reverie.js'), 'dream', ...ANY_RECALL, '--workspace', w.root, '--data-dir', w.dataDir], {
    cwd: repoRoot,
    env: cliEnv(w.dataDir, env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal, stderr })));
  const reached = new Promise<void>((resolve, reject) => {
    child.stderr!.on('data', (d: Buffer) => {
      stderr += d.toString();
      if (marker && stderr.includes(marker)) resolve();
    });
    child.once('exit', (code) => (marker ? reject(new Error(`reverie dream exited (${code}) before "${marker}":\n${stderr}`)) : resolve()));
  });
  cleanups.push(async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
  });
  return { child, exited, reached };
}

describe('dreaming: an editor appending while the sweep writes', () => {
  it('loses no line: lines appended during each held write window are in MEMORY.md and USER.md afterwards', async () => {
    const w = await recalledWorkspace();
    // Every write waits 400 ms between its temp file and its rename: the window the race lives in.
    // The person appends only inside those windows, so the sweep's own check at the start passes.
    const sweep = startSweep(w, { REVERIE_TEST_PAUSE_BEFORE_RENAME_MS: '400' }, null);
    const appended: Record<string, string[]> = { 'MEMORY.md': [], 'USER.md': [] };
    let n = 0;
    let windows = 0;
    const bursts: Array<Promise<void>> = [];
    sweep.child.stderr!.on('data', (d: Buffer) => {
      for (const [, file] of d.toString().matchAll(/reverie-test: paused before rename \((MEMORY\.md|USER\.md|DREAMS\.md)\)/g)) {
        windows++;
        if (file === 'DREAMS.md') continue; // the diary is Reverie's own; the person types into memory
        bursts.push(
          (async () => {
            for (let i = 0; i < 8; i++) {
              await new Promise((resolve) => setTimeout(resolve, 20));
              const line = `- typed by the person while dreaming, line ${n++}`;
              fs.appendFileSync(abs(file!), line + '\n'); // like an editor's append or `>>` in a shell: no lock
              appended[file!]!.push(line);
            }
          })(),
        );
      }
    });
    const result = await sweep.exited;
    await Promise.all(bursts);
    expect(result.code, result.stderr).toBe(0);
    expect(windows).toBeGreaterThanOrEqual(3); // MEMORY.md, USER.md and DREAMS.md were each held
    expect(appended['MEMORY.md']!).toHaveLength(8);
    expect(appended['USER.md']!).toHaveLength(8);
    const memory = read('MEMORY.md');
    const user = read('USER.md');
    expect(appended['MEMORY.md']!.filter((line) => !memory.includes(line))).toEqual([]);
    expect(appended['USER.md']!.filter((line) => !user.includes(line))).toEqual([]);
    // The sweep's own writes landed too.
    expect(memory).toContain('The staging database is ledgerd-staging on port 5433.');
    expect(user).toContain('Always use pnpm, never npm, in the ledgerd repository.');
  }, 60_000);
});

describe('dreaming: undo after a crash', () => {
  it('a sweep killed just after renaming MEMORY.md is rolled back at once, byte for byte, and says what it checked', async () => {
    const w = await recalledWorkspace();
    const before = fs.readFileSync(abs('MEMORY.md'));
    const sweep = startSweep(w, { REVERIE_TEST_PAUSE_AFTER_RENAME_MS: '20000' }, 'reverie-test: paused after rename (MEMORY.md)\n');
    await sweep.reached;
    expect(read('MEMORY.md')).toContain('The staging database is ledgerd-staging on port 5433.'); // renamed into place
    sweep.child.kill('SIGKILL');
    expect((await sweep.exited).signal).toBe('SIGKILL');

    const env = cliEnv(w.dataDir);
    const listed = await runCli(['dream', 'runs', '--json', '--workspace', w.root, '--data-dir', w.dataDir], env);
    const killed = (JSON.parse(listed.stdout) as { runs: DreamRun[] }).runs[0]!;
    expect(killed.status).toBe('running');

    // No sweep in between: the dead process's run is undone from the write it recorded before the rename.
    const rolled = await runCli(['dream', '--rollback', killed.id, '--workspace', w.root, '--data-dir', w.dataDir], env);
    expect(rolled.code, rolled.stderr).toBe(0);
    expect(rolled.stdout).toMatch(/MEMORY\.md: MEMORY\.md is byte for byte as before the run \(preimage:/);
    expect(fs.readFileSync(abs('MEMORY.md')).equals(before)).toBe(true);

    const shown = await runCli(['dream', 'runs', '--json', '--workspace', w.root, '--data-dir', w.dataDir], env);
    const after = (JSON.parse(shown.stdout) as { runs: DreamRun[] }).runs.find((r) => r.id === killed.id)!;
    expect(after).toMatchObject({ status: 'failed', rolledBack: { mode: 'restored' } });
  }, 60_000);

  it('refuses, naming the pre-image, to roll back a run that changed a file without recording it (runs from before this version)', async () => {
    const w = await recalledWorkspace();
    const env = cliEnv(w.dataDir);
    const swept = await runCli(['dream', ...ANY_RECALL, '--json', '--workspace', w.root, '--data-dir', w.dataDir], env);
    expect(swept.code, swept.stderr).toBe(0);
    const run = JSON.parse(swept.stdout) as DreamRun;
    const preImageId = run.writes.find((x) => x.file === 'MEMORY.md')!.preImageId!;
    expect(preImageId).toMatch(/^preimage:/);
    // What a sweep killed after its rename used to leave: a running run with no writes.
    const { db } = openDreamDatabase(dreamDatabasePath(w.dataDir, resolveExistingWorkspace(w.root).id));
    db.prepare('UPDATE dream_runs SET status = ?, record = ? WHERE id = ?').run('running', JSON.stringify({ ...run, status: 'running', writes: [] }), run.id);
    db.close();
    const memory = read('MEMORY.md');

    const rolled = await runCli(['dream', '--rollback', run.id, '--workspace', w.root, '--data-dir', w.dataDir], env);
    expect(rolled.code).toBe(1);
    expect(rolled.stderr).toContain(`did not record what it wrote`);
    expect(rolled.stderr).toContain(preImageId);
    expect(read('MEMORY.md')).toBe(memory);
    const listed = await runCli(['dream', 'runs', '--json', '--workspace', w.root, '--data-dir', w.dataDir], env);
    expect((JSON.parse(listed.stdout) as { runs: DreamRun[] }).runs.find((r) => r.id === run.id)?.rolledBack).toBeNull();
  }, 60_000);
});
