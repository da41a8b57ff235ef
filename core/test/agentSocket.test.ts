import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { AccessLogEntry, SearchResult, StatusOutput } from '../src/contract/index.js';
import { MemoryService } from '../src/engine/memoryService.js';
import { UNTRUSTED_MEMORY_NOTICE } from '../src/agents/framing.js';
import { AgentSocketClient, type RpcFailure } from '../src/agents/socket/agentSocketClient.js';
import { MAX_REQUEST_BYTES } from '../src/agents/socket/lineSplitter.js';
import { RPC_ERRORS } from '../src/agents/socket/rpcErrors.js';
import { resolveExistingWorkspace } from '../src/workspace/resolveWorkspace.js';
import { cliEnv, repoRoot } from './helpers/cli.js';
import { refusal } from './helpers/rpcRefusal.js';
import { createTempWorkspace, openService, SAMPLE_NOTES, type TempWorkspace } from './helpers/workspace.js';

const SECRET = 'outside-secret-7f3a';

const workspaces: TempWorkspace[] = [];
const services: MemoryService[] = [];
const clients: AgentSocketClient[] = [];
const sockets: net.Socket[] = [];
const children: ChildProcess[] = [];

afterEach(async () => {
  for (const c of clients.splice(0)) c.close();
  for (const s of sockets.splice(0)) s.destroy();
  for (const child of children.splice(0)) await killChild(child, 'SIGKILL');
  for (const s of services.splice(0)) await s.close();
  for (const w of workspaces.splice(0)) w.cleanup();
});

function workspace(): TempWorkspace {
  const ws = createTempWorkspace(SAMPLE_NOTES);
  workspaces.push(ws);
  return ws;
}

function track(service: MemoryService): MemoryService {
  services.push(service);
  return service;
}

/** A hosting service on a synced sample workspace: the agent socket is listening. */
async function hostedService(ws = workspace()): Promise<MemoryService> {
  const service = track(openService(ws));
  await service.sync(false);
  await service.startHosting({ kind: 'serve', url: null });
  return service;
}

async function addAgent(service: MemoryService, name: string, write = false): Promise<string> {
  return (await service.invoke('agents.add', { name, write })).token;
}

async function connect(service: MemoryService): Promise<AgentSocketClient> {
  const client = await AgentSocketClient.connect(service.agents.socketPath);
  clients.push(client);
  return client;
}


/** The next message the client could not match to a request (replies with id null). */
function nextUnmatched(client: AgentSocketClient): Promise<{ id: unknown; error?: RpcFailure }> {
  return new Promise((resolve) => {
    client.onRaw = (message) => {
      client.onRaw = null;
      resolve(message as { id: unknown; error?: RpcFailure });
    };
  });
}

/** A process holding a listening Unix socket at `file`, as another (or a crashed) host would. */
async function foreignListener(file: string): Promise<ChildProcess> {
  const code = `require('node:net').createServer((s) => s.end()).listen(${JSON.stringify(file)}, () => console.log('ready'));`;
  const child = spawn(process.execPath, ['-e', code], { stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(child);
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => d.toString().includes('ready') && resolve());
    child.once('exit', (c) => reject(new Error(`listener exited early (${c})`)));
  });
  return child;
}

/** A bare connection: bytes out, whole reply lines back in the order they came. */
async function rawConnection(file: string): Promise<{ write(text: string): void; lines(n: number): Promise<unknown[]> }> {
  const socket = net.connect(file);
  sockets.push(socket);
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('error', reject);
  });
  let buffer = '';
  const received: unknown[] = [];
  let waiter: (() => void) | null = null;
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => {
    buffer += chunk;
    for (let i = buffer.indexOf('\n'); i !== -1; i = buffer.indexOf('\n')) {
      received.push(JSON.parse(buffer.slice(0, i)));
      buffer = buffer.slice(i + 1);
    }
    waiter?.();
  });
  return {
    write: (text) => socket.write(text),
    lines: async (n) => {
      while (received.length < n) await new Promise<void>((resolve) => (waiter = resolve));
      return received.splice(0, n);
    },
  };
}

