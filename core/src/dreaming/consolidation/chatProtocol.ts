/**
 * Messages between the host and the one-shot chat model process (`chatWorker.ts`):
 *
 *   host → worker: generate {modelPath, prompt, schema, threads, maxContextSize, maxTokens}
 *   worker → host: answer {raw, stopReason, maxTokens} | failure {message}; then the worker exits
 *
 * The caller's JSON schema travels with the prompt: the worker answers under a grammar built
 * from it (consolidation and graph extraction share this process, each with its own schema).
 */

/** A JSON schema in the subset node-llama-cpp turns into a grammar (plain data: it crosses the IPC channel). */
export type AnswerSchema = Readonly<Record<string, unknown>>;

export interface GenerateRequest {
  type: 'generate';
  modelPath: string;
  prompt: string;
  schema: AnswerSchema;
  threads: number;
  maxContextSize: number;
  maxTokens: number;
}

export interface AnswerMessage {
  type: 'answer';
  raw: string;
  /** node-llama-cpp's stop reason; `maxTokens` means the answer was cut off. */
  stopReason: string;
  /** The token limit actually used (smaller than asked when the prompt fills most of the context). */
  maxTokens: number;
}

export interface FailureMessage {
  type: 'failure';
  message: string;
}

export type ChatWorkerMessage = AnswerMessage | FailureMessage;

const typeOf = (value: unknown): unknown =>
  typeof value === 'object' && value !== null ? (value as { type?: unknown }).type : undefined;

export function isChatWorkerMessage(value: unknown): value is ChatWorkerMessage {
  const type = typeOf(value);
  return type === 'answer' || type === 'failure';
}

export function isGenerateRequest(value: unknown): value is GenerateRequest {
  return typeOf(value) === 'generate';
}
