/**
 * Messages between the host and the one-shot chat model process (`chatWorker.ts`):
 *
 *   host → worker: generate {modelPath, prompt, threads, maxContextSize, maxTokens}  (grammar: CONSOLIDATION_SCHEMA)
 *   worker → host: answer {raw, stopReason, maxTokens} | failure {message}; then the worker exits
 */

export interface GenerateRequest {
  type: 'generate';
  modelPath: string;
  prompt: string;
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