function killChild(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill(signal);
  });
}

function answers(file: string): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = net.connect(file);
    probe.once('connect', () => {
      probe.destroy();
      resolve(true);
    });
    probe.once('error', () => resolve(false));
  });
}

async function agentLog(service: MemoryService, agent: string): Promise<AccessLogEntry[]> {
  return (await service.invoke('agents.log', { agent })).entries;
}

describe('agent socket: malformed and oversized requests', () => {
  it('answers malformed JSON with -32700 and keeps serving the connection', async () => {
    const service = await hostedService();
    const token = await addAgent(service, 'claude-code');
    const client = await connect(service);
    const reply = nextUnmatched(client);
    client.writeRaw('{"jsonrpc":"2.0","id":1,"method":"status",\n');
    expect(await reply).toMatchObject({ id: null, error: { code: RPC_ERRORS.parseError } });
    const status = (await client.call('status', { token })) as StatusOutput;
    expect(status.workspace.path).toBe(service.workspace.root);
  });

  it('answers a request that is not a JSON-RPC object with -32600', async () => {
    const service = await hostedService();
    const client = await connect(service);
    const reply = nextUnmatched(client);
    client.writeRaw('[1,2,3]\n');
    expect(await reply).toMatchObject({ id: null, error: { code: RPC_ERRORS.invalidRequest } });
  });

  it('refuses a 5 MB request line with -32004, in order, and the connection answers the next request', async () => {
    const service = await hostedService();
    const token = await addAgent(service, 'claude-code');
    const raw = await rawConnection(service.agents.socketPath);
    const search = (id: number) => JSON.stringify({ jsonrpc: '2.0', id, method: 'memory.search', params: { token, query: 'restic backups' } });
    const huge = JSON.stringify({ jsonrpc: '2.0', id: 99, method: 'memory.search', params: { token, query: 'x'.repeat(5 * 1024 * 1024) } });
    raw.write(`${search(1)}\n${huge}\n${search(2)}\n`);
    const [first, refused, next] = (await raw.lines(3)) as Array<{ id: unknown; result?: { results: unknown[] }; error?: RpcFailure }>;
    expect(first!.id).toBe(1);
    expect(refused).toMatchObject({ id: null, error: { code: RPC_ERRORS.tooLarge } });
    expect(refused!.error!.message).toContain(String(MAX_REQUEST_BYTES));
    expect(next!.id).toBe(2);
    expect(next!.result!.results.length).toBeGreaterThan(0);
  });

  it('answers an unknown method with -32601 naming the methods agents can call', async () => {
    const service = await hostedService();
    const token = await addAgent(service, 'claude-code');
    const client = await connect(service);
    const rpc = await refusal(client.call('files.write', { token, path: 'MEMORY.md', text: 'x', expectedSha256: null }));
    expect(rpc.code).toBe(RPC_ERRORS.methodNotFound);
    expect(rpc.message).toContain('memory.search');
    expect(await refusal(client.call('no.such.method', { token }))).toMatchObject({ code: RPC_ERRORS.methodNotFound });
    expect(fs.readFileSync(path.join(service.workspace.root, 'MEMORY.md'), 'utf8')).toBe(SAMPLE_NOTES['MEMORY.md']);
  });
});

