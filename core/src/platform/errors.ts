import type { ErrorCode, ErrorPayload } from '../contract/index.js';

/** An error the person can act on: it names the file or field and says what to do. */
export class ReverieError extends Error {
  /** `options.cause`: the error this one explains (kept for the log, never shown as the message). */
  constructor(
    readonly code: ErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'ReverieError';
  }

  toPayload(): ErrorPayload {
    return { code: this.code, message: this.message };
  }
}

export function toErrorPayload(error: unknown): ErrorPayload {
  if (error instanceof ReverieError) return error.toPayload();
  const message = error instanceof Error ? error.message : String(error);
  return { code: 'internal', message: `Internal error: ${message}` };
}

/** Errors caused by the person's input exit with 1; everything else is ours and exits with 2. */
export function exitCodeFor(error: unknown): 1 | 2 {
  return error instanceof ReverieError && error.code !== 'internal' ? 1 : 2;
}

export function errnoCode(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error
    ? String((error as { code: unknown }).code)
    : undefined;
}
