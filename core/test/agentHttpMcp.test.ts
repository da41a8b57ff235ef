import http from 'node:http';
import os from 'node:os';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, describe, expect, it } from 'vitest';
import type { MemoryService } from '../src/engine/memoryService.js';
import { startHttpHost, type RunningHttpHost } from '../src/host/http/httpHost.js';
import { createTempWorkspace, openService, SAMPLE_NOTES, type TempWorkspace } from './helpers/workspace.js';

let ws: TempWorkspace;
let service: MemoryService;
let host: RunningHttpHost;
const clients: Client[] = [];

afterEach(async () => {
  for (const c of clients.splice(0)) await c.close();
  await host?.close();
  await service?.close();
  ws?.cleanup();
});

async function start(): Promise<void> {
  ws = createTempWorkspace(SAMPLE_NOTES);
  service = openService(ws);
  await service.sync(false);
  host = await startHttpHost({ service, port: 0, staticDir: os.tmpdir() });
}

async function connect(token: string): Promise<Client> {
  const client = new Client({ name: 'container-agent', version: '1.0.0' });
  clients.push(client);
  await client.connect(new StreamableHTTPClientTransport(new URL(`${host.url}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
  return client;
}

/** A POST as a forwarded port or a container would send it: another Host name. */
function post(pathname: string, headers: Record<string, string>, body: unknown): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port: host.port, path: pathname, method: 'POST', headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', ...headers } }, (res) => {
      let text = '';
      res.on('data', (d: Buffer) => (text += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

describe('MCP over Streamable HTTP at /mcp', () => {
  it('serves the same tools and scopes for an agent token, logged as MCP', async () => {
    await start();
    const { token } = await service.invoke('agents.add', { name: 'devcontainer' });
    const client = await connect(token);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toContain('memory_search');
    expect(tools.map((t) => t.name)).not.toContain('memory_store');
    const found = await client.callTool({ name: 'memory_search', arguments: { query: 'Piranesi' } });
    expect(found.isError).toBeFalsy();
    expect((found.structuredContent as { results: Array<{ path: string }> }).results[0]!.path).toBe('memory/2026-04-05.md');
    const { entries } = await service.invoke('agents.log', { agent: 'devcontainer' });
    expect(entries[0]).toMatchObject({ method: 'memory.search', detail: 'Piranesi', transport: 'mcp', ok: true });
  });

  it('refuses an unknown or revoked token with 401 and a message a client can show; takes another Host name but not another origin', async () => {
    await start();
    const init = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } } };
    const unknown = await post('/mcp', { Authorization: 'Bearer rvr_nope', Host: 'host.docker.internal:9' }, init);
    expect(unknown.status).toBe(401);
    expect(JSON.parse(unknown.body).error.message).toMatch(/token not known: run `reverie agents add NAME`/);
    const { token } = await service.invoke('agents.add', { name: 'remote' });
    const forwarded = await post('/mcp', { Authorization: `Bearer ${token}`, Host: 'localhost:4444' }, init);
    expect(forwarded.status).toBe(200);
    expect(JSON.parse(forwarded.body).result.serverInfo.name).toBe('reverie');
    // The window's API keeps its DNS-rebinding guard.
    expect((await post('/api/status', { Authorization: `Bearer ${host.token}`, Host: 'localhost:4444' }, {})).status).toBe(403);
    expect((await post('/mcp', { Authorization: `Bearer ${token}`, Origin: 'http://evil.example' }, init)).status).toBe(403);
    await service.invoke('agents.revoke', { name: 'remote' });
    const revoked = await post('/mcp', { Authorization: `Bearer ${token}` }, init);
    expect(revoked.status).toBe(401);
    expect(JSON.parse(revoked.body).error.message).toMatch(/token revoked/);
  });
});
