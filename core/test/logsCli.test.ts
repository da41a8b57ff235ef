import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { LogRecord } from '../src/contract/index.js';
import { localDay } from '../src/platform/localDay.js';
import { cliEnv, repoRoot, runCli, stopProcess } from './helpers/cli.js';
import { createTempWorkspace, SAMPLE_NOTES, type TempWorkspace } from './helpers/workspace.js';

let ws: TempWorkspace;
let follower: ChildProcess | undefined;
afterEach(async () => {
  if (follower) await stopProcess(follower);
  follower = undefined;
  ws?.cleanup();
});

/** Resolves once `text` has appeared in what the stream printed so far. */
function waitFor(stream: NodeJS.ReadableStream, seen: { text: string }, text: string): Promise<void> {
  return new Promise((resolve) => {
    const check = () => {
      if (!seen.text.includes(text)) return;
      stream.off('data', check);
      resolve();
    };
    stream.on('data', check);
    check();
  });
}

describe('reverie logs', () => {
  it('after a first index the log exists, and logs prints it as text or JSON, filtered by level', async () => {
    ws = createTempWorkspace(SAMPLE_NOTES);
    const env = cliEnv(ws.dataDir);
    expect((await runCli(['index', '--workspace', ws.root], env)).code).toBe(0);
    const logDir = path.join(ws.dataDir, 'logs');
    const files = fs.readdirSync(logDir);
    expect(files).toEqual([expect.stringMatching(/^reverie-\d{4}-\d{2}-\d{2}\.log$/)]);
    expect(fs.statSync(path.join(logDir, files[0]!)).size).toBeGreaterThan(0);

    const text = await runCli(['logs'], env);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{3} {2}INFO {3}index {2}Indexing started {2}workspace=\S+ {2}force=false$/m);
    expect(text.stdout).toMatch(/ {2}INFO {3}index {2}Indexing finished {2}files=7 {2}chunks=\d+ {2}added=7 /m);

    const json = await runCli(['logs', '--json', '--level', 'info', '--limit', '1'], env);
    expect(json.stdout.trim().split('\n')).toHaveLength(1);
    expect(JSON.parse(json.stdout)).toEqual([expect.objectContaining({ level: 'info', message: 'Indexing finished', fields: expect.objectContaining({ files: 7 }) })]);

    const warnings = await runCli(['logs', '--json', '--level', 'warn'], env);
    expect(JSON.parse(warnings.stdout)).toEqual([]);
    const bad = await runCli(['logs', '--level', 'loud'], env);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('--level must be debug or info or warn or error (got "loud").');
  });

  it('--follow prints new records as they are written until Ctrl-C', async () => {
    ws = createTempWorkspace(SAMPLE_NOTES);
    const env = cliEnv(ws.dataDir);
    follower = spawn(process.execPath, [path.join(repoRoot, 'bin', 'reverie.js'), 'logs', '--follow', '--json', '--level', 'warn'], { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'pipe'] });
    const out = { text: '' };
    const err = { text: '' };
    follower.stdout!.on('data', (d: Buffer) => (out.text += d.toString()));
    follower.stderr!.on('data', (d: Buffer) => (err.text += d.toString()));
    await waitFor(follower.stderr!, err, 'Following');

    // Another process appends to today's file (as a host would), a whole record and one in two writes.
    const today = path.join(ws.dataDir, 'logs', `reverie-${localDay(new Date())}.log`);
    fs.mkdirSync(path.dirname(today), { recursive: true });
    const record = (level: LogRecord['level'], message: string): string => JSON.stringify({ time: new Date().toISOString(), level, area: 'test', message, pid: 1 });
    fs.appendFileSync(today, record('info', 'below the level') + '\n' + record('warn', 'first warning') + '\n');
    const split = record('error', 'written in two parts');
    fs.appendFileSync(today, split.slice(0, 20));
    await waitFor(follower.stdout!, out, 'first warning');
    fs.appendFileSync(today, split.slice(20) + '\n');
    await waitFor(follower.stdout!, out, 'written in two parts');

    const exited = new Promise<number | null>((resolve) => follower!.once('exit', (code) => resolve(code)));
    follower.kill('SIGINT');
    expect(await exited).toBe(0);
    expect(out.text.trim().split('\n').map((line) => (JSON.parse(line) as LogRecord).message)).toEqual(['first warning', 'written in two parts']);
  });
});
