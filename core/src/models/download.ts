import { createHash, type Hash } from 'node:crypto';
import fs from 'node:fs';
import { syncDirectory } from '../platform/safeWrite.js';
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import path from 'node:path';
import { errnoCode } from '../platform/errors.js';
import {
  abortedError,
  DownloadError,
  httpError,
  IncompleteBodyError,
  isTransientNetworkError,
  isUnreachableError,
  offlineError,
  writeError,
} from './downloadErrors.js';
import { ProgressMeter, type DownloadProgress } from './downloadProgress.js';
import { processLogger } from '../platform/log/processLog.js';

const log = processLogger('models/download');

/** The file a download writes into: the one step tests replace to simulate a full disk. */
export interface PartFile {
  write(chunk: Uint8Array): Promise<void>;
  sync(): Promise<void>;
  close(): Promise<void>;
}

export interface DownloadFileSystem {
  /** Opens `<name>.part`, appending (a resume) or truncated (a fresh start). */
  openPart(file: string, mode: 'append' | 'truncate'): Promise<PartFile>;
}

export const nodeDownloadFileSystem: DownloadFileSystem = {
  async openPart(file, mode) {
    const handle = await fs.promises.open(file, mode === 'append' ? 'a' : 'w', 0o644);
    return {
      async write(chunk) {
        let offset = 0;
        while (offset < chunk.length) {
          const { bytesWritten } = await handle.write(chunk, offset, chunk.length - offset);
          offset += bytesWritten;
        }
      },
      sync: () => handle.sync(),
      close: () => handle.close(),
    };
  },
};

export interface DownloadOptions {
  url: string;
  /** The final path. Bytes go to `<dest>.part` and are renamed here only once complete and verified. */
  dest: string;
  /** Expected sha256 (hex). Without it, a 64-hex `x-linked-etag`/`etag` from the server is used when present. */
  sha256?: string | null;
  onProgress?: (progress: DownloadProgress) => void;
  /** Aborting keeps the `.part` file, so the next download of the same file resumes. */
  signal?: AbortSignal;
  /** Sent to the first URL's origin only (an access token must not follow a redirect to a CDN). */
  headers?: Record<string, string>;
  /** The first bytes the file must start with (`GGUF` for models); checked before the final rename. */
  magic?: string;
  maxRedirects?: number;
  /** Connection and idle timeout. */
  timeoutMs?: number;
  /** How many times a transfer cut short is resumed automatically (each resume must have made progress). */
  maxResumes?: number;
  progressIntervalMs?: number;
  fileSystem?: DownloadFileSystem;
}

