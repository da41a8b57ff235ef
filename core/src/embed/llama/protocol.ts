/**
 * Messages between the host and the embedding model process (`embeddingWorker.ts`), sent over
 * the fork IPC channel with `serialization: 'advanced'` so vectors travel as Float32Array.
 *
 *   host → worker: load {modelPath, threads, contextSize?}   worker → host: ready | load-error
 *   host → worker: embed {id, texts, priority?}               worker → host: result {id, vectors} | error {id, message}
 *   host → worker: close                                      worker disposes the model and exits 0
 */

export interface LoadRequest {
  type: 'load';
  modelPath: string;
  threads: number;
  /** Tokens per evaluation; capped at the model's training context (more would overflow its positions). */
  contextSize?: number;
}

export interface EmbedRequest {
  type: 'embed';
  id: number;
  texts: string[];
  /** `query`: a search waits for it, so it goes before batches (which give way between their texts). */
  priority?: 'query' | 'batch';
}

export interface CloseRequest {
  type: 'close';
}

export type WorkerRequest = LoadRequest | EmbedRequest | CloseRequest;

export interface ReadyMessage {
  type: 'ready';
  dims: number;
  contextSize: number;
  trainContextSize: number;
  /** Text tokens per evaluated window (the context minus the [CLS]/[SEP]-style tokens the model adds). */
  windowTokens: number;
}

export interface LoadErrorMessage {
  type: 'load-error';
  message: string;
}

export interface EmbedResult {
  type: 'result';
  id: number;
  /** One pooled vector per text, not yet L2-normalised (the host checks and normalises). */
  vectors: Float32Array[];
}

export interface EmbedError {
  type: 'error';
  id: number;
  message: string;
}

export type WorkerMessage = ReadyMessage | LoadErrorMessage | EmbedResult | EmbedError;

const WORKER_MESSAGE_TYPES: ReadonlySet<string> = new Set(['ready', 'load-error', 'result', 'error']);
const WORKER_REQUEST_TYPES: ReadonlySet<string> = new Set(['load', 'embed', 'close']);

const typeOf = (value: unknown): unknown =>
  typeof value === 'object' && value !== null ? (value as { type?: unknown }).type : undefined;

export function isWorkerMessage(value: unknown): value is WorkerMessage {
  const type = typeOf(value);
  return typeof type === 'string' && WORKER_MESSAGE_TYPES.has(type);
}

export function isWorkerRequest(value: unknown): value is WorkerRequest {
  const type = typeOf(value);
  return typeof type === 'string' && WORKER_REQUEST_TYPES.has(type);
}
