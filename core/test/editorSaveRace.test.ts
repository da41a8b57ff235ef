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

/** Another program appending numbered lines every few milliseconds, without any lock (a shell `>>`). */
function startAppender(file: string, count: number): Promise<string[]> {
  const script = `const fs=require('node:fs');let i=0;const t=setInterval(()=>{fs.appendFileSync(${JSON.stringify(file)},'- appended by another program '+(i++)+'\\n');if(i>=${count}){clearInterval(t)}},5);`;
  const child = spawn(process.execPath, ['-e', script], { stdio: 'ignore' });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', () => resolve(Array.from({ length: count }, (_, i) => `- appended by another program ${i}`)));
  });
}

describe('files.write while another program appends', () => {
  it('keeps every appended line: the save carries what arrived between its check and its rename', async () => {
    ws = createTempWorkspace({ 'memory/2026-11-30.md': '# 2026-11-30\n\n- first line\n' });
    service = openService(ws);
    const file = path.join(ws.root, 'memory/2026-11-30.md');
    const opened = await service.invoke('files.read', { path: 'memory/2026-11-30.md' });
    const appender = startAppender(file, 40);
    // Wait for the first append, so the save's own check still sees what was opened, re-read just before.
    await new Promise((resolve) => setTimeout(resolve, 30));
    const reread = await service.invoke('files.read', { path: 'memory/2026-11-30.md' });
    process.env.REVERIE_TEST_PAUSE_BEFORE_RENAME_MS = '150'; // hold the window open while the appender runs
    const saved = await service.invoke('files.write', { path: 'memory/2026-11-30.md', text: reread.text + '- typed in Reverie\n', expectedSha256: reread.sha256 });
    delete process.env.REVERIE_TEST_PAUSE_BEFORE_RENAME_MS;
    const lines = await appender;
    const onDisk = fs.readFileSync(file, 'utf8');
    expect(opened.text).toBe('# 2026-11-30\n\n- first line\n');
    expect(onDisk).toContain('- typed in Reverie\n');
    expect(lines.filter((line) => !onDisk.includes(line + '\n'))).toEqual([]);
    // The saved version the editor is told about includes the carried lines it has not seen yet.
    expect(saved.sha256).not.toBe(sha256Hex(reread.text + '- typed in Reverie\n'));
  }, 30_000);
});
