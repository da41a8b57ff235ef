import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { UNTRUSTED_MEMORY_NOTICE } from '../src/agents/framing.js';
import { SweepLock } from '../src/dreaming/sweepLock.js';
import type { MemoryService } from '../src/engine/memoryService.js';
import { cliEnv, repoRoot } from './helpers/cli.js';
import { createTempWorkspace, openService, SAMPLE_NOTES, type TempWorkspace } from './helpers/workspace.js';

const bin = path.join(repoRoot, 'bin', 'reverie.js');
let ws: TempWorkspace;
const services: MemoryService[] = [];

afterEach(async () => {
  for (const s of services.splice(0)) await s.close();
  ws?.cleanup();
});

const MEMORY = `${SAMPLE_NOTES['MEMORY.md']}- Deploy ledgerd with make release, never by hand. <!-- trigger: deploy ledgerd -->\n`;

async function setup(host: boolean): Promise<{ token: string; service: MemoryService }> {
  ws = createTempWorkspace({ ...SAMPLE_NOTES, 'MEMORY.md': MEMORY });
  const service = openService(ws);
  services.push(service);
  const { token } = await service.invoke('agents.add', { name: 'claude-code', write: true });
  if (host) {
    await service.sync(false);
    await service.startHosting({ kind: 'serve', url: null });
  } else {
    await service.close();
    services.pop();
  }
  return { token, service };
}

/** `reverie hook <event>` as Claude Code runs it: the hook JSON on stdin. */
function hook(event: string, stdin: string | Buffer, token: string, cwd = repoRoot): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [bin, 'hook', event, '--workspace', ws.root, '--data-dir', ws.dataDir], { cwd, env: cliEnv(ws.dataDir, { REVERIE_AGENT_TOKEN: token, REVERIE_HOOK_TIMEOUT_MS: '20000' }), stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdin.on('error', () => undefined); // a hook may stop reading a 10 MB input early
    child.stdin.end(stdin);
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

const input = (event: string, extra: Record<string, unknown> = {}) => JSON.stringify({ session_id: 's1', transcript_path: '/nonexistent.jsonl', cwd: repoRoot, hook_event_name: event, ...extra });
const context = (stdout: string) => (JSON.parse(stdout) as { hookSpecificOutput: { hookEventName: string; additionalContext: string } }).hookSpecificOutput;

function gitRepo(remote: string | null): string {
  const dir = path.join(ws.dataDir, 'repo');
  fs.mkdirSync(path.join(dir, '.git'), { recursive: true });
  fs.writeFileSync(path.join(dir, '.git', 'config'), `[core]\n\tbare = false\n${remote ? `[remote "origin"]\n\turl = ${remote}\n` : ''}`);
  return dir;
}

describe('reverie hook', () => {
  it('without a host: SessionStart gives the curated memory in Claude Code\'s format with the repository\'s project key; UserPromptSubmit gives matching entries only', async () => {
    const { token } = await setup(false);
    const repo = gitRepo('git@github.com:Ada/Ledgerd.git');
    const start = await hook('SessionStart', input('SessionStart', { source: 'startup', cwd: repo }), token);
    expect(start.code).toBe(0);
    const out = context(start.stdout);
    expect(out.hookEventName).toBe('SessionStart');
    expect(out.additionalContext.startsWith(UNTRUSTED_MEMORY_NOTICE)).toBe(true);
    expect(out.additionalContext).toContain('Prefers terse answers');
    expect(out.additionalContext).toContain('Project key for this repository: github.com/ada/ledgerd.');

    const prompt = await hook('UserPromptSubmit', input('UserPromptSubmit', { prompt: 'how do I deploy ledgerd today?' }), token);
    expect(context(prompt.stdout).additionalContext).toMatch(/<reverie-memory source="MEMORY\.md:\d+" origin="owner">\nDeploy ledgerd with make release/);
    const unrelated = await hook('UserPromptSubmit', input('UserPromptSubmit', { prompt: 'what is for lunch' }), token);
    expect(unrelated).toMatchObject({ code: 0, stdout: '' });
  }, 60_000);

  it('never breaks the agent: empty, non-JSON or 10 MB stdin, an unknown token, an unknown event: exit 0, nothing printed, the reason logged', async () => {
    const { token } = await setup(false);
    for (const bad of ['', 'not json at all', Buffer.alloc(10 * 1024 * 1024, 'x')]) {
      const result = await hook('SessionStart', bad, token);
      expect(result).toMatchObject({ code: 0, stdout: '' });
    }
    expect(await hook('SessionStart', input('SessionStart'), 'rvr_unknown-token')).toMatchObject({ code: 0, stdout: '' });
    expect(await hook('Bogus', input('Bogus'), token)).toMatchObject({ code: 0, stdout: '' });
    const logs = fs.readdirSync(path.join(ws.dataDir, 'logs')).map((f) => fs.readFileSync(path.join(ws.dataDir, 'logs', f), 'utf8')).join('');
    expect(logs).toContain('Hook SessionStart added nothing: stdin was empty');
    expect(logs).toContain('stdin is not JSON');
    expect(logs).toMatch(/not known to Reverie/);
  }, 120_000);

  it('with a host: answers through its socket, also while a sweep holds the workspace; Stop asks the host to ingest and prints nothing', async () => {
    const { token, service } = await setup(true);
    const sweep = SweepLock.forWorkspace(ws.root, ws.dataDir, service.workspace.id);
    expect(sweep.tryAcquire('dream:test').acquired).toBe(true);
    try {
      const start = await hook('SessionStart', input('SessionStart'), token);
      expect(start.code).toBe(0);
      expect(context(start.stdout).additionalContext).toContain('Prefers terse answers');
    } finally {
      sweep.release();
    }
    const compact = await hook('PreCompact', input('PreCompact', { trigger: 'auto' }), token);
    expect(compact.stdout).toMatch(/memory_store/);
    const stop = await hook('Stop', input('Stop'), token);
    expect(stop).toMatchObject({ code: 0, stdout: '' });
    const { entries } = await service.invoke('agents.log', { agent: 'claude-code' });
    expect(entries.map((e) => e.method)).toEqual(expect.arrayContaining(['context.bootstrap', 'intents.list', 'sessions.ingest']));
  }, 60_000);
});
