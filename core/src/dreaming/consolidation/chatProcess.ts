/**
 * The host side of the chat model: forks `chatWorker`, sends one prompt with the JSON schema
 * its answer must follow, and turns every way it can go wrong (a native abort, a load error, a
 * timeout, JSON cut off at the token limit, the caller giving up) into `{ ok: false, reason }`.
 * It never throws and never leaves the child running. Consolidation and graph extraction use it.
 */
import { fork } from 'node:child_process';
import { createRequire } from 'node:module';
import os from 'node:os';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { isChatWorkerMessage, type AnswerSchema, type ChatWorkerMessage, type GenerateRequest } from './chatProtocol.js';
import { buildConsolidationPrompt, CONSOLIDATION_SCHEMA, type ConsolidationInput } from './prompt.js';

const STDERR_TAIL_CHARS = 2000;
const MAX_THREADS = 4;
/** The context the worker creates at most (smaller when the model's own is): prompts are sized for it. */
export const MAX_CONTEXT_SIZE = 4096;
export const DEFAULT_MAX_ANSWER_TOKENS = 1024;

/** One prompt for the chat model process. */
export interface ChatModelRequest {
  modelPath: string;
  prompt: string;
  /** The answer's JSON schema: the worker generates under a grammar made from it. */
  schema: AnswerSchema;
  timeoutMs: number;
  /** Defaults to DEFAULT_MAX_ANSWER_TOKENS. */
  maxTokens?: number;
  /** Called with the child's pid once it is forked (tests check it is gone afterwards). */
  onSpawn?: (pid: number) => void;
  /** Aborting kills the child and answers `{ ok: false }` (the engine is closing). */
  signal?: AbortSignal;
}

export interface ModelConsolidationRequest extends Omit<ChatModelRequest, 'prompt' | 'schema' | 'signal'> {
  input: ConsolidationInput;
}

/** `answered`: the model did answer, but not with JSON (the process itself worked). */
export type ModelAnswer = { ok: true; json: unknown; raw: string } | { ok: false; reason: string; answered?: true };

/** The worker entry next to this file: `.ts` under vitest/tsx (run through tsx), `.js` when compiled. */
function workerEntry(): { file: string; execArgv: string[] } {
  const here = import.meta.url;
  if (here.endsWith('.ts')) {
    const tsxLoader = pathToFileURL(createRequire(here).resolve('tsx')).href;
    return { file: fileURLToPath(new URL('./chatWorker.ts', here)), execArgv: ['--import', tsxLoader] };
  }
  return { file: fileURLToPath(new URL('./chatWorker.js', here)), execArgv: [] };
}

function describeExit(code: number | null, signal: NodeJS.Signals | null, stderrTail: string): string {
  const how = signal === 'SIGABRT' ? 'aborted (SIGABRT, exit code 134)' : signal ? `was killed by ${signal}` : `exited with code ${code}`;
  const reason = stderrTail
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => /GGML_ASSERT|error|terminate|abort/i.test(line))
    .at(-1);
  // llama.cpp assertions start with a build-machine source path; the assertion itself is the useful part.
  const detail = reason?.includes('GGML_ASSERT') ? reason.slice(reason.indexOf('GGML_ASSERT')) : reason;
  return detail ? `the chat model process ${how}: ${detail.slice(0, 300)}` : `the chat model process ${how}`;
}

function describeDuration(ms: number): string {
  return ms >= 1000 ? `${Math.round(ms / 1000)} s` : `${ms} ms`;
}

/** JSON.parse with a reason that says whether the answer was cut off at the token limit. */
export function parseModelAnswer(raw: string, stopReason: string, maxTokens: number): ModelAnswer {
  try {
    return { ok: true, json: JSON.parse(raw) as unknown, raw };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const cut = stopReason === 'maxTokens' ? `the answer was cut off at the ${maxTokens}-token limit (${message})` : message;
    return { ok: false, reason: `the chat model returned invalid JSON: ${cut}`, answered: true };
  }
}

function toAnswer(message: ChatWorkerMessage): ModelAnswer {
  if (message.type === 'failure') return { ok: false, reason: `the chat model could not answer: ${message.message}` };
  return parseModelAnswer(message.raw, message.stopReason, message.maxTokens);
}

export function runModelConsolidation({ input, ...request }: ModelConsolidationRequest): Promise<ModelAnswer> {
  return runChatModel({ ...request, prompt: buildConsolidationPrompt(input), schema: CONSOLIDATION_SCHEMA });
}

export function runChatModel(request: ChatModelRequest): Promise<ModelAnswer> {
  return new Promise<ModelAnswer>((resolve) => {
    if (request.signal?.aborted) {
      resolve({ ok: false, reason: 'the chat model was not asked: the engine is stopping' });
      return;
    }
    let outcome: ModelAnswer | undefined;
    const settle = (answer: ModelAnswer): void => {
      outcome ??= answer;
    };
    let child: ReturnType<typeof fork>;
    try {
      const entry = workerEntry();
      child = fork(entry.file, [], { execArgv: entry.execArgv, stdio: ['ignore', 'ignore', 'pipe', 'ipc'] });
    } catch (error) {
      resolve({ ok: false, reason: `the chat model process could not start (${error instanceof Error ? error.message : String(error)})` });
      return;
    }
    if (child.pid !== undefined) request.onSpawn?.(child.pid);
    let stderrTail = '';
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (chunk: string) => {
      stderrTail = (stderrTail + chunk).slice(-STDERR_TAIL_CHARS);
    });
    const timer = setTimeout(() => {
      settle({ ok: false, reason: `the chat model did not answer within ${describeDuration(request.timeoutMs)}` });
      child.kill('SIGKILL');
    }, request.timeoutMs);
    const abort = (): void => {
      settle({ ok: false, reason: 'the chat model was stopped: the engine is stopping' });
      child.kill('SIGKILL');
    };
    request.signal?.addEventListener('abort', abort, { once: true });
    child.on('message', (message: unknown) => {
      if (isChatWorkerMessage(message)) settle(toAnswer(message));
    });
    child.on('error', (error) => {
      settle({ ok: false, reason: `the chat model process failed (${error.message})` });
      // A child that never started will not report an exit.
      if (child.pid === undefined) {
        clearTimeout(timer);
        request.signal?.removeEventListener('abort', abort);
        resolve(outcome!);
      }
      else child.kill('SIGKILL');
    });
    // Resolve only once the child is gone (no model process outlives the call) and its channel
    // is closed (its last message has arrived: 'exit' can overtake it).
    const exited = new Promise<[number | null, NodeJS.Signals | null]>((done) => child.once('exit', (code, signal) => done([code, signal])));
    const disconnected = new Promise<void>((done) => child.once('disconnect', () => done()));
    void Promise.all([exited, disconnected]).then(([[code, signal]]) => {
      clearTimeout(timer);
      request.signal?.removeEventListener('abort', abort);
      // Let the last stderr bytes arrive before describing the exit.
      setImmediate(() => resolve(outcome ?? { ok: false, reason: describeExit(code, signal, stderrTail) }));
    });
    const generate: GenerateRequest = {
      type: 'generate',
      modelPath: request.modelPath,
      prompt: request.prompt,
      schema: request.schema,
      threads: Math.max(1, Math.min(os.availableParallelism(), MAX_THREADS)),
      maxContextSize: MAX_CONTEXT_SIZE,
      maxTokens: request.maxTokens ?? DEFAULT_MAX_ANSWER_TOKENS,
    };
    child.send(generate, () => {});
  });
}
