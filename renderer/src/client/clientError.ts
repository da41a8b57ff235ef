import { ErrorCode, ErrorPayload } from '../../../core/src/contract/index.js';

/** Codes the engine reports, plus the two only a client can observe. */
export type ClientErrorCode = ErrorCode | 'network' | 'invalid-response';

/** A failed call, carrying the engine's error code so views can react (e.g. `conflict`). */
export class MemoryClientError extends Error {
  constructor(
    readonly code: ClientErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'MemoryClientError';
  }
}

export function errorFromPayload(payload: unknown, fallback: string): MemoryClientError {
  const parsed = ErrorPayload.safeParse(payload);
  if (parsed.success) return new MemoryClientError(parsed.data.code, parsed.data.message);
  return new MemoryClientError('invalid-response', fallback);
}

const EMBEDDED_CODE = new RegExp(`(?<![\\w-])(${ErrorCode.options.join('|')}): `);

/** Anything thrown across a transport, as a MemoryClientError (codes survive when present). */
export function toClientError(error: unknown): MemoryClientError {
  if (error instanceof MemoryClientError) return error;
  if (typeof error === 'object' && error !== null) {
    const { code, message } = error as { code?: unknown; message?: unknown };
    const text = typeof message === 'string' ? message : String(error);
    const known = ErrorCode.safeParse(code);
    if (known.success) return new MemoryClientError(known.data, text);
    // Electron's ipcRenderer.invoke flattens errors to "Error invoking remote method …: <code>: <message>".
    const embedded = EMBEDDED_CODE.exec(text);
    if (embedded) return new MemoryClientError(embedded[1] as ErrorCode, text.slice(embedded.index + embedded[0].length));
    return new MemoryClientError('internal', text);
  }
  return new MemoryClientError('internal', String(error));
}

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