export interface DownloadResult {
  path: string;
  size: number;
  sha256: string;
  /** Where the checksum that was verified came from; null when none was known. */
  verifiedAgainst: 'option' | 'server' | null;
  /** Bytes reused from an earlier `.part` file. */
  resumedFrom: number;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const SHA256_HEX = /^[0-9a-f]{64}$/;

export function partPathFor(dest: string): string {
  return `${dest}.part`;
}

/**
 * Downloads `url` to `dest`: streamed to `<dest>.part`, resumed with HTTP Range when a
 * `.part` exists, sha256-verified, fsynced, then renamed. The final name never holds a
 * partial or unverified file.
 */
export async function downloadFile(options: DownloadOptions): Promise<DownloadResult> {
  const { dest, signal } = options;
  const fileSystem = options.fileSystem ?? nodeDownloadFileSystem;
  const partPath = partPathFor(dest);
  const fileName = path.basename(dest);
  const host = new URL(options.url).host;
  const meter = new ProgressMeter(options.onProgress, options.progressIntervalMs ?? 100);

  if (signal?.aborted) throw abortedError(fileName, partPath, sizeOf(partPath));
  await fs.promises.mkdir(path.dirname(dest), { recursive: true });

  let expected = normalizeSha256(options.sha256);
  let verifiedAgainst: DownloadResult['verifiedAgainst'] = expected ? 'option' : null;
  const resumedFrom = sizeOf(partPath);
  let offset = resumedFrom;
  let total: number | null = null;
  let validator: string | undefined;
  let hash: Hash | null = null;
  let hashedBytes = 0;
  let resumesLeft = options.maxResumes ?? 5;
  let restartsLeft = 2;

  for (;;) {
    let opened: OpenResult;
    try {
      opened = await openResponse(options.url, { offset, validator, headers: options.headers, maxRedirects: options.maxRedirects ?? 5, timeoutMs: options.timeoutMs ?? 30_000, signal });
    } catch (error) {
      if (error instanceof DownloadError) throw error;
      if (signal?.aborted) throw abortedError(fileName, partPath, offset);
      if (isUnreachableError(error)) throw offlineError(host, error, offset > 0);
      throw connectionError(host, fileName, error, offset > 0 ? partPath : null);
    }
    if (opened.sha256 && !expected) {
      expected = opened.sha256;
      verifiedAgainst = 'server';
    }

    if (opened.kind === 'already-complete') {
      // The `.part` left by an earlier run already holds every byte: verify and finish.
      total = opened.total;
      meter.start(offset, total);
      hash = createHash('sha256');
      await hashFilePrefix(partPath, offset, hash);
      hashedBytes = offset;
      break;
    }
    if (opened.kind === 'range-rejected' || (opened.status === 206 && opened.start !== offset)) {
      if (opened.kind === 'body') opened.response.destroy();
      if (restartsLeft-- <= 0) throw new DownloadError('http', `The server for ${fileName} keeps answering resumed downloads inconsistently; delete ${partPath} and try again.`);
      fs.rmSync(partPath, { force: true });
      offset = 0;
      continue;
    }

    const { response } = opened;
    const isAppending = opened.status === 206;
    if (!isAppending) offset = 0;
    total = opened.total;
    validator ??= opened.validator;
    if (!hash || hashedBytes !== offset) {
      hash = createHash('sha256');
      hashedBytes = 0;
      if (offset > 0) {
        await hashFilePrefix(partPath, offset, hash);
        hashedBytes = offset;
      }
    }

    let file: PartFile;
    try {
      file = await fileSystem.openPart(partPath, isAppending ? 'append' : 'truncate');
    } catch (error) {
      response.destroy();
      throw writeError(error, fileName, partPath, offset, total);
    }

    const stopOnAbort = () => response.destroy(new Error('aborted by the caller'));
    signal?.addEventListener('abort', stopOnAbort, { once: true });
    if (signal?.aborted) stopOnAbort();
    meter.start(offset, total);
    const bodyStart = offset;
    let bytes = offset;
    let failure: { kind: 'write' | 'network'; error: unknown } | null = null;
    try {
      for await (const chunk of response as AsyncIterable<Buffer>) {
        try {
          await file.write(chunk);
        } catch (error) {
          failure = { kind: 'write', error };
          break;
        }
        hash.update(chunk);
        hashedBytes += chunk.length;
        bytes += chunk.length;
        meter.update(bytes);
      }
      if (!failure && total !== null && bytes < total) failure = { kind: 'network', error: new IncompleteBodyError(bytes, total) };
      if (!failure) await file.sync().catch((error: unknown) => (failure = { kind: 'write', error }));
    } catch (error) {
      failure = { kind: 'network', error };
    } finally {
      signal?.removeEventListener('abort', stopOnAbort);
      response.destroy();
      // The outcome is decided above (a failure is reported there); a failed close adds nothing the person can act on.
      await file.close().catch((error: unknown) => log.debug('A partial download could not be closed', { file: partPath, error }));
    }

    if (!failure) break;
    if (failure.kind === 'write') throw writeError(failure.error, fileName, partPath, sizeOf(partPath), total);
    if (signal?.aborted) throw abortedError(fileName, partPath, sizeOf(partPath));
    offset = sizeOf(partPath);
    if (isTransientNetworkError(failure.error) && bytes > bodyStart && resumesLeft-- > 0) continue;
    throw interruptedError(fileName, partPath, failure.error);
  }

  meter.finish();
  const actual = hash.digest('hex');
  if (expected && actual !== expected) {
    fs.rmSync(partPath, { force: true });
    const from = verifiedAgainst === 'server' ? 'the checksum the server published' : 'the expected checksum';
    throw new DownloadError(
      'checksum',
      `Checksum mismatch for ${fileName}: got sha256 ${actual}, but ${from} is ${expected}. The download was corrupted or changed on the server, so it was deleted; pull again to retry.`,
    );
  }
  if (options.magic && !startsWith(partPath, options.magic)) {
    fs.rmSync(partPath, { force: true });
    throw new DownloadError('not-gguf', `${options.url} did not return a ${options.magic} file (the first bytes are wrong, perhaps an HTML page); check the URI.`);
  }
  fs.renameSync(partPath, dest);
  syncDirectory(path.dirname(dest));
  return { path: dest, size: hashedBytes, sha256: actual, verifiedAgainst: expected ? verifiedAgainst : null, resumedFrom };
}

function connectionError(host: string, fileName: string, error: unknown, partPath: string | null): DownloadError {
  const why = errnoCode(error) ?? (error instanceof Error ? error.message : String(error));
  const kept = partPath ? `; the partial file ${partPath} is kept: pull again to resume` : '; check your connection and pull again';
  return new DownloadError('incomplete', `Could not download ${fileName} from ${host} (${why})${kept}.`);
}

function interruptedError(fileName: string, partPath: string, error: unknown): DownloadError {
  const why = error instanceof Error ? error.message : String(error);
  return new DownloadError('incomplete', `Download of ${fileName} was interrupted (${errnoCode(error) ?? why}); the partial file ${partPath} is kept: pull again to resume.`);
}

// ---------------------------------------------------------------------------------------
// HTTP

type OpenResult =
  | { kind: 'body'; response: IncomingMessage; status: 200 | 206; start: number; total: number | null; sha256: string | null; validator: string | undefined }
  | { kind: 'already-complete'; total: number; sha256: string | null }
  | { kind: 'range-rejected'; sha256: string | null };

interface OpenOptions {
  offset: number;
  validator: string | undefined;
  headers: Record<string, string> | undefined;
  maxRedirects: number;
  timeoutMs: number;
  signal: AbortSignal | undefined;
}

/** Follows redirects to a 200/206 body, or says the `.part` is already complete or unusable. */
async function openResponse(startUrl: string, options: OpenOptions): Promise<OpenResult> {
  let url = new URL(startUrl);
  const origin = url.origin;
  let linkedSha: string | null = null;
  let etagSha: string | null = null;
  for (let hop = 0; ; hop++) {
    const headers: Record<string, string> = {
      'user-agent': 'reverie (model download)',
      'accept-encoding': 'identity',
      ...(url.origin === origin ? options.headers : {}),
    };
    if (options.offset > 0) {
      headers.range = `bytes=${options.offset}-`;
      if (options.validator) headers['if-range'] = options.validator;
    }
    const response = await requestOnce(url, headers, options.timeoutMs, options.signal);
    linkedSha ??= sha256FromEtag(response.headers['x-linked-etag']);
    etagSha ??= sha256FromEtag(response.headers.etag);
    const sha256 = linkedSha ?? etagSha;
    const status = response.statusCode ?? 0;

    if (REDIRECTS.has(status)) {
      response.resume();
      const location = response.headers.location;
      if (!location) throw httpError(status, startUrl, 'redirect without a Location');
      if (hop >= options.maxRedirects) {
        throw new DownloadError('too-many-redirects', `Downloading ${startUrl} was redirected more than ${options.maxRedirects} times; check the URI.`);
      }
      const next = new URL(location, url);
      if (next.protocol !== 'https:' && !(next.protocol === 'http:' && url.protocol === 'http:')) {
        throw new DownloadError('http', `Downloading ${startUrl} was redirected to ${next.protocol}//${next.host}, which Reverie does not follow (only https, or http from http).`);
      }
      url = next;
      continue;
    }
    if (status === 416) {
      response.resume();
      const total = parseTotalFromContentRange(response.headers['content-range']);
      return total !== null && total === options.offset ? { kind: 'already-complete', total, sha256 } : { kind: 'range-rejected', sha256 };
    }
    if (status === 200 || status === 206) {
      const length = parseLength(response.headers['content-length']);
      let start = 0;
      let total = length;
      if (status === 206) {
        const range = parseContentRange(response.headers['content-range']);
        start = range?.start ?? -1;
        total = range?.total ?? (length !== null && start >= 0 ? start + length : null);
      }
      const etag = response.headers.etag;
      const validator = etag && !etag.startsWith('W/') ? etag : undefined;
      return { kind: 'body', response, status, start, total, sha256, validator };
    }
    response.resume();
    throw httpError(status, startUrl, response.statusMessage);
  }
}

function requestOnce(url: URL, headers: Record<string, string>, timeoutMs: number, signal: AbortSignal | undefined): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const client = url.protocol === 'https:' ? https : http;
    // agent: false: one connection per request, so nothing lingers in a pool after a download.
    const request = client.request(url, { method: 'GET', headers, timeout: timeoutMs, agent: false });
    const onAbort = () => request.destroy(new Error('aborted by the caller'));
    signal?.addEventListener('abort', onAbort, { once: true });
    request.on('timeout', () => request.destroy(Object.assign(new Error(`no response in ${Math.round(timeoutMs / 1000)} s`), { code: 'ETIMEDOUT' })));
    request.on('error', (error) => {
      signal?.removeEventListener('abort', onAbort);
      reject(error);
    });
    request.on('response', (response) => {
      signal?.removeEventListener('abort', onAbort);
      // A body cut before anyone reads it must not crash the process; the reader sees the stream errored.
      response.on('error', () => undefined);
      resolve(response);
    });
    request.end();
  });
}