describe('agent socket: tokens and scopes', () => {
  it('refuses a call without a token, with an unknown token, and with a malformed one (-32001)', async () => {
    const service = await hostedService();
    const client = await connect(service);
    const missing = await refusal(client.call('memory.search', { query: 'atlas' }));
    expect(missing.code).toBe(RPC_ERRORS.unauthenticated);
    expect(missing.message).toMatch(/auth/);
    const unknown = await refusal(client.call('memory.search', { token: `rvr_${'A'.repeat(43)}`, query: 'atlas' }));
    expect(unknown).toMatchObject({ code: RPC_ERRORS.unauthenticated, message: expect.stringMatching(/not known/) });
    expect(await refusal(client.call('auth', { token: 'hunter2' }))).toMatchObject({ code: RPC_ERRORS.unauthenticated });
    // A failed auth leaves the connection unauthenticated.
    expect(await refusal(client.call('status'))).toMatchObject({ code: RPC_ERRORS.unauthenticated });
  });

  it('refuses a revoked token (-32001, "revoked"), also on a connection that authenticated before the revocation', async () => {
    const service = await hostedService();
    const token = await addAgent(service, 'codex');
    const perCall = await connect(service);
    const session = await connect(service);
    expect(await session.call('auth', { token })).toEqual({ agent: 'codex', scopes: ['read'], workspace: service.workspace.root });
    expect(await perCall.call('status', { token })).toBeTruthy();
    await service.invoke('agents.revoke', { name: 'codex' });
    const revoked = await refusal(perCall.call('memory.search', { token, query: 'atlas' }));
    expect(revoked).toMatchObject({ code: RPC_ERRORS.unauthenticated, message: expect.stringMatching(/revoked/) });
    expect(await refusal(session.call('memory.search', { query: 'atlas' }))).toMatchObject({ code: RPC_ERRORS.unauthenticated, message: expect.stringMatching(/revoked/) });
  });

  it('refuses memory.store with a read token (-32002) and appends nothing', async () => {
    const service = await hostedService();
    const token = await addAgent(service, 'reader');
    const client = await connect(service);
    const before = fs.readdirSync(path.join(service.workspace.root, 'memory'));
    const rpc = await refusal(client.call('memory.store', { token, text: 'Agents may not write with a read token.' }));
    expect(rpc.code).toBe(RPC_ERRORS.forbiddenScope);
    expect(rpc.message).toMatch(/write scope/);
    expect(fs.readdirSync(path.join(service.workspace.root, 'memory'))).toEqual(before);
  });

  it("takes each method's scope from the contract's access: a read token cannot create or cancel intents, a write token can", async () => {
    const service = await hostedService();
    const reader = await addAgent(service, 'reader');
    const writer = await addAgent(service, 'writer', true);
    const client = await connect(service);
    const refused = await refusal(client.call('intents.create', { token: reader, description: 'Mention the dentist', keywords: ['dentist'] }));
    expect(refused.code).toBe(RPC_ERRORS.forbiddenScope);
    const created = (await client.call('intents.create', { token: writer, description: 'Mention the dentist', keywords: ['dentist'] })) as { id: string };
    expect((await refusal(client.call('intents.cancel', { token: reader, id: created.id }))).code).toBe(RPC_ERRORS.forbiddenScope);
    expect(await client.call('intents.list', { token: reader })).toMatchObject({ intents: [expect.objectContaining({ id: created.id })] });
  });

  it('accepts `auth` once per connection and `token` in each request', async () => {
    const service = await hostedService();
    const token = await addAgent(service, 'writer', true);
    const session = await connect(service);
    expect(await session.call('auth', { token })).toEqual({ agent: 'writer', scopes: ['read', 'write'], workspace: service.workspace.root });
    const viaAuth = (await session.call('memory.search', { query: 'dentist Thursday' })) as { results: SearchResult[] };
    expect(viaAuth.results.length).toBeGreaterThan(0);
    const perRequest = await connect(service);
    const viaParams = (await perRequest.call('memory.search', { token, query: 'dentist Thursday' })) as { results: SearchResult[] };
    expect(viaParams.results.map((r) => r.id)).toEqual(viaAuth.results.map((r) => r.id));
    // The second connection never sent auth: without the token it is refused.
    expect(await refusal(perRequest.call('status'))).toMatchObject({ code: RPC_ERRORS.unauthenticated });
  });
});

