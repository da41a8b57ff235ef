import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { UNTRUSTED_MEMORY_NOTICE } from '../src/agents/framing.js';
import { cliEnv, repoRoot, runCli, stopProcess } from './helpers/cli.js';
import { createTempWorkspace, SAMPLE_NOTES, type TempWorkspace } from './helpers/workspace.js';

const bin = path.join(repoRoot, 'bin', 'reverie.js');
// The tools whose operations the contract marks `access: 'read'`; creating and cancelling intents writes.
const READ_TOOLS = ['context_bootstrap', 'context_match', 'intent_list', 'memory_get', 'memory_recent', 'memory_search', 'sessions_get'];

let ws: TempWorkspace;
let readToken: string;
let writeToken: string;
let revokedToken: string;
const clients: Client[] = [];
const children: ChildProcess[] = [];

beforeAll(async () => {
  ws = createTempWorkspace(SAMPLE_NOTES);
  const add = async (name: string, write: boolean) => {
    const r = await runCli(['agents', 'add', name, '--json', ...(write ? ['--write'] : []), '--workspace', ws.root], cliEnv(ws.dataDir));
    expect(r.code, r.stderr).toBe(0);
    return (JSON.parse(r.stdout) as { token: string }).token;
  };
  [readToken, writeToken, revokedToken] = await Promise.all([add('reader', false), add('writer', true), add('gone', false)]);
}, 60_000);

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close().catch(() => undefined)));
  await Promise.all(children.splice(0).map((c) => stopProcess(c)));
});

afterAll(() => ws?.cleanup());

/** A real MCP client spawning `reverie mcp` over stdio, as Claude Code or Codex would. */
async function connectMcp(token: string): Promise<{ client: Client; stderr: () => string }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [bin, 'mcp', '--workspace', ws.root, '--data-dir', ws.dataDir],
    env: cliEnv(ws.dataDir, { REVERIE_AGENT_TOKEN: token }) as Record<string, string>,
    cwd: repoRoot,
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const client = new Client({ name: 'reverie-test', version: '1.0.0' });
  clients.push(client);
  await client.connect(transport);
  return { client, stderr: () => stderr };
}

const textOf = (result: unknown) => ((result as CallToolResult).content[0] as { text: string }).text;

function localDate(): string {
  const d = new Date();
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

/** `reverie daemon` in the background, resolved once it prints its agent socket. */
function startDaemon(): Promise<{ child: ChildProcess; socket: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, 'daemon', '--workspace', ws.root], { cwd: repoRoot, env: cliEnv(ws.dataDir), stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(child);
    let stdout = '';
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
      const socket = /Agent socket: (.+)\n/.exec(stdout)?.[1];
      if (socket) resolve({ child, socket });
    });
    child.on('exit', (code) => reject(new Error(`daemon exited early with ${code}: ${stdout}${stderr}`)));
  });
}

