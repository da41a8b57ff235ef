import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http, { type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { downloadFile, nodeDownloadFileSystem, partPathFor, type DownloadFileSystem, type DownloadOptions } from '../src/models/download.js';
import { DownloadError } from '../src/models/downloadErrors.js';
import type { DownloadProgress } from '../src/models/downloadProgress.js';

const sha256 = (data: Uint8Array) => createHash('sha256').update(data).digest('hex');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A fake GGUF model: the header, then noise. */
function fakeModel(size: number): Buffer {
  return Buffer.concat([Buffer.from('GGUF'), randomBytes(size - 4)]);
}

interface TestServer {
  url: string;
  /** Headers of every request, in order. */
  requests: IncomingHttpHeaders[];
  paths: string[];
  close(): Promise<void>;
}

async function startServer(handler: (req: IncomingMessage, res: ServerResponse, hit: number) => void | Promise<void>): Promise<TestServer> {
  const requests: IncomingHttpHeaders[] = [];
  const paths: string[] = [];
  const server = http.createServer((req, res) => {
    requests.push(req.headers);
    paths.push(req.url ?? '');
    void handler(req, res, requests.length);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    paths,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

interface ServeOptions {
  headers?: Record<string, string>;
  chunkSize?: number;
  delayMs?: number;
  /** Destroy the socket after this many body bytes. */
  cutAfter?: number;
  ignoreRange?: boolean;
}

/** Serves `body` like a static file server: Range requests get 206 with Content-Range. */
async function serveBody(req: IncomingMessage, res: ServerResponse, body: Buffer, options: ServeOptions = {}): Promise<void> {
  const range = /^bytes=(\d+)-$/.exec(req.headers.range ?? '');
  let start = 0;
  const headers: Record<string, string> = { 'content-type': 'application/octet-stream', ...options.headers };
  if (range && !options.ignoreRange) {
    start = Number(range[1]);
    if (start >= body.length) {
      res.writeHead(416, { 'content-range': `bytes */${body.length}` }).end();
      return;
    }
    res.writeHead(206, { ...headers, 'content-length': String(body.length - start), 'content-range': `bytes ${start}-${body.length - 1}/${body.length}` });
  } else {
    res.writeHead(200, { ...headers, 'content-length': String(body.length) });
  }
  const chunkSize = options.chunkSize ?? 64 * 1024;
  let sent = 0;
  for (let offset = start; offset < body.length; offset += chunkSize) {
    const chunk = body.subarray(offset, Math.min(body.length, offset + chunkSize));
    if (options.cutAfter !== undefined && sent + chunk.length > options.cutAfter) {
      res.write(chunk.subarray(0, options.cutAfter - sent));
      await sleep(50);
      res.socket?.destroy();
      return;
    }
    if (!res.write(chunk)) await new Promise((r) => res.once('drain', r));
    sent += chunk.length;
    if (options.delayMs) await sleep(options.delayMs);
  }
  res.end();
}

let dir: string;
let servers: TestServer[];

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'reverie-models-dl-'));
  servers = [];
});

afterEach(async () => {
  await Promise.all(servers.map((s) => s.close()));
  fs.rmSync(dir, { recursive: true, force: true });
});

async function server(handler: Parameters<typeof startServer>[0]): Promise<TestServer> {
  const s = await startServer(handler);
  servers.push(s);
  return s;
}

function download(options: Partial<DownloadOptions> & { url: string }) {
  return downloadFile({ dest: path.join(dir, 'model.gguf'), timeoutMs: 5_000, ...options });
}

async function failureOf(promise: Promise<unknown>): Promise<DownloadError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DownloadError);
  return error as DownloadError;
}