describe('agent socket: memory.get paths', () => {
  it('refuses traversal, absolute, drive-letter paths and symlinks out of the workspace (-32003), reading nothing outside', async () => {
    const ws = workspace();
    const outside = path.join(ws.root, '..', 'x.md');
    fs.writeFileSync(outside, `# outside\n\n- ${SECRET}\n`);
    fs.symlinkSync(outside, path.join(ws.root, 'memory', 'link.md'));
    fs.symlinkSync(path.dirname(outside), path.join(ws.root, 'memory', 'up'));
    const service = await hostedService(ws);
    const token = await addAgent(service, 'claude-code');
    const client = await connect(service);
    const replies: string[] = [];
    client.onRaw = (m) => replies.push(JSON.stringify(m));
    for (const p of ['../x.md', '/etc/passwd', 'memory/../../x.md', 'C:\\x.md', 'C:/x.md', outside, 'memory/link.md', 'memory/up/x.md', '..\\x.md']) {
      const rpc = await refusal(client.call('memory.get', { token, path: p }));
      expect(rpc.code, p).toBe(RPC_ERRORS.invalidPath);
      replies.push(rpc.message);
    }
    expect(replies.join('\n')).not.toContain(SECRET);
    // A workspace memory file is read, framed as recalled data.
    const ok = (await client.call('memory.get', { token, path: 'memory/2026-04-05.md' })) as { text: string; notice: string };
    expect(ok.text).toMatch(/^<reverie-memory source="memory\/2026-04-05\.md#L1-L4"/);
    expect(ok.notice).toBe(UNTRUSTED_MEMORY_NOTICE);
  });
});

describe('agent socket: clients that go away', () => {
  it('survives clients disconnecting mid-response and answers a new connection', async () => {
    const ws = workspace();
    for (let i = 0; i < 40; i++) ws.write(`memory/bulk-${i}.md`, `# bulk ${i}\n\n${Array.from({ length: 30 }, (_, k) => `- atlas restic backup note ${i}-${k} about the storage box and postgres.`).join('\n')}\n`);
    const service = await hostedService(ws);
    const token = await addAgent(service, 'flaky');
    const request = (id: number) => `${JSON.stringify({ jsonrpc: '2.0', id, method: 'memory.search', params: { token, query: 'atlas restic backup storage postgres', limit: 50 } })}\n`;
    for (let round = 0; round < 3; round++) {
      // Gone right after asking: every answer is written to a closed connection.
      const hasty = net.connect(service.agents.socketPath);
      sockets.push(hasty);
      hasty.on('error', () => undefined);
      await new Promise<void>((resolve) => hasty.once('connect', () => resolve()));
      hasty.write(Array.from({ length: 10 }, (_, i) => request(i + 1)).join(''));
      hasty.destroy();
      // Gone after the first bytes of the first answer.
      const midway = net.connect(service.agents.socketPath);
      sockets.push(midway);
      midway.on('error', () => undefined);
      await new Promise<void>((resolve) => midway.once('connect', () => resolve()));
      const firstBytes = new Promise<void>((resolve) => midway.once('data', () => resolve()));
      midway.write(Array.from({ length: 10 }, (_, i) => request(i + 1)).join(''));
      await firstBytes;
      midway.destroy();
    }
    const client = await connect(service);
    const found = (await client.call('memory.search', { token, query: 'restic backups' })) as { results: SearchResult[] };
    expect(found.results.length).toBeGreaterThan(0);
    expect(service.agents.socketListening).toBe(true);
  });
});

