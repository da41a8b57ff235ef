import { spawn } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import type { MemoryService } from '../src/engine/memoryService.js';
import { createTempWorkspace, openService, type TempWorkspace } from './helpers/workspace.js';

let ws: TempWorkspace;
const services: MemoryService[] = [];
afterEach(async () => {
  for (const s of services.splice(0)) await s.close();
  ws?.cleanup();
});

describe('host lock', () => {
  it('refuses a second host on the same workspace, naming the running one', async () => {
    ws = createTempWorkspace({ 'MEMORY.md': '# m\n' });
    const first = openService(ws);
    services.push(first);
    await first.startHosting({ kind: 'serve', url: null });
    first.setHostUrl('http://127.0.0.1:4567');
    const second = openService(ws);
    services.push(second);
    await expect(second.startHosting({ kind: 'desktop', url: null })).rejects.toMatchObject({
      code: 'locked',
      message: expect.stringMatching(new RegExp(`already open in \`reverie serve\` \\(pid ${process.pid} at http://127\\.0\\.0\\.1:4567`)),
    });
  });

  it('takes over a stale lock left by a killed host', async () => {
    ws = createTempWorkspace({ 'MEMORY.md': '# m\n' });
    const first = openService(ws);
    // A lock naming a process that no longer exists, as after kill -9.
    const dead = spawn(process.execPath, ['-e', '0']);
    await new Promise((r) => dead.on('exit', r));
    first.lock.acquire({ kind: 'serve', pid: dead.pid!, startedAt: new Date().toISOString(), url: null }, ws.root);
    await first.close();
    (first.lock as unknown as { held: boolean }).held = false;
    const second = openService(ws);
    services.push(second);
    await second.startHosting({ kind: 'serve', url: null });
    expect(second.lock.readHolder()?.pid).toBe(process.pid);
  });
});
