import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EngineEvent } from '../src/contract/index.js';
import type { MemoryService } from '../src/engine/memoryService.js';
import { startHttpHost, type RunningHttpHost } from '../src/host/http/httpHost.js';
import { createTempWorkspace, openService, SAMPLE_NOTES, type TempWorkspace } from './helpers/workspace.js';

let ws: TempWorkspace;
let service: MemoryService;
let host: RunningHttpHost;

beforeAll(async () => {
  ws = createTempWorkspace(SAMPLE_NOTES);
  const staticDir = path.join(ws.dataDir, 'ui');
  fs.mkdirSync(path.join(staticDir, 'assets'), { recursive: true });
  fs.writeFileSync(path.join(staticDir, 'index.html'), '<!doctype html><title>Reverie</title>');
  fs.writeFileSync(path.join(staticDir, 'assets', 'app.js'), 'console.log(1)');
  service = openService(ws);
  await service.startHosting({ kind: 'serve', url: null });
  host = await startHttpHost({ service, port: 0, staticDir });
  await service.sync(false);
});
afterAll(async () => {
  await host.close();
  await service.close();
  ws.cleanup();
});

const call = (op: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${host.url}/api/${op}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${host.token}`, ...headers },
    body: JSON.stringify(body),
  });

describe('HTTP host', () => {
  it('binds to 127.0.0.1 and serves the UI with a strict CSP', async () => {
    expect(host.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const res = await fetch(`${host.url}/`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect((await fetch(`${host.url}/assets/app.js`)).headers.get('content-type')).toContain('javascript');
    expect((await fetch(`${host.url}/assets/..%2f..%2fsettings.json`)).status).toBe(404);
  });

  it('runs contract operations with the token and validates input', async () => {
    const res = await call('memory.search', { query: 'restic' });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { ok: boolean; result: { results: Array<{ path: string }> } };
    expect(body.ok).toBe(true);
    expect(body.result.results[0]?.path).toBe('MEMORY.md');
    const bad = await call('memory.search', { query: 5 });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ ok: false, error: { code: 'invalid-input', message: expect.stringContaining('query') } });
    expect((await call('nope', {})).status).toBe(404);
  });

  it('refuses requests without the token, from other origins, or to other host names', async () => {
    const noToken = await fetch(`${host.url}/api/status`, { method: 'POST', body: '{}' });
    expect(noToken.status).toBe(401);
    expect((await call('status', {}, { Authorization: 'Bearer wrong' })).status).toBe(401);
    expect((await call('status', {}, { Origin: 'http://evil.example' })).status).toBe(403);
    expect((await call('status', {}, { Origin: host.url })).status).toBe(200);
    // fetch cannot forge Host; a raw request can (as a DNS-rebinding page effectively does).
    const rebindingStatus = await new Promise<number>((resolve, reject) => {
      const req = http.request(`${host.url}/api/status`, { method: 'POST', headers: { Host: 'evil.example', Authorization: `Bearer ${host.token}` } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.end('{}');
    });
    expect(rebindingStatus).toBe(403);
    expect((await fetch(`${host.url}/api/events`)).status).toBe(401);
  });

  it('refuses a request with two Host headers with 400, even with the token', async () => {
    const { port } = new URL(host.url);
    const statusLine = await new Promise<string>((resolve, reject) => {
      const socket = net.connect(Number(port), '127.0.0.1', () => {
        socket.end(
          `POST /api/status HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nHost: evil.com\r\nAuthorization: Bearer ${host.token}\r\n` +
            'Content-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}',
        );
      });
      let answer = '';
      socket.on('data', (d: Buffer) => (answer += d.toString('latin1')));
      socket.on('end', () => resolve(answer.split('\r\n')[0] ?? ''));
      socket.on('error', reject);
    });
    expect(statusLine).toMatch(/^HTTP\/1\.1 400 /);
  });

  it('reports a conflicting save as 409 and leaves the file alone', async () => {
    const read = (await (await call('files.read', { path: 'USER.md' })).json()) as { result: { sha256: string } };
    ws.write('USER.md', '# User\n- changed elsewhere\n');
    const res = await call('files.write', { path: 'USER.md', text: 'mine', expectedSha256: read.result.sha256 });
    expect(res.status).toBe(409);
    expect(fs.readFileSync(path.join(ws.root, 'USER.md'), 'utf8')).toBe('# User\n- changed elsewhere\n');
  });

  it('streams progress and index-ready events over server-sent events', async () => {
    const controller = new AbortController();
    const res = await fetch(`${host.url}/api/events?token=${host.token}`, { signal: controller.signal });
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    const reader = res.body!.getReader();
    const events: EngineEvent[] = [];
    const done = (async () => {
      let buffer = '';
      for (;;) {
        const { value, done: finished } = await reader.read();
        if (finished) return;
        buffer += Buffer.from(value).toString();
        for (const frame of buffer.split('\n\n').slice(0, -1)) {
          if (frame.startsWith('data: ')) events.push(JSON.parse(frame.slice(6)));
        }
        buffer = buffer.slice(buffer.lastIndexOf('\n\n') + 2);
        if (events.some((e) => e.type === 'index-ready')) return;
      }
    })();
    ws.write('memory/2026-04-07.md', '# 2026-04-07\n- new note about comets\n');
    await call('index.sync', {});
    await done;
    controller.abort();
    expect(events.some((e) => e.type === 'index-progress')).toBe(true);
    expect(events.find((e) => e.type === 'index-ready')).toMatchObject({ report: { added: 1 } });
  });
});
