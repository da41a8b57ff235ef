import fs from 'node:fs';
import path from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { runHook } from '../src/cli/hook/hookMain.js';
import { scriptedHost, type ScriptedHost } from './helpers/scriptedHost.js';
import { createTempWorkspace, type TempWorkspace } from './helpers/workspace.js';

/**
 * `reverie hook` against a host that answers what the test scripts (another Reverie version, or a
 * broken one): the hook checks every field it prints, and it asks the host while it still reads stdin.
 */
let ws: TempWorkspace;
let host: ScriptedHost | null = null;

afterEach(async () => {
  await host?.close();
  host = null;
  ws?.cleanup();
});

/** runHook in this process; stdin is written only once `before` resolves. */
async function hook(event: string, stdin: string, before: Promise<void> = Promise.resolve()): Promise<string> {
  const input = new PassThrough();
  let out = '';
  const stdout = new Writable({
    write(chunk: Buffer, _encoding, done) {
      out += chunk.toString('utf8');
      done();
    },
  });
  void before.then(() => input.end(stdin));
  const previous = process.env.REVERIE_HOOK_TIMEOUT_MS;
  process.env.REVERIE_HOOK_TIMEOUT_MS = '20000';
  try {
    expect(await runHook([event, '--workspace', ws.root, '--data-dir', ws.dataDir, '--token', 'rvr_test-token'], { stdin: input, stdout })).toBe(0);
  } finally {
    if (previous === undefined) delete process.env.REVERIE_HOOK_TIMEOUT_MS;
    else process.env.REVERIE_HOOK_TIMEOUT_MS = previous;
  }
  return out;
}

const prompt = JSON.stringify({ hook_event_name: 'UserPromptSubmit', session_id: 's1', cwd: '/', prompt: 'how do I deploy ledgerd?' });
const framed = '<reverie-memory source="MEMORY.md:3" origin="owner">\nDeploy ledgerd with make release.\n</reverie-memory>';

function logText(): string {
  const dir = path.join(ws.dataDir, 'logs');
  return fs.existsSync(dir) ? fs.readdirSync(dir).map((f) => fs.readFileSync(path.join(dir, f), 'utf8')).join('') : '';
}

describe('reverie hook and the host it asks', () => {
  it('authenticates before its stdin has ended, then prints a well-formed match', async () => {
    ws = createTempWorkspace({ 'MEMORY.md': '# Memory\n' });
    host = await scriptedHost(ws.dataDir, {
      auth: { agent: 'claude-code', scopes: ['read'], workspace: ws.root },
      'context.match': { entries: [{ path: 'MEMORY.md', line: 3, text: framed, triggers: ['deploy ledgerd'], score: 1, origin: 'owner' }], intents: [] },
    });
    // stdin ends only after the host saw `auth`: a hook that connected after reading stdin would wait here until its stdin limit.
    const out = await hook('UserPromptSubmit', prompt, host.authSeen);
    expect(host.seen).toEqual(['auth', 'context.match']);
    const answer = JSON.parse(out) as { hookSpecificOutput: { hookEventName: string; additionalContext: string } };
    expect(answer.hookSpecificOutput.hookEventName).toBe('UserPromptSubmit');
    expect(answer.hookSpecificOutput.additionalContext).toContain(framed);
  }, 60_000);

  it('prints nothing and logs why when an answer lacks a field it would print', async () => {
    ws = createTempWorkspace({ 'MEMORY.md': '# Memory\n' });
    const broken: Array<[string, Record<string, unknown>, string]> = [
      ['UserPromptSubmit', { 'context.match': { entries: [{ path: 'MEMORY.md', line: 3 }], intents: [] } }, 'context.match'],
      ['UserPromptSubmit', { 'context.match': { entries: [], intents: [{ description: 'Ask about the dentist' }] } }, 'context.match'],
      ['SessionStart', { 'context.bootstrap': { files: [] }, 'intents.list': { intents: [] } }, 'context.bootstrap'],
      ['SessionStart', { 'context.bootstrap': { text: 'USER.md' }, 'intents.list': { intents: 'none' } }, 'intents.list'],
      ['SessionStart', { auth: { agent: 'claude-code' } }, 'auth'],
    ];
    for (const [event, replies, method] of broken) {
      host = await scriptedHost(ws.dataDir, { auth: { agent: 'claude-code', scopes: ['read'], workspace: ws.root }, ...replies });
      const stdin = event === 'SessionStart' ? JSON.stringify({ hook_event_name: 'SessionStart', session_id: 's1', cwd: '/' }) : prompt;
      expect(await hook(event, stdin), method).toBe('');
      expect(logText()).toContain(`Hook ${event} added nothing: the host's answer to ${method} is not in the form this hook reads`);
      await host.close();
      host = null;
      fs.rmSync(path.join(ws.dataDir, 'logs'), { recursive: true, force: true });
    }
  }, 120_000);
});