describe('agent socket: the socket file', () => {
  it('is created 0600 in a 0700 folder, and status reports it while hosting', async () => {
    const service = await hostedService();
    const file = service.agents.socketPath;
    expect(file).toBe(path.join(workspaces[0]!.dataDir, 'reverie.sock'));
    expect(fs.lstatSync(file).isSocket()).toBe(true);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.statSync(path.dirname(file)).mode & 0o777).toBe(0o700);
    expect((await service.invoke('status', {})).agentSocket).toBe(file);
    // A non-hosting process (a CLI command) sees the running host's socket too.
    const viewer = track(openService(workspaces[0]!));
    expect(viewer.status().agentSocket).toBe(file);
  });

  it('replaces a stale socket file left by a host killed with -9', async () => {
    const ws = workspace();
    const file = path.join(ws.dataDir, 'reverie.sock');
    fs.mkdirSync(ws.dataDir, { recursive: true });
    const crashed = await foreignListener(file);
    await killChild(crashed, 'SIGKILL');
    expect(fs.lstatSync(file).isSocket()).toBe(true);
    expect(await answers(file)).toBe(false);
    const service = await hostedService(ws);
    expect(service.agents.socketListening).toBe(true);
    expect(service.status().notices.join('\n')).not.toMatch(/agent socket could not start/);
    const token = await addAgent(service, 'claude-code');
    const client = await connect(service);
    expect(((await client.call('status', { token })) as StatusOutput).agentSocket).toBe(file);
  });

  it("never deletes another process's live socket: hosting goes on without one and the other keeps answering", async () => {
    const ws = workspace();
    const file = path.join(ws.dataDir, 'reverie.sock');
    fs.mkdirSync(ws.dataDir, { recursive: true });
    await foreignListener(file);
    const umask = process.umask();
    const service = await hostedService(ws);
    expect(service.agents.socketListening).toBe(false);
    expect(service.status().notices.join('\n')).toMatch(/agent socket could not start: Another host is serving the agent socket/);
    expect(process.umask()).toBe(umask);
    expect(await answers(file)).toBe(true);
    await service.close();
    expect(fs.lstatSync(file).isSocket()).toBe(true);
    expect(await answers(file)).toBe(true);
  });

  it('refuses a second host on the same workspace while the first keeps serving its socket', async () => {
    const ws = workspace();
    const first = await hostedService(ws);
    const token = await addAgent(first, 'claude-code');
    const second = track(openService(ws));
    await expect(second.startHosting({ kind: 'daemon', url: null })).rejects.toMatchObject({ code: 'locked', message: expect.stringMatching(/already open in `reverie serve`/) });
    await second.close();
    const client = await connect(first);
    expect(((await client.call('memory.search', { token, query: 'atlas' })) as { results: unknown[] }).results.length).toBeGreaterThan(0);
  });

  it("a host of another workspace on the same data dir says the socket is taken, and closing it leaves the first host's socket alone", async () => {
    const ws = workspace();
    const first = await hostedService(ws);
    const token = await addAgent(first, 'claude-code');
    const otherRoot = path.join(ws.root, '..', 'other-workspace');
    fs.mkdirSync(path.join(otherRoot, 'memory'), { recursive: true });
    const other = track(new MemoryService({ dataDir: ws.dataDir, workspace: resolveExistingWorkspace(otherRoot), watchDebounceMs: 200 }));
    await other.startHosting({ kind: 'daemon', url: null });
    expect(other.agents.socketListening).toBe(false);
    expect(other.status().notices.join('\n')).toMatch(/Another host is serving the agent socket/);
    await other.close();
    expect(fs.existsSync(first.agents.socketPath)).toBe(true);
    const client = await connect(first);
    expect(((await client.call('status', { token })) as StatusOutput).workspace.path).toBe(ws.root);
  });

  it('refuses a data dir whose socket path is too long for a Unix socket, with a clear notice', async () => {
    const ws = workspace();
    const longDataDir = path.join(ws.dataDir, 'd'.repeat(120));
    const umask = process.umask();
    const service = track(new MemoryService({ dataDir: longDataDir, workspace: resolveExistingWorkspace(ws.root), watchDebounceMs: 200 }));
    await service.startHosting({ kind: 'serve', url: null });
    expect(service.agents.socketListening).toBe(false);
    expect(service.status().notices.join('\n')).toMatch(/agent socket could not start: .*too long/);
    expect(process.umask()).toBe(umask);
  });
});

