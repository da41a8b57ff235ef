import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cliEnv, repoRoot, runCli, startServe, stopProcess } from './helpers/cli.js';
import { createTempWorkspace, SAMPLE_NOTES, type TempWorkspace } from './helpers/workspace.js';
import type { ChildProcess } from 'node:child_process';

let ws: TempWorkspace;
let host: ChildProcess | undefined;
afterEach(async () => {
  if (host) await stopProcess(host);
  host = undefined;
  ws?.cleanup();
});

describe('reverie CLI', () => {
  it('indexes, searches and reports status with exactly one JSON line on stdout', async () => {
    ws = createTempWorkspace(SAMPLE_NOTES);
    ws.write('memory/bad.md', Buffer.from([0xff, 0xfe, 0x41]));
    const env = cliEnv(ws.dataDir);
    const index = await runCli(['index', '--json', '--workspace', ws.root], env);
    expect(index.code).toBe(0);
    expect(index.stdout.trim().split('\n')).toHaveLength(1);
    expect(JSON.parse(index.stdout)).toMatchObject({ files: 8, skipped: 1 });

    const search = await runCli(['search', 'restic', 'backups', '--json', '--limit', '3', '--workspace', ws.root], env);
    expect(search.code).toBe(0);
    expect(search.stdout.trim().split('\n')).toHaveLength(1);
    const results = JSON.parse(search.stdout) as Array<Record<string, unknown>>;
    expect(results[0]).toMatchObject({ path: 'MEMORY.md', source: 'memory' });
    for (const key of ['path', 'startLine', 'endLine', 'snippet', 'score', 'source']) expect(results[0]).toHaveProperty(key);

    const status = await runCli(['status', '--json', '--workspace', ws.root], env);
    expect(status.code).toBe(0);
    const st = JSON.parse(status.stdout);
    expect(st.files).toHaveLength(8);
    expect(st.files.find((f: { path: string }) => f.path === 'memory/bad.md')).toMatchObject({ status: 'skipped', reason: expect.stringMatching(/^not UTF-8/) });
    expect(st.embedding.knn).toEqual({ mode: 'flat', reason: null });
    const text = await runCli(['status', '--workspace', ws.root], env);
    expect(text.stdout).toMatch(/^Nearest {4}KNN over every vector$/m);
  });

  it('exits 1 with a clear message for a missing workspace or bad arguments', async () => {
    ws = createTempWorkspace();
    const env = cliEnv(ws.dataDir);
    const missing = path.join(ws.root, 'nope');
    const r = await runCli(['status', '--workspace', missing], env);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`Workspace folder ${missing} does not exist`);
    expect(r.stdout).toBe('');
    expect((await runCli(['search', 'x', '--limit', 'lots', '--workspace', ws.root], env)).code).toBe(1);
    expect((await runCli(['frobnicate'], env)).code).toBe(1);
    expect((await runCli(['status', '--bogus'], env)).code).toBe(1);
  });

  it('prints per-command help, the version, and names a bad or unknown flag', async () => {
    ws = createTempWorkspace();
    const env = cliEnv(ws.dataDir);
    const version = await runCli(['--version'], env);
    expect(version).toMatchObject({ code: 0, stdout: `${JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8')).version}\n` });

    const help = await runCli(['search', '--help'], env);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage:\n  reverie search <query>');
    expect(help.stdout).toMatch(/--limit N +how many results \(1–100, default 10\)/);
    expect((await runCli(['help', 'search'], env)).stdout).toBe(help.stdout);

    const unknown = await runCli(['status', '--limit', '3', '--workspace', ws.root], env);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('reverie status: unknown option --limit.');
    expect(unknown.stderr).toContain('Usage: reverie status');
    const badNumber = await runCli(['search', 'x', '--limit', '0', '--workspace', ws.root], env);
    expect(badNumber).toMatchObject({ code: 1, stdout: '' });
    expect(badNumber.stderr).toBe('reverie search: --limit must be a whole number from 1 to 100 (got "0").\n');
    // Nothing was opened for a flag that failed its check: no index in the data folder.
    expect(fs.existsSync(path.join(ws.dataDir, 'index'))).toBe(false);
  });

  it('reads and writes settings with config get/set', async () => {
    ws = createTempWorkspace();
    const env = cliEnv(ws.dataDir);
    expect((await runCli(['config', 'set', 'maxFileSizeMB', '32'], env)).code).toBe(0);
    const got = await runCli(['config', 'get', 'maxFileSizeMB', '--json'], env);
    expect(JSON.parse(got.stdout)).toBe(32);
    const bad = await runCli(['config', 'set', 'maxFileSizeMB', 'huge'], env);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('maxFileSizeMB');
    expect(JSON.parse(fs.readFileSync(path.join(ws.dataDir, 'settings.json'), 'utf8')).maxFileSizeMB).toBe(32);
  });

  it('creates a starter workspace on first run without prompting when there is no TTY', async () => {
    ws = createTempWorkspace();
    const env = cliEnv(ws.dataDir);
    const r = await runCli(['status', '--json'], env);
    expect(r.code).toBe(0);
    const home = path.join(ws.dataDir, 'home');
    expect(JSON.parse(r.stdout).workspace.path).toBe(fs.realpathSync(path.join(home, 'Reverie')));
    expect(fs.existsSync(path.join(home, 'Reverie', 'MEMORY.md'))).toBe(true);
    expect(fs.existsSync(path.join(home, 'Reverie', 'USER.md'))).toBe(true);
  });

  it('refuses a second host and lets one-shot commands work beside a running one', async () => {
    ws = createTempWorkspace(SAMPLE_NOTES);
    const env = cliEnv(ws.dataDir);
    const served = await startServe(['--workspace', ws.root], env);
    host = served.child;
    const second = await runCli(['serve', '--workspace', ws.root, '--port', '0'], env, 20_000);
    expect(second.code).toBe(1);
    expect(second.stderr).toContain(`already open in \`reverie serve\` (pid ${served.info.pid} at ${served.info.url}`);

    const status = await runCli(['status', '--json', '--workspace', ws.root], env, 20_000);
    expect(status.code).toBe(0);
    expect(JSON.parse(status.stdout).host).toMatchObject({ kind: 'serve', pid: served.info.pid, url: served.info.url });
    const index = await runCli(['index', '--json', '--workspace', ws.root], env, 20_000);
    expect(index.code).toBe(0);
    const search = await runCli(['search', 'piranesi', '--json', '--workspace', ws.root], env, 20_000);
    expect(JSON.parse(search.stdout)[0].path).toBe('memory/2026-04-05.md');
  });

  it('serve --demo opens a fresh copy of the sample workspace and leaves the original untouched', async () => {
    ws = createTempWorkspace();
    const env = cliEnv(ws.dataDir);
    const served = await startServe(['--demo'], env);
    host = served.child;
    const workspace = (served.info as unknown as { workspace: string }).workspace;
    expect(workspace).not.toContain('resources');
    expect(fs.existsSync(path.join(workspace, 'MEMORY.md'))).toBe(true);
    const headers = { 'Content-Type': 'application/json', Authorization: `Bearer ${new URL(served.info.launchUrl).hash.slice('#token='.length)}` };
    await fetch(`${served.info.url}/api/index.sync`, { method: 'POST', headers, body: '{}' });
    const res = (await (await fetch(`${served.info.url}/api/memory.search`, { method: 'POST', headers, body: JSON.stringify({ query: 'postgres upgrade' }) })).json()) as {
      result: { results: unknown[] };
    };
    expect(res.result.results.length).toBeGreaterThan(0);
    await stopProcess(host);
    host = undefined;
    fs.rmSync(workspace, { recursive: true, force: true });
  });

  it('recovers after kill -9 during indexing with no manual step', async () => {
    ws = createTempWorkspace(SAMPLE_NOTES);
    for (let i = 0; i < 3000; i++) ws.write(`memory/bulk/${i}.md`, `# Bulk ${i}\n\n` + `- line about the harbour number ${i} and its lighthouse keeper\n`.repeat(30));
    const env = cliEnv(ws.dataDir);
    const { spawn } = await import('node:child_process');
    const { repoRoot } = await import('./helpers/cli.js');
    const child = spawn(process.execPath, [path.join(repoRoot, 'bin', 'reverie.js'), 'index', '--workspace', ws.root], { env, stdio: ['ignore', 'ignore', 'pipe'] });
    // Wait until indexing is under way (progress lines), then kill it hard.
    await new Promise<void>((resolve) => {
      child.stderr.on('data', (d: Buffer) => d.toString().includes('indexing') && resolve());
      child.on('exit', () => resolve());
    });
    child.kill('SIGKILL');
    await new Promise((r) => child.on('exit', r));
    const again = await runCli(['index', '--json', '--workspace', ws.root], env);
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ files: 3007, failed: 0 });
    const search = await runCli(['search', 'lighthouse keeper 2999', '--json', '--workspace', ws.root], env);
    expect(JSON.parse(search.stdout).some((r: { path: string }) => r.path === 'memory/bulk/2999.md')).toBe(true);
  });
});
