import http from 'node:http';
import fs from 'node:fs';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { isOperationName, type EngineEvent } from '../../contract/index.js';
import { ReverieError, toErrorPayload } from '../../platform/errors.js';
import type { MemoryService } from '../../engine/memoryService.js';
import { HTTP_STATUS } from './statusCodes.js';
import { resolveStaticFile } from './staticFiles.js';
import { serveMcpRequest } from './mcpRoute.js';

export interface HttpHostOptions {
  service: MemoryService;
  /** 0 picks a free port. */
  port: number;
  /** The built renderer (index.html + assets). */
  staticDir: string;
}

export interface RunningHttpHost {
  url: string;
  /** The URL to open: carries the per-launch token in the fragment (never sent to the server or logged). */
  launchUrl: string;
  port: number;
  token: string;
  close(): Promise<void>;
}

const MAX_BODY_BYTES = 24 * 1024 * 1024;

/** Content-Security-Policy for the UI: only our own scripts, styles and API. */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * `reverie serve`: the contract as JSON over HTTP plus events over server-sent events, on
 * 127.0.0.1 only, behind a per-launch token, refusing other origins and foreign Host headers.
 */
export async function startHttpHost({ service, port, staticDir }: HttpHostOptions): Promise<RunningHttpHost> {
  const token = randomBytes(24).toString('hex');
  service.log.addSecret(token); // the launch URL carries it: never in the log
  const sseClients = new Set<http.ServerResponse>();
  let boundPort = port;

  const allowedHosts = (): Set<string> => new Set([`127.0.0.1:${boundPort}`, `localhost:${boundPort}`]);
  const allowedOrigins = (): Set<string> => new Set([...allowedHosts()].map((h) => `http://${h}`));

  const server = http.createServer((req, res) => {
    void handle(req, res).catch((error) => sendError(res, error));
  });

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Referrer-Policy', 'no-referrer');
    res.setHeader('Cache-Control', 'no-store');
    // HTTP/1.1 requires 400 for more than one Host: proxies and servers may each read a different one.
    if ((req.headersDistinct.host?.length ?? 0) > 1) {
      throw new ReverieError('invalid-input', 'The request has more than one Host header; send exactly one.');
    }
    const origin = req.headers.origin;
    // /mcp takes agents' own tokens in a header no page can guess, from containers and forwarded ports that name this host otherwise.
    if ((req.url ?? '').split('?')[0] === '/mcp') {
      if (origin !== undefined && !allowedOrigins().has(origin)) throw new ReverieError('forbidden', `Requests from origin ${origin} are not allowed.`);
      if (req.method !== 'POST') {
        res.writeHead(405, { Allow: 'POST', 'Content-Type': 'application/json; charset=utf-8' });
        res.end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32000, message: 'This MCP endpoint is stateless: POST each JSON-RPC message.' } }));
        return;
      }
      await serveMcpRequest(service, req, res, bearer(req.headers.authorization), await readJsonBody(req));
      return;
    }
    // DNS-rebinding guard: a page on another name that resolves to 127.0.0.1 is refused.
    if (!allowedHosts().has(req.headers.host ?? '')) {
      throw new ReverieError('forbidden', 'Unexpected Host header; Reverie only answers on 127.0.0.1.');
    }
    if (origin !== undefined && !allowedOrigins().has(origin)) {
      throw new ReverieError('forbidden', `Requests from origin ${origin} are not allowed.`);
    }
    const url = new URL(req.url ?? '/', `http://127.0.0.1:${boundPort}`);

    if (url.pathname === '/api/events') {
      requireToken(url.searchParams.get('token'));
      openEventStream(res);
      return;
    }
    if (url.pathname.startsWith('/api/')) {
      if (req.method !== 'POST') throw new ReverieError('invalid-input', 'Use POST for API calls.');
      requireToken(bearer(req.headers.authorization));
      const name = url.pathname.slice('/api/'.length);
      if (!isOperationName(name)) throw new ReverieError('not-found', `Unknown operation "${name}".`);
      const input = await readJsonBody(req);
      const result = await service.invokeUnchecked(name, input, { transport: 'ui' });
      sendJson(res, 200, { ok: true, result });
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') throw new ReverieError('invalid-input', 'Only GET is served here.');
    serveStatic(url.pathname, res);
  }

  function requireToken(given: string | null): void {
    const a = Buffer.from(given ?? '');
    const b = Buffer.from(token);
    if (a.length !== b.length || !timingSafeEqual(a, b)) {
      throw new ReverieError('unauthenticated', 'Missing or wrong token. Open the URL printed by `reverie serve`.');
    }
  }

  function serveStatic(pathname: string, res: http.ServerResponse): void {
    const found = resolveStaticFile(staticDir, pathname) ?? (pathname.includes('.') ? null : resolveStaticFile(staticDir, '/'));
    if (!found) {
      if (pathname === '/' || !pathname.includes('.')) {
        sendHtml(res, 503, `<!doctype html><title>Reverie</title><p>The Reverie UI is not built. Run <code>npm run build</code> and reload.</p>`);
        return;
      }
      sendJson(res, 404, { ok: false, error: { code: 'not-found', message: `No such file: ${pathname}` } });
      return;
    }
    res.setHeader('Content-Type', found.type);
    // Vite names assets by content hash: they can be cached; index.html and the API cannot.
    if (pathname.startsWith('/assets/')) res.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
    if (found.type.startsWith('text/html')) res.setHeader('Content-Security-Policy', CONTENT_SECURITY_POLICY);
    res.writeHead(200);
    fs.createReadStream(found.file).pipe(res);
  }

  function openEventStream(res: http.ServerResponse): void {
    res.writeHead(200, { 'Content-Type': 'text/event-stream; charset=utf-8', Connection: 'keep-alive' });
    res.write(': connected\n\n');
    sseClients.add(res);
    res.on('close', () => sseClients.delete(res));
  }

  const unsubscribe = service.onDidEmitEvent((event: EngineEvent) => {
    const frame = `data: ${JSON.stringify(event)}\n\n`;
    for (const client of sseClients) client.write(frame);
  });
  const heartbeat = setInterval(() => sseClients.forEach((c) => c.write(': ping\n\n')), 15_000);
  heartbeat.unref();

  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      reject(
        error.code === 'EADDRINUSE'
          ? new ReverieError('invalid-input', `Port ${port} on 127.0.0.1 is already in use; choose another with --port.`)
          : error,
      );
    });
    server.listen(port, '127.0.0.1', () => resolve());
  });
  boundPort = (server.address() as AddressInfo).port;
  const base = `http://127.0.0.1:${boundPort}`;

  return {
    url: base,
    launchUrl: `${base}/#token=${token}`,
    port: boundPort,
    token,
    close: async () => {
      unsubscribe();
      clearInterval(heartbeat);
      for (const client of sseClients) client.end();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function bearer(header: string | undefined): string | null {
  const match = /^Bearer\s+(\S+)$/i.exec(header ?? '');
  return match ? match[1]! : null;
}

async function readJsonBody(req: http.IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) throw new ReverieError('too-large', 'Request body is larger than 24 MB.');
    chunks.push(chunk);
  }
  if (size === 0) return {};
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch (error) {
    throw new ReverieError('invalid-input', 'Request body is not valid JSON.', { cause: error });
  }
}

function sendJson(res: http.ServerResponse, status: number, body: unknown): void {
  if (res.headersSent) return void res.end();
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify(body));
}

function sendHtml(res: http.ServerResponse, status: number, html: string): void {
  res.writeHead(status, { 'Content-Type': 'text/html; charset=utf-8', 'Content-Security-Policy': CONTENT_SECURITY_POLICY });
  res.end(html);
}

function sendError(res: http.ServerResponse, error: unknown): void {
  const payload = toErrorPayload(error);
  sendJson(res, HTTP_STATUS[payload.code], { ok: false, error: payload });
}