describe('downloadFile', () => {
  it('reports progress with bytes, total, a smoothed rate and an ETA, and never shows the final name early', async () => {
    const body = fakeModel(512 * 1024);
    const s = await server((req, res) => serveBody(req, res, body, { chunkSize: 16 * 1024, delayMs: 12 }));
    const dest = path.join(dir, 'model.gguf');
    const events: (DownloadProgress & { at: number; finalExists: boolean })[] = [];
    const result = await download({
      url: `${s.url}/model.gguf`,
      dest,
      onProgress: (p) => events.push({ ...p, at: performance.now(), finalExists: fs.existsSync(dest) }),
    });

    expect(result.sha256).toBe(sha256(body));
    expect(result.size).toBe(body.length);
    expect(sha256(fs.readFileSync(dest))).toBe(sha256(body));
    expect(fs.existsSync(partPathFor(dest))).toBe(false);

    expect(events.length).toBeGreaterThanOrEqual(3);
    expect(events.every((e) => !e.finalExists)).toBe(true);
    expect(events.every((e) => e.total === body.length)).toBe(true);
    for (let i = 1; i < events.length; i++) expect(events[i]!.bytes).toBeGreaterThanOrEqual(events[i - 1]!.bytes);
    expect(events[events.length - 1]!.bytes).toBe(body.length);
    expect(events[events.length - 1]!.etaSeconds).toBe(0);
    const middle = events.slice(1, -1);
    expect(middle.length).toBeGreaterThan(0);
    expect(middle.some((e) => e.rate > 0 && e.etaSeconds !== null && e.etaSeconds > 0)).toBe(true);
    // At most ~10 reports a second: throttled reports (all but the first and the last) are ≥ 100 ms apart.
    for (let i = 2; i < events.length - 1; i++) expect(events[i]!.at - events[i - 1]!.at).toBeGreaterThanOrEqual(95);
  });

  it('resumes with a Range request after the server cuts the connection mid-body', async () => {
    const body = fakeModel(300 * 1024);
    const s = await server((req, res, hit) => serveBody(req, res, body, hit === 1 ? { chunkSize: 16 * 1024, cutAfter: 100 * 1024 } : {}));
    const dest = path.join(dir, 'model.gguf');
    const seenFinal: boolean[] = [];
    const result = await download({ url: `${s.url}/model.gguf`, dest, onProgress: () => seenFinal.push(fs.existsSync(dest)) });

    expect(s.requests).toHaveLength(2);
    expect(s.requests[0]!.range).toBeUndefined();
    expect(s.requests[1]!.range).toMatch(/^bytes=\d+-$/);
    expect(Number(/\d+/.exec(s.requests[1]!.range!)![0])).toBeGreaterThan(0);
    expect(result.sha256).toBe(sha256(body));
    expect(sha256(fs.readFileSync(dest))).toBe(sha256(body));
    expect(seenFinal.every((exists) => !exists)).toBe(true);
  });

  it('resumes from a .part left by an earlier run, and verifies the whole file', async () => {
    const body = fakeModel(200 * 1024);
    const dest = path.join(dir, 'model.gguf');
    fs.writeFileSync(partPathFor(dest), body.subarray(0, 70_000));
    const s = await server((req, res) => serveBody(req, res, body, { headers: { etag: `"${sha256(body)}"` } }));
    const progress: DownloadProgress[] = [];
    const result = await download({ url: `${s.url}/model.gguf`, dest, onProgress: (p) => progress.push(p) });

    expect(s.requests[0]!.range).toBe('bytes=70000-');
    expect(result).toMatchObject({ resumedFrom: 70_000, sha256: sha256(body), verifiedAgainst: 'server' });
    expect(progress[0]!.bytes).toBe(70_000);
    expect(fs.readFileSync(dest).equals(body)).toBe(true);
  });

  it('starts over when the server ignores Range and answers 200', async () => {
    const body = fakeModel(100 * 1024);
    const dest = path.join(dir, 'model.gguf');
    fs.writeFileSync(partPathFor(dest), Buffer.alloc(50_000, 7));
    const s = await server((req, res) => serveBody(req, res, body, { ignoreRange: true }));
    const result = await download({ url: `${s.url}/model.gguf`, dest });
    expect(s.requests[0]!.range).toBe('bytes=50000-');
    expect(result.sha256).toBe(sha256(body));
    expect(fs.readFileSync(dest).equals(body)).toBe(true);
  });

  it('finishes a .part that is already complete (416) without downloading again', async () => {
    const body = fakeModel(40 * 1024);
    const dest = path.join(dir, 'model.gguf');
    fs.writeFileSync(partPathFor(dest), body);
    const s = await server((req, res) => serveBody(req, res, body));
    const result = await download({ url: `${s.url}/model.gguf`, dest, sha256: sha256(body) });
    expect(result).toMatchObject({ sha256: sha256(body), size: body.length, verifiedAgainst: 'option' });
    expect(fs.existsSync(dest)).toBe(true);
  });

  it('follows a Hugging Face style redirect and verifies against x-linked-etag', async () => {
    const body = fakeModel(64 * 1024);
    const s = await server((req, res) => {
      if (req.url?.includes('/resolve/')) {
        res.writeHead(302, { location: '/cdn/blob?sig=1', 'x-linked-etag': `"${sha256(body)}"`, etag: '"abc123"' }).end();
        return;
      }
      return serveBody(req, res, body, { headers: { etag: '"0123456789abcdef0123456789abcdef"' } });
    });
    const result = await download({ url: `${s.url}/u/r/resolve/main/model.gguf` });
    expect(s.paths).toEqual(['/u/r/resolve/main/model.gguf', '/cdn/blob?sig=1']);
    expect(result).toMatchObject({ sha256: sha256(body), verifiedAgainst: 'server' });
  });

  it('refuses a redirect loop after a bounded number of hops', async () => {
    const s = await server((req, res) => void res.writeHead(302, { location: '/again' }).end());
    const error = await failureOf(download({ url: `${s.url}/model.gguf`, maxRedirects: 3 }));
    expect(error.failure).toBe('too-many-redirects');
    expect(s.requests).toHaveLength(4);
  });

  it('deletes the download and fails clearly on a checksum mismatch', async () => {
    const body = fakeModel(64 * 1024);
    const wrong = sha256(Buffer.from('something else'));
    const s = await server((req, res) => serveBody(req, res, body, { headers: { 'x-linked-etag': `"${wrong}"` } }));
    const dest = path.join(dir, 'model.gguf');
    const error = await failureOf(download({ url: `${s.url}/model.gguf`, dest }));
    expect(error.failure).toBe('checksum');
    expect(error.code).toBe('conflict');
    expect(error.message).toContain('Checksum mismatch for model.gguf');
    expect(error.message).toContain(wrong);
    expect(fs.existsSync(dest)).toBe(false);
    expect(fs.existsSync(partPathFor(dest))).toBe(false);

    const fromOption = await failureOf(download({ url: `${s.url}/model.gguf`, dest, sha256: 'f'.repeat(64) }));
    expect(fromOption.failure).toBe('checksum');
    expect(fs.existsSync(dest)).toBe(false);
  });

  it('says "not found: check the URI" on HTTP 404', async () => {
    const s = await server((req, res) => void res.writeHead(404).end('Entry not found'));
    const error = await failureOf(download({ url: `${s.url}/u/r/resolve/main/nope.gguf` }));
    expect(error.code).toBe('not-found');
    expect(error.message).toContain('not found: check the URI');
    expect(error.message).toContain('/u/r/resolve/main/nope.gguf');
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it('explains gated models on HTTP 401 and 403', async () => {
    for (const status of [401, 403]) {
      const s = await server((req, res) => void res.writeHead(status).end());
      const error = await failureOf(download({ url: `${s.url}/model.gguf` }));
      expect(error.failure).toBe('gated');
      expect(error.message).toContain(`HTTP ${status}`);
      expect(error.message).toMatch(/gated/);
      expect(error.message).toContain('HF_TOKEN');
    }
  });

  it('says you appear to be offline when the connection is refused', async () => {
    const s = await startServer(() => undefined);
    const url = `${s.url}/model.gguf`;
    const host = new URL(s.url).host;
    await s.close();
    const error = await failureOf(download({ url }));
    expect(error.failure).toBe('offline');
    expect(error.message).toContain(`Could not reach ${host} (ECONNREFUSED) — you appear to be offline`);
    expect(error.message).toContain('reverie models add <path>');
  });

  it('says you appear to be offline when the server never answers', async () => {
    const s = await server(() => undefined);
    const error = await failureOf(download({ url: `${s.url}/model.gguf`, timeoutMs: 200 }));
    expect(error.failure).toBe('offline');
    expect(error.message).toMatch(/Could not reach .* \(timed out\) — you appear to be offline/);
  });

  it('reports a full disk clearly and keeps the .part for resume', async () => {
    const body = fakeModel(256 * 1024);
    const s = await server((req, res) => serveBody(req, res, body, { chunkSize: 16 * 1024 }));
    let written = 0;
    const fullDisk: DownloadFileSystem = {
      async openPart(file, mode) {
        const real = await nodeDownloadFileSystem.openPart(file, mode);
        return {
          ...real,
          async write(chunk) {
            if (written + chunk.length > 100 * 1024) throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
            written += chunk.length;
            await real.write(chunk);
          },
        };
      },
    };
    const dest = path.join(dir, 'model.gguf');
    const error = await failureOf(download({ url: `${s.url}/model.gguf`, dest, fileSystem: fullDisk }));
    expect(error.failure).toBe('disk-full');
    expect(error.message).toMatch(/^Disk full while downloading model\.gguf/);
    expect(error.message).toContain('free space and retry: the partial file is kept for resume');
    expect(fs.existsSync(dest)).toBe(false);
    expect(fs.statSync(partPathFor(dest)).size).toBe(written);

    // Space freed: the next run resumes from what was saved.
    const result = await download({ url: `${s.url}/model.gguf`, dest });
    expect(result.resumedFrom).toBe(written);
    expect(s.requests[s.requests.length - 1]!.range).toBe(`bytes=${written}-`);
    expect(result.sha256).toBe(sha256(body));
  });

  it('keeps the .part when aborted, and the next run resumes it', async () => {
    const body = fakeModel(400 * 1024);
    const s = await server((req, res) => serveBody(req, res, body, { chunkSize: 16 * 1024, delayMs: 10 }));
    const dest = path.join(dir, 'model.gguf');
    const controller = new AbortController();
    const error = await failureOf(
      download({
        url: `${s.url}/model.gguf`,
        dest,
        signal: controller.signal,
        onProgress: (p) => {
          if (p.bytes > 0) controller.abort();
        },
      }),
    );
    expect(error.failure).toBe('aborted');
    expect(error.message).toContain('pull again to resume');
    const kept = fs.statSync(partPathFor(dest)).size;
    expect(kept).toBeGreaterThan(0);
    expect(fs.existsSync(dest)).toBe(false);

    const result = await download({ url: `${s.url}/model.gguf`, dest });
    expect(result.resumedFrom).toBe(kept);
    expect(result.sha256).toBe(sha256(body));
  });

  it('refuses a body that is not a GGUF file (an HTML error page) when a header is required', async () => {
    const page = Buffer.from('<!doctype html><title>Sign in</title>');
    const s = await server((req, res) => serveBody(req, res, page, { headers: { 'content-type': 'text/html' } }));
    const dest = path.join(dir, 'model.gguf');
    const error = await failureOf(download({ url: `${s.url}/model.gguf`, dest, magic: 'GGUF' }));
    expect(error.failure).toBe('not-gguf');
    expect(fs.existsSync(dest)).toBe(false);
    expect(fs.existsSync(partPathFor(dest))).toBe(false);
  });
});
