import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { EngineEvent } from '../../core/src/contract/index.js';

vi.mock('electron', () => import('./electronDouble.js'));
const { EngineConnection } = await import('../main/engineConnection.js');
const { NodeUtilityProcess } = await import('./electronDouble.js');

const ENGINE_ENTRY = path.resolve(import.meta.dirname, '../../core/src/host/engineProcess.ts');

/** The real engine process (TypeScript entry through tsx) on a temp workspace and data folder. */
function setup(): { dir: string; workspace: string; dataDir: string; env: NodeJS.ProcessEnv } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'reverie-engine-'));
  const workspace = path.join(dir, 'ws');
  fs.mkdirSync(path.join(workspace, 'memory'), { recursive: true });
  fs.writeFileSync(path.join(workspace, 'MEMORY.md'), '# Memory\n\n- The staging database runs on port 5433.\n');
  const dataDir = path.join(dir, 'data');
  return { dir, workspace, dataDir, env: { ...process.env, HOME: path.join(dir, 'home'), REVERIE_DATA_DIR: dataDir } };
}

function waitForEvent(events: EngineEvent[], predicate: (e: EngineEvent) => boolean, timeoutMs = 20_000): Promise<EngineEvent> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const poll = (): void => {
      const found = events.find(predicate);
      if (found) return resolve(found);
      if (Date.now() - started > timeoutMs) return reject(new Error(`event not seen; got ${events.map((e) => e.type).join(', ')}`));
      setTimeout(poll, 20);
    };
    poll();
  });
}

describe('EngineConnection (utilityProcess lifecycle, real engine)', () => {
  let env: ReturnType<typeof setup>;
  let connection: InstanceType<typeof EngineConnection> | null = null;
  beforeEach(() => {
    env = setup();
  });
  afterEach(async () => {
    await connection?.stop();
    connection = null;
    fs.rmSync(env.dir, { recursive: true, force: true });
  });

  it('starts the engine, answers calls, restarts it after a crash and fails pending calls clearly', async () => {
    const events: EngineEvent[] = [];
    const timers: Array<() => void> = [];
    connection = new EngineConnection({
      entry: ENGINE_ENTRY,
      args: ['--data-dir', env.dataDir, '--workspace', env.workspace],
      env: env.env,
      onDidEmitEvent: (e) => events.push(e),
      setTimer: (fn) => timers.push(fn), // restart delays run when the test says so
    });
    connection.start();
    await waitForEvent(events, (e) => e.type === 'index-ready');
    expect(events.some((e) => e.type === 'engine-state' && e.state === 'running')).toBe(true);

    const found = await connection.call('memory.search', { query: 'staging database port', limit: 5, sources: ['memory'], graph: false });
    expect(found.ok).toBe(true);
    expect(JSON.stringify(found)).toContain('5433');

    // A native crash: the process dies without a goodbye.
    const first = NodeUtilityProcess.forked.at(-1)!;
    const pending = connection.call('status', {});
    first.kill();
    const answer = await pending;
    expect(answer.ok === false && answer.error.message).toMatch(/stopped before answering/);
    const crashed = await waitForEvent(events, (e) => e.type === 'engine-state' && e.state === 'crashed');
    expect(crashed.type === 'engine-state' && crashed.message).toMatch(/exited .*restarting in 0\.5 s/);
    expect(connection.running).toBe(false);
    const whileDown = await connection.call('status', {});
    expect(whileDown.ok === false && whileDown.error.message).toMatch(/not running/);

    events.length = 0;
    timers.shift()!(); // the back-off delay elapses
    await waitForEvent(events, (e) => e.type === 'engine-state' && e.state === 'running');
    const again = await connection.call('status', {});
    expect(again.ok && (again.result as { workspace: { path: string } }).workspace.path).toBe(fs.realpathSync(env.workspace));
    expect(NodeUtilityProcess.forked.at(-1)).not.toBe(first);
  }, 60_000);

  it('quits gracefully: the engine closes the index and releases the host lock', async () => {
    const events: EngineEvent[] = [];
    connection = new EngineConnection({ entry: ENGINE_ENTRY, args: ['--data-dir', env.dataDir, '--workspace', env.workspace], env: env.env, onDidEmitEvent: (e) => events.push(e) });
    connection.start();
    await waitForEvent(events, (e) => e.type === 'index-ready');
    const lockFiles = (): string[] => fs.readdirSync(env.dataDir, { recursive: true }).map(String).filter((f) => f.endsWith('.lock'));
    expect(lockFiles()).toHaveLength(1); // the engine hosts the workspace
    const child = NodeUtilityProcess.forked.at(-1)!;
    const exited = new Promise<number>((resolve) => child.once('exit', (code) => resolve(code as number)));
    await connection.stop();
    expect(await exited).toBe(0); // exited by itself, not killed
    expect(events.some((e) => e.type === 'engine-state' && e.state === 'crashed')).toBe(false);
    expect(lockFiles()).toEqual([]);
    const refused = await connection.call('status', {});
    expect(refused.ok).toBe(false);
  }, 60_000);

  it('restarts on the workspace the person chose, without the --workspace override', async () => {
    const events: EngineEvent[] = [];
    connection = new EngineConnection({ entry: ENGINE_ENTRY, args: ['--data-dir', env.dataDir, '--workspace', env.workspace], env: env.env, onDidEmitEvent: (e) => events.push(e) });
    connection.start();
    await waitForEvent(events, (e) => e.type === 'index-ready');
    const other = path.join(env.dir, 'other-ws');
    events.length = 0;
    const opened = await connection.call('workspace.open', { path: other, create: true });
    expect(opened).toEqual({ ok: true, result: { root: fs.realpathSync(other), changed: true, restartRequired: false } });
    await waitForEvent(events, (e) => e.type === 'engine-state' && e.state === 'restarting');
    await waitForEvent(events, (e) => e.type === 'engine-state' && e.state === 'running');
    const status = await connection.call('status', {});
    expect(status.ok && (status.result as { workspace: { path: string } }).workspace.path).toBe(fs.realpathSync(other));
    expect(fs.existsSync(path.join(other, 'MEMORY.md'))).toBe(true);
    expect(events.some((e) => e.type === 'engine-state' && e.state === 'crashed')).toBe(false);
  }, 60_000);
});
