import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { MemoryService } from '../src/engine/memoryService.js';
import { sha256Hex } from '../src/platform/hash.js';
import { createTempWorkspace, openService, type TempWorkspace } from './helpers/workspace.js';

let ws: TempWorkspace | null = null;
let service: MemoryService | null = null;
afterEach(async () => {
  delete process.env.REVERIE_TEST_PAUSE_BEFORE_RENAME_MS;
  await service?.close();
  ws?.cleanup();
  service = null;
  ws = null;
});

/**
 * Another program appending numbered lines without any lock (a shell `>>`): it starts when the
 * `go` file appears, waits 20 ms (so the save's check has passed), then appends every 10 ms.
 */
function startAppender(file: string, go: string, count: number): Promise<string[]> {
  const script = `const fs=require('node:fs');const wait=(ms)=>Atomics.wait(new Int32Array(new SharedArrayBuffer(4)),0,0,ms);
while(!fs.existsSync(${JSON.stringify(go)}))wait(2);wait(20);
for(let i=0;i<${count};i++){fs.appendFileSync(${JSON.stringify(file)},'- appended by another program '+i+'\\n');wait(10);}`;
  const child = spawn(process.execPath, ['-e', script], { stdio: 'ignore' });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve(Array.from({ length: count }, (_, i) => `- appended by another program ${i}`)) : reject(new Error(`appender exited ${code}`))));
  });
}

describe('files.write while another program appends', () => {
  it('keeps every appended line: the save carries what arrived between its check and its rename', async () => {
    ws = createTempWorkspace({ 'memory/2026-11-30.md': '# 2026-11-30\n\n- first line\n' });
    service = openService(ws);
    const file = path.join(ws.root, 'memory/2026-11-30.md');
    const opened = await service.invoke('files.read', { path: 'memory/2026-11-30.md' });
    const go = path.join(ws.root, '..', 'go');
    const appender = startAppender(file, go, 10);
    // The save holds its window open for 1 s; the appender's ten lines (~120 ms) all land inside it.
    process.env.REVERIE_TEST_PAUSE_BEFORE_RENAME_MS = '1000';
    fs.writeFileSync(go, '');
    const saved = await service.invoke('files.write', { path: 'memory/2026-11-30.md', text: opened.text + '- typed in Reverie\n', expectedSha256: opened.sha256 });
    delete process.env.REVERIE_TEST_PAUSE_BEFORE_RENAME_MS;
    const lines = await appender;
    const onDisk = fs.readFileSync(file, 'utf8');
    expect(onDisk.startsWith('# 2026-11-30\n\n- first line\n- typed in Reverie\n')).toBe(true);
    expect(lines.filter((line) => !onDisk.includes(line + '\n'))).toEqual([]);
    // The lines arrived inside the window (not after the save), so they were carried over: the
    // saved version the editor is told about is not just its own text.
    expect(saved.sha256).not.toBe(sha256Hex(opened.text + '- typed in Reverie\n'));
  }, 30_000);
});
