import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cliEnv, repoRoot } from './helpers/cli.js';
import { createTempWorkspace, type TempWorkspace } from './helpers/workspace.js';

let ws: TempWorkspace | undefined;
afterEach(() => ws?.cleanup());

const RECORDS = 12_000;

/** An engine log of about 3 MB, so `reverie logs --json` prints one JSON array far larger than a pipe holds. */
function writeLargeLog(dataDir: string): void {
  const dir = path.join(dataDir, 'logs');
  fs.mkdirSync(dir, { recursive: true });
  const lines: string[] = [];
  for (let i = 0; i < RECORDS; i++) {
    lines.push(JSON.stringify({ time: new Date(Date.UTC(2026, 0, 2, 0, 0, 0, i)).toISOString(), level: 'info', area: 'test', message: `record ${i}`, fields: { i, pad: 'p'.repeat(200) } }));
  }
  fs.writeFileSync(path.join(dir, 'reverie-2026-01-02.log'), lines.join('\n') + '\n');
}

describe('CLI output through a pipe', () => {
  it('hands a reader that takes its time every byte of a multi-megabyte --json answer', async () => {
    ws = createTempWorkspace({});
    writeLargeLog(ws.dataDir);
    const child = spawn(process.execPath, [path.join(repoRoot, 'bin', 'reverie.js'), 'logs', '--json', '--limit', String(RECORDS)], {
      cwd: repoRoot,
      env: cliEnv(ws.dataDir),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const chunks: Buffer[] = [];
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    // A slow reader: after each chunk, wait before taking the next, so the pipe stays full.
    child.stdout.on('data', (d: Buffer) => {
      chunks.push(d);
      child.stdout.pause();
      setTimeout(() => child.stdout.resume(), 5);
    });
    const [code] = await Promise.all([
      new Promise<number | null>((resolve) => child.on('exit', resolve)),
      new Promise<void>((resolve) => child.stdout.on('end', resolve)),
    ]);
    expect(code, stderr).toBe(0);
    const out = Buffer.concat(chunks).toString('utf8');
    expect(out.length).toBeGreaterThan(1024 * 1024);
    const records = JSON.parse(out) as Array<{ message: string }>;
    expect(records).toHaveLength(RECORDS);
    expect(records.at(-1)?.message).toBe(`record ${RECORDS - 1}`);
  }, 60_000);
});