function sha256FromEtag(value: string | string[] | undefined): string | null {
  if (typeof value !== 'string') return null;
  const bare = value.replace(/^W\//, '').replace(/^"|"$/g, '').toLowerCase();
  return SHA256_HEX.test(bare) ? bare : null;
}

function normalizeSha256(value: string | null | undefined): string | null {
  if (!value) return null;
  const lower = value.trim().toLowerCase();
  if (!SHA256_HEX.test(lower)) throw new DownloadError('checksum', `"${value}" is not a sha256 checksum (64 hex digits).`);
  return lower;
}

function parseLength(value: string | undefined): number | null {
  if (!value || !/^\d+$/.test(value)) return null;
  return Number(value);
}

function parseContentRange(value: string | undefined): { start: number; total: number | null } | null {
  const match = value ? /^bytes (\d+)-(\d+)\/(\d+|\*)$/.exec(value.trim()) : null;
  if (!match) return null;
  return { start: Number(match[1]), total: match[3] === '*' ? null : Number(match[3]) };
}

function parseTotalFromContentRange(value: string | undefined): number | null {
  const match = value ? /^bytes \*\/(\d+)$/.exec(value.trim()) : null;
  return match ? Number(match[1]) : null;
}

// ---------------------------------------------------------------------------------------
// Files

function sizeOf(file: string): number {
  try {
    return fs.statSync(file).size;
  } catch (error) {
    log.debug('No partial download yet', { file, error });
    return 0;
  }
}

async function hashFilePrefix(file: string, length: number, hash: Hash): Promise<void> {
  if (length === 0) return;
  for await (const chunk of fs.createReadStream(file, { start: 0, end: length - 1 })) hash.update(chunk as Buffer);
}

function startsWith(file: string, magic: string): boolean {
  const expected = Buffer.from(magic, 'latin1');
  const actual = Buffer.alloc(expected.length);
  const fd = fs.openSync(file, 'r');
  try {
    return fs.readSync(fd, actual, 0, actual.length, 0) === actual.length && actual.equals(expected);
  } finally {
    fs.closeSync(fd);
  }
}

