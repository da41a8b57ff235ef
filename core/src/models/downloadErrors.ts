import type { ErrorCode } from '../contract/index.js';
import { errnoCode, ReverieError } from '../platform/errors.js';
import { formatBytes } from './downloadProgress.js';

/** What went wrong, for front ends that offer a specific way out (retry, add a local file, free space). */
export type DownloadFailure =
  | 'offline'
  | 'not-found'
  | 'gated'
  | 'http'
  | 'too-many-redirects'
  | 'incomplete'
  | 'checksum'
  | 'not-gguf'
  | 'disk-full'
  | 'write-failed'
  | 'aborted';

// The contract has no "unavailable" code yet: conditions outside Reverie's control use `internal` for now.
const CODES: Record<DownloadFailure, ErrorCode> = {
  offline: 'internal',
  'not-found': 'not-found',
  gated: 'forbidden',
  http: 'internal',
  'too-many-redirects': 'internal',
  incomplete: 'internal',
  checksum: 'conflict',
  'not-gguf': 'invalid-input',
  'disk-full': 'internal',
  'write-failed': 'internal',
  aborted: 'internal',
};

export class DownloadError extends ReverieError {
  constructor(
    readonly failure: DownloadFailure,
    message: string,
  ) {
    super(CODES[failure], message);
    this.name = 'DownloadError';
  }
}

const ADD_LOCALLY = 'download the .gguf elsewhere and add it with `reverie models add <path>`';

/** Errors that mean the host cannot be reached at all (as opposed to a transfer cut short). */
const UNREACHABLE = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ENETUNREACH', 'EHOSTUNREACH', 'ENETDOWN', 'EHOSTDOWN', 'ETIMEDOUT']);

export function isUnreachableError(error: unknown): boolean {
  return UNREACHABLE.has(errnoCode(error) ?? '');
}

/** Transfer errors worth resuming from where the bytes stopped. */
export function isTransientNetworkError(error: unknown): boolean {
  const code = errnoCode(error);
  return code === 'ECONNRESET' || code === 'ETIMEDOUT' || code === 'EPIPE' || code === 'ECONNABORTED' || code === 'ERR_STREAM_PREMATURE_CLOSE' || error instanceof IncompleteBodyError;
}

/** The server closed the connection before sending every byte it announced. */
export class IncompleteBodyError extends Error {
  constructor(received: number, expected: number) {
    super(`the connection closed after ${received} of ${expected} bytes`);
  }
}

export function offlineError(host: string, error: unknown, hasPartialFile = false): DownloadError {
  const code = errnoCode(error);
  const why = code === 'ETIMEDOUT' ? 'timed out' : (code ?? (error as Error)?.message ?? 'network error');
  const kept = hasPartialFile ? ' (the partial file is kept: pull again to resume once online)' : '';
  return new DownloadError('offline', `Could not reach ${host} (${why}) — you appear to be offline; ${ADD_LOCALLY}${kept}.`);
}

export function httpError(status: number, url: string, statusText: string | undefined): DownloadError {
  if (status === 404) return new DownloadError('not-found', `Model not found at ${url} (HTTP 404): not found: check the URI (hf:<user>/<repo>/<file.gguf>, with the exact file name).`);
  if (status === 401 || status === 403) {
    return new DownloadError(
      'gated',
      `Access denied to ${url} (HTTP ${status}): the model is gated or private. Accept its terms on huggingface.co and set HF_TOKEN to an access token, or ${ADD_LOCALLY}.`,
    );
  }
  const hint = status >= 500 ? 'the server is having trouble; try again later' : 'the server refused the request';
  return new DownloadError('http', `Downloading ${url} failed with HTTP ${status}${statusText ? ` ${statusText}` : ''}: ${hint}.`);
}

export function writeError(error: unknown, fileName: string, partPath: string, bytes: number, total: number | null): DownloadError {
  const code = errnoCode(error);
  const saved = `${formatBytes(bytes)}${total === null ? '' : ` of ${formatBytes(total)}`} saved in ${partPath}`;
  if (code === 'ENOSPC' || code === 'EDQUOT') {
    return new DownloadError('disk-full', `Disk full while downloading ${fileName} (${saved}); free space and retry: the partial file is kept for resume.`);
  }
  return new DownloadError('write-failed', `Could not write ${partPath} while downloading ${fileName} (${code ?? (error as Error)?.message}); the partial file is kept for resume (${saved}).`);
}

export function abortedError(fileName: string, partPath: string, bytes: number): DownloadError {
  return new DownloadError('aborted', `Download of ${fileName} cancelled after ${formatBytes(bytes)}; the partial file ${partPath} is kept: pull again to resume.`);
}