describe('agent socket: two hosts starting at once', () => {
  it('lets one `reverie daemon` win; the other exits naming the running host', async () => {
    const ws = workspace();
    const env = cliEnv(ws.dataDir);
    const start = () => {
      const child = spawn(process.execPath, [path.join(repoRoot, 'bin', 'reverie.js'), 'daemon', '--json', '--workspace', ws.root], { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'pipe'] });
      children.push(child);
      let stdout = '';
      let stderr = '';
      child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
      child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
      // Settles when the daemon reports itself (a line on stdout) or exits.
      return new Promise<{ child: ChildProcess; running: boolean; stdout: string; stderr: string; code: number | null }>((resolve) => {
        child.stdout!.on('data', () => stdout.includes('\n') && resolve({ child, running: true, stdout, stderr, code: null }));
        child.once('exit', (code) => resolve({ child, running: false, stdout, stderr, code }));
      });
    };
    const [a, b] = await Promise.all([start(), start()]);
    const winners = [a, b].filter((r) => r.running);
    const losers = [a, b].filter((r) => !r.running);
    expect(winners).toHaveLength(1);
    expect(losers).toHaveLength(1);
    const winner = winners[0]!;
    const info = JSON.parse(winner.stdout.split('\n')[0]!) as { pid: number; agentSocket: string | null };
    expect(info.agentSocket).toBe(path.join(ws.dataDir, 'reverie.sock'));
    expect(losers[0]!.code).not.toBe(0);
    expect(losers[0]!.stderr).toMatch(new RegExp(`already open in \`reverie daemon\` \\(pid ${info.pid}`));
    expect(await answers(info.agentSocket!)).toBe(true);
    await killChild(winner.child, 'SIGTERM');
    expect(fs.existsSync(info.agentSocket!)).toBe(false);
  });
});

describe('agent socket: answers and the access log', () => {
  it('frames memory text as untrusted data and logs every call with method, detail and result count', async () => {
    const service = await hostedService();
    const token = await addAgent(service, 'claude-code');
    const client = await connect(service);
    await client.call('auth', { token });
    const found = (await client.call('memory.search', { query: 'restic backups', limit: 3 })) as { notice: string; results: SearchResult[] };
    expect(found.notice).toBe(UNTRUSTED_MEMORY_NOTICE);
    expect(found.results.length).toBeGreaterThan(0);
    for (const r of found.results) expect(r.snippet).toMatch(new RegExp(`^<reverie-memory source="${r.path.replace(/[.]/g, '\\.')}#L${r.startLine}-L${r.endLine}" origin="owner">\\n[\\s\\S]*\\n</reverie-memory>$`));
    const got = (await client.call('memory.get', { path: 'MEMORY.md', from: 3, lines: 2 })) as { lines: number };
    expect(got.lines).toBe(2);
    await refusal(client.call('memory.get', { path: '../x.md' }));
    await refusal(client.call('nope'));
    const entries = await agentLog(service, 'claude-code');
    const summary = entries.reverse().map((e) => ({ method: e.method, detail: e.detail, results: e.results, ok: e.ok, transport: e.transport }));
    expect(summary).toEqual([
      { method: 'memory.search', detail: 'restic backups', results: found.results.length, ok: true, transport: 'socket' },
      { method: 'memory.get', detail: 'MEMORY.md', results: 2, ok: true, transport: 'socket' },
      { method: 'memory.get', detail: '../x.md', results: null, ok: false, transport: 'socket' },
      { method: 'nope', detail: null, results: null, ok: false, transport: 'socket' },
    ]);
    expect(entries.every((e) => typeof e.at === 'string' && e.durationMs >= 0)).toBe(true);
    const agents = await service.invoke('agents.list', {});
    expect(agents.agents.find((a) => a.name === 'claude-code')).toMatchObject({ calls: 4, lastUsedAt: expect.any(String) });
  });
});
