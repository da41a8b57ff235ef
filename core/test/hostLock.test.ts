import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SweepLock } from '../src/dreaming/sweepLock.js';
import type { MemoryService } from '../src/engine/memoryService.js';
import { resolveExistingWorkspace } from '../src/workspace/resolveWorkspace.js';
import { createTempWorkspace, openService, type TempWorkspace } from './helpers/workspace.js';

let ws: TempWorkspace;
const services: MemoryService[] = [];
const otherDataDirs: string[] = [];
afterEach(async () => {
  for (const s of services.splice(0)) await s.close();
  ws?.cleanup();
  for (const dir of otherDataDirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function otherDataDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'reverie-data2-'));
  otherDataDirs.push(dir);
  return dir;
}

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
    const second = openService(ws);
    services.push(second);
    await second.startHosting({ kind: 'serve', url: null });
    expect(second.lock.readHolder()?.pid).toBe(process.pid);
  });

  it('refuses a second host on the same workspace from another data folder, naming the holder pid and the workspace', async () => {
    ws = createTempWorkspace({ 'MEMORY.md': '# m\n' });
    const first = openService(ws);
    services.push(first);
    await first.startHosting({ kind: 'daemon', url: null });
    const second = openService(ws, { dataDir: otherDataDir() });
    services.push(second);
    await expect(second.startHosting({ kind: 'daemon', url: null })).rejects.toMatchObject({
      code: 'locked',
      message: expect.stringContaining(`Workspace ${ws.root} is already open in \`reverie daemon\` (pid ${process.pid},`),
    });
    expect(second.lock.readHolder()?.pid).toBe(process.pid);
  });

  it('refuses while an older host holds the lock in the data folder, and takes that one too', async () => {
    ws = createTempWorkspace({ 'MEMORY.md': '# m\n' });
    const id = resolveExistingWorkspace(ws.root).id;
    const legacy = path.join(ws.dataDir, 'locks', `${id}.lock`);
    fs.mkdirSync(path.dirname(legacy), { recursive: true });
    fs.writeFileSync(legacy, JSON.stringify({ kind: 'serve', pid: process.pid, startedAt: new Date().toISOString(), url: null }));
    const service = openService(ws);
    services.push(service);
    await expect(service.startHosting({ kind: 'daemon', url: null })).rejects.toMatchObject({ code: 'locked', message: expect.stringContaining(legacy) });
    expect(fs.existsSync(path.join(ws.root, '.reverie', 'locks', 'host.lock'))).toBe(false);
    fs.rmSync(legacy);
    await service.startHosting({ kind: 'daemon', url: null });
    expect(fs.existsSync(legacy)).toBe(true);
  });

  it('lets only one sweep run on a workspace, whatever the data folder', () => {
    ws = createTempWorkspace({ 'MEMORY.md': '# m\n' });
    const id = resolveExistingWorkspace(ws.root).id;
    const first = SweepLock.forWorkspace(ws.root, ws.dataDir, id);
    const second = SweepLock.forWorkspace(ws.root, otherDataDir(), id);
    expect(first.tryAcquire('run-1')).toMatchObject({ acquired: true });
    expect(second.tryAcquire('run-2')).toMatchObject({ acquired: false, holder: { pid: process.pid, runId: 'run-1' } });
    first.release();
    expect(second.tryAcquire('run-2')).toMatchObject({ acquired: true });
    second.release();
  });
});
