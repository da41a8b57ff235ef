/**
 * Messages between the host and the chat model process (`chatWorker.ts`):
 *
 *   host → worker: generate {id, modelPath, prompt, schema, threads, maxContextSize, maxTokens}
 *   worker → host: answer {id, raw, stopReason, maxTokens} | failure {id, message, fatal?}
 *   host → worker: close                       the worker frees the model and exits
 *
 * One process answers any number of prompts for one model; a failure marked `fatal` (the model
 * could not load) ends it.
 *
 * The caller's JSON schema travels with the prompt: the worker answers under a grammar built
 * from it (consolidation and graph extraction share this process, each with its own schema).
 */

/** A JSON schema in the subset node-llama-cpp turns into a grammar (plain data: it crosses the IPC channel). */
export type AnswerSchema = Readonly<Record<string, unknown>>;

export interface GenerateRequest {
  type: 'generate';
  id: number;
  modelPath: string;
  prompt: string;
  schema: AnswerSchema;
  threads: number;
  maxContextSize: number;
  maxTokens: number;
}

export interface CloseRequest {
  type: 'close';
}

export interface AnswerMessage {
  type: 'answer';
  id: number;
  raw: string;
  /** node-llama-cpp's stop reason; `maxTokens` means the answer was cut off. */
  stopReason: string;
  /** The token limit actually used (smaller than asked when the prompt fills most of the context). */
  maxTokens: number;
}

export interface FailureMessage {
  type: 'failure';
  id: number;
  message: string;
  /** The model could not load: the process exits after this message. */
  fatal?: true;
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

export function isCloseRequest(value: unknown): value is CloseRequest {
  return typeOf(value) === 'close';
}