describe('reverie mcp', () => {
  it('serves a read token from this process when no host runs: read tools only, framed results, clear refusals', async () => {
    const { client, stderr } = await connectMcp(readToken);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(READ_TOOLS);
    const search = tools.find((t) => t.name === 'memory_search')!;
    expect(search.annotations).toMatchObject({ readOnlyHint: true, openWorldHint: false });
    expect(search.inputSchema.required).toEqual(['query']);

    const found = await client.callTool({ name: 'memory_search', arguments: { query: 'restic backups', limit: 3 } });
    expect(found.isError).toBeFalsy();
    const text = textOf(found);
    expect(text.startsWith(UNTRUSTED_MEMORY_NOTICE)).toBe(true);
    expect(text).toMatch(/\[1\] MEMORY\.md lines \d+-\d+ \(score [\d.]+, origin \w+, source memory\)\n<reverie-memory source="MEMORY\.md#L\d+-L\d+"[^>]*>\n[^]*restic[^]*<\/reverie-memory>/);
    expect((found.structuredContent as { results: Array<{ path: string }> }).results[0]!.path).toBe('MEMORY.md');

    const got = await client.callTool({ name: 'memory_get', arguments: { path: 'memory/2026-04-05.md' } });
    expect(textOf(got)).toContain('<reverie-memory source="memory/2026-04-05.md#L1-L4"');
    expect(textOf(got)).toContain('Piranesi');

    const escape = await client.callTool({ name: 'memory_get', arguments: { path: '../x.md' } });
    expect(escape.isError).toBe(true);
    expect(textOf(escape)).toMatch(/^\.\.\/x\.md: paths may not contain "\.\."/);

    const boot = await client.callTool({ name: 'context_bootstrap', arguments: {} });
    expect(textOf(boot).startsWith(UNTRUSTED_MEMORY_NOTICE)).toBe(true);
    expect(textOf(boot)).toContain('Prefers terse answers');

    // A read token cannot reach memory_store or intent_create even by name.
    await expect(client.callTool({ name: 'memory_store', arguments: { text: 'nope' } })).rejects.toThrow(/-32602.*Tool memory_store not found: this agent's token is read-only/);
    await expect(client.callTool({ name: 'intent_create', arguments: { description: 'nope', keywords: ['nope'] } })).rejects.toThrow(/Tool intent_create not found/);
    expect(stderr()).toContain('no host running');
  });

  it('stores notes for a write token in the daily note, once', async () => {
    const { client } = await connectMcp(writeToken);
    const { tools } = await client.listTools();
    const store = tools.find((t) => t.name === 'memory_store');
    expect(store?.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false });

    const note = 'The staging database password rotates every Monday.';
    const first = await client.callTool({ name: 'memory_store', arguments: { text: note, kind: 'fact' } });
    expect(first.isError, textOf(first)).toBeFalsy();
    const daily = `memory/${localDate()}.md`;
    expect(textOf(first)).toContain(`Stored in ${daily}`);
    expect(fs.readFileSync(path.join(ws.root, daily), 'utf8')).toContain(note);

    const second = await client.callTool({ name: 'memory_store', arguments: { text: note, kind: 'fact' } });
    expect(second.isError).toBeFalsy();
    expect(textOf(second)).toMatch(/Not stored: duplicate of/);
    expect((second.structuredContent as { stored: boolean }).stored).toBe(false);
    expect(fs.readFileSync(path.join(ws.root, daily), 'utf8').split(note).length - 1).toBe(1);
  });

  it('gives every tool an output schema its answers match; a write token corrects and forgets its notes, proposes for the person\'s lines, sees recent changes, reads resources and prompts', async () => {
    const { client } = await connectMcp(writeToken);
    const { tools } = await client.listTools();
    for (const tool of tools) {
      expect(tool.outputSchema?.type, tool.name).toBe('object');
      expect(tool.inputSchema.additionalProperties, tool.name).toBe(false);
    }
    const daily = `memory/${localDate()}.md`;
    const dailyFile = path.join(ws.root, daily);
    fs.mkdirSync(path.dirname(dailyFile), { recursive: true });
    fs.appendFileSync(dailyFile, '- My own line: the cache server is called tern.\n');

    const stored = await client.callTool({ name: 'memory_store', arguments: { text: 'The build cache lives on /srv/cache.', kind: 'fact' } });
    const ref = (stored.structuredContent as { ref: string }).ref;
    expect(ref).toMatch(new RegExp(`^${daily.replace(/[.]/g, '\\.')}#L\\d+@[0-9a-f]{8}$`));
    const updated = await client.callTool({ name: 'memory_update', arguments: { ref, text: 'The build cache lives on /mnt/cache.' } });
    expect(updated.isError, textOf(updated)).toBeFalsy();
    expect(updated.structuredContent).toMatchObject({ outcome: 'updated', proposalId: null });
    const newRef = (updated.structuredContent as { ref: string }).ref;
    expect(fs.readFileSync(dailyFile, 'utf8')).toContain('- The build cache lives on /mnt/cache. <!-- kind: fact -->');
    expect(fs.readFileSync(dailyFile, 'utf8')).not.toContain('/srv/cache');
    // The old ref is out of date: a conflict naming who changed it, nothing written.
    const stale = await client.callTool({ name: 'memory_update', arguments: { ref, text: 'The build cache lives on /opt/cache.' } });
    expect(stale.isError).toBe(true);
    expect(textOf(stale)).toMatch(/changed by agent "writer"/);

    const recent = await client.callTool({ name: 'memory_recent', arguments: {} });
    expect(recent.isError, textOf(recent)).toBeFalsy();
    const entries = (recent.structuredContent as { entries: Array<{ ref: string; text: string; origin: string; agent: string | null }> }).entries;
    const mine = entries.find((e) => e.text.includes('/mnt/cache'))!;
    expect(mine).toMatchObject({ ref: newRef, origin: 'agent', agent: 'writer' });
    const persons = entries.find((e) => e.text.includes('tern'))!;
    expect(persons.origin).toBe('owner');
    expect((recent.structuredContent as { changes: Array<{ action: string }> }).changes.map((c) => c.action)).toContain('updated');

    // The person's line is never rewritten: a proposal instead.
    const proposed = await client.callTool({ name: 'memory_update', arguments: { ref: persons.ref, text: 'The cache server is called heron.' } });
    expect(proposed.structuredContent).toMatchObject({ outcome: 'proposed' });
    expect(fs.readFileSync(dailyFile, 'utf8')).toContain('the cache server is called tern');
    const refused = await client.callTool({ name: 'memory_forget', arguments: { ref: persons.ref } });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toMatch(/the person wrote it/);

    const forgot = await client.callTool({ name: 'memory_forget', arguments: { ref: newRef } });
    expect(forgot.isError, textOf(forgot)).toBeFalsy();
    expect(fs.readFileSync(dailyFile, 'utf8')).not.toContain('/mnt/cache');

    const { resources } = await client.listResources();
    expect(resources.map((r) => r.name)).toEqual(['MEMORY.md', 'USER.md', 'today', 'yesterday', 'DREAMS.md']);
    const memory = await client.readResource({ uri: 'reverie://memory/MEMORY.md' });
    const memoryText = (memory.contents[0] as { text: string }).text;
    expect(memoryText.startsWith(UNTRUSTED_MEMORY_NOTICE)).toBe(true);
    expect(memoryText).toContain('<reverie-memory source="MEMORY.md#L1-');
    const { prompts } = await client.listPrompts();
    expect(prompts.map((p) => p.name)).toEqual(['recall', 'remember']);
    const recall = await client.getPrompt({ name: 'recall', arguments: { topic: 'backups' } });
    expect((recall.messages[0]!.content as { text: string }).text).toMatch(/backups[^]*memory_search/);
  }, 90_000);

  it('forwards to a running host, including one that starts mid-session, and falls back when it stops', { timeout: 120_000 }, async () => {
    const early = await connectMcp(readToken);
    expect((await early.client.callTool({ name: 'intent_list', arguments: {} })).isError).toBeFalsy();

    const daemon = await startDaemon();
    expect(daemon.socket).toBe(path.join(ws.dataDir, 'reverie.sock'));
    const { client, stderr } = await connectMcp(readToken);
    const found = await client.callTool({ name: 'memory_search', arguments: { query: 'Piranesi' } });
    expect(found.isError, textOf(found)).toBeFalsy();
    expect(textOf(found)).toMatch(/\[1\] memory\/2026-04-05\.md lines [^]*<reverie-memory source="memory\/2026-04-05\.md#L/);
    expect(stderr()).toContain('forwarding to the running host');

    // The session opened before the host started hands over to it on its next call.
    const handedOver = await early.client.callTool({ name: 'memory_search', arguments: { query: 'dentist Thursday' } });
    expect(handedOver.isError, textOf(handedOver)).toBeFalsy();
    expect(early.stderr()).toContain('forwarding to the running host');

    // The host writes its log in batches a moment after each call.
    let entries: Array<{ agent: string; method: string; detail: string | null; transport: string }> = [];
    for (let i = 0; i < 10 && !entries.some((e) => e.detail === 'Piranesi'); i++) {
      await new Promise((r) => setTimeout(r, 300));
      const log = await runCli(['agents', 'log', '--json', '--workspace', ws.root], cliEnv(ws.dataDir));
      entries = JSON.parse(log.stdout) as typeof entries;
    }
    // Forwarded calls are marked as MCP by the host too (`via: "mcp"`).
    expect(entries).toContainEqual(expect.objectContaining({ agent: 'reader', method: 'memory.search', detail: 'Piranesi', transport: 'mcp', ok: true, results: 1 }));
    expect(entries).toContainEqual(expect.objectContaining({ agent: 'reader', method: 'memory.search', detail: 'dentist Thursday', transport: 'mcp' }));
    // In-process calls (the first test's) are logged as mcp as well.
    expect(entries).toContainEqual(expect.objectContaining({ agent: 'reader', method: 'memory.search', detail: 'restic backups', transport: 'mcp' }));

    // The host stops: the same session serves the workspace itself again.
    await stopProcess(daemon.child);
    const after = await client.callTool({ name: 'memory_search', arguments: { query: 'Piranesi' } });
    expect(after.isError, textOf(after)).toBeFalsy();
    expect(textOf(after)).toContain('memory/2026-04-05.md');
    expect(stderr()).toContain('no host running');
  });

  it('answers every request of a batch written at once with stdin closed before exiting 0', async () => {
    const child = spawn(process.execPath, [bin, 'mcp', '--workspace', ws.root, '--data-dir', ws.dataDir], {
      cwd: repoRoot,
      env: cliEnv(ws.dataDir, { REVERIE_AGENT_TOKEN: readToken }),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    children.push(child);
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    const search = (id: number, query: string) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'memory_search', arguments: { query } } });
    const batch = [
      { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'batch', version: '1' } } },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 2, method: 'tools/list' },
      ...[10, 11, 12, 13, 14].map((id) => search(id, id % 2 === 0 ? 'restic backups' : 'coffee')),
    ];
    child.stdin!.end(batch.map((m) => JSON.stringify(m)).join('\n') + '\n');
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code, stderr).toBe(0);
    const answers = stdout.trim().split('\n').map((line) => JSON.parse(line) as { id: number; result?: unknown; error?: unknown });
    expect(answers.map((a) => a.id).sort((a, b) => a - b)).toEqual([1, 2, 10, 11, 12, 13, 14]);
    expect(answers.every((a) => a.result !== undefined)).toBe(true);
  }, 60_000);

  it('tells the MCP client why it cannot serve: no token, an unknown or a revoked one (exit 1 after the client leaves)', async () => {
    const missing = await runCli(['mcp', '--workspace', ws.root], cliEnv(ws.dataDir, { REVERIE_AGENT_TOKEN: '' }));
    expect(missing.code).toBe(1);
    expect(missing.stderr.trim().split('\n')).toHaveLength(1);
    expect(missing.stderr).toContain('REVERIE_AGENT_TOKEN');

    const unknown = await connectMcp('rvr_not-a-real-token');
    await expect(unknown.client.listTools()).rejects.toThrow(/-32001.*token not known: run `reverie agents add NAME`/);
    await expect(unknown.client.callTool({ name: 'memory_search', arguments: { query: 'x' } })).rejects.toThrow(/token not known/);
    expect(unknown.stderr()).toMatch(/REVERIE_AGENT_TOKEN.*not known/);

    expect((await runCli(['agents', 'revoke', 'gone', '--workspace', ws.root], cliEnv(ws.dataDir))).code).toBe(0);
    const revoked = await connectMcp(revokedToken);
    await expect(revoked.client.listTools()).rejects.toThrow(/token revoked: .*agent "gone" was revoked/);
  }, 90_000);

  it('refuses unknown arguments and an empty query with JSON-RPC -32602 naming them, and keeps serving', async () => {
    const { client } = await connectMcp(readToken);
    await expect(client.callTool({ name: 'memory_search', arguments: { query: 'restic', maxResults: 3, minScore: 0.5 } })).rejects.toThrow(/-32602.*memory_search does not take "maxResults", "minScore"; it takes: query, limit, sources, budget, project/);
    await expect(client.callTool({ name: 'memory_search', arguments: { query: '   ' } })).rejects.toThrow(/-32602.*query.*must not be empty/);
    await expect(client.callTool({ name: 'memory_search', arguments: {} })).rejects.toThrow(/-32602.*query/);
    const again = await client.callTool({ name: 'intent_list', arguments: {} });
    expect(again.isError).toBeFalsy();
    expect(textOf(again)).toBe('No standing intents.');
  }, 60_000);

  it('never creates a workspace folder: without --workspace or a saved one it says so through the protocol', async () => {
    const home = path.join(ws.dataDir, 'home');
    const transport = new StdioClientTransport({ command: process.execPath, args: [bin, 'mcp'], env: cliEnv(path.join(ws.dataDir, 'fresh'), { REVERIE_AGENT_TOKEN: readToken, HOME: home }) as Record<string, string>, cwd: repoRoot, stderr: 'pipe' });
    const client = new Client({ name: 'reverie-test', version: '1.0.0' });
    clients.push(client);
    await client.connect(transport);
    await expect(client.listTools()).rejects.toThrow(/no workspace chosen: pass --workspace DIR/);
    expect(fs.existsSync(path.join(home, 'Reverie'))).toBe(false);
  }, 60_000);
});
