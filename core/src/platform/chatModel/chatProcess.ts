/**
 * The host side of the chat model: forks `chatWorker`, sends prompts with the JSON schema each
 * answer must follow, and turns every way one can go wrong (a native abort, a load error, a
 * timeout, JSON cut off at the token limit, the caller giving up) into `{ ok: false, reason }`.
 * It never throws, and no child outlives `close()`. A session keeps one process (the model
 * loaded once) for several prompts; `runChatModel` is a session of one prompt. Consolidation
 * and graph extraction use it.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import os from 'node:os';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { isChatWorkerMessage, type AnswerSchema, type ChatWorkerMessage, type CloseRequest, type GenerateRequest } from './chatProtocol.js';

const STDERR_TAIL_CHARS = 2000;
const MAX_THREADS = 4;
/** The context the worker creates at most (smaller when the model's own is): prompts are sized for it. */
export const MAX_CONTEXT_SIZE = 4096;
export const DEFAULT_MAX_ANSWER_TOKENS = 1024;

/** Which model a session runs, and how the caller follows it. */
export interface ChatModelOptions {
  modelPath: string;
  /** Called with each child's pid once it is forked (tests check it is gone afterwards). */
  onSpawn?: (pid: number) => void;
  /** Aborting kills the child and answers `{ ok: false }` (the engine is closing, or a sync waits). */
  signal?: AbortSignal;
}

/** One prompt: its answer's JSON schema (the worker generates under a grammar made from it) and time limit. */
export interface ChatPrompt {
  prompt: string;
  schema: AnswerSchema;
  /** From sending the prompt to its answer (the first prompt of a process includes loading the model). */
  timeoutMs: number;
  /** Defaults to DEFAULT_MAX_ANSWER_TOKENS. */
  maxTokens?: number;
}

export type ChatModelRequest = ChatModelOptions & ChatPrompt;

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

/** One prompt in a process of its own, gone when this resolves. */
export async function runChatModel({ prompt, schema, timeoutMs, maxTokens, ...options }: ChatModelRequest): Promise<ModelAnswer> {
  const session = new ChatModelSession(options);
  try {
    return await session.ask({ prompt, schema, timeoutMs, ...(maxTokens === undefined ? {} : { maxTokens }) });
  } finally {
    await session.close();
  }
}

interface ModelProcess {
  child: ChildProcess;
  /** Prompts sent and not yet answered, by id. */
  waiting: Map<number, (message: ChatWorkerMessage) => void>;
  /** Settles once the child has exited and its channel closed (its last message has arrived: 'exit' can overtake it), with why it ended. */
  gone: Promise<string>;
  /** Exiting or gone (killed, crashed, or its model could not load): no prompt goes to it. */
  ending: boolean;
}

const CLOSE_GRACE_MS = 5_000;

/**
 * Prompts for one chat model, answered by one process that loads the model once (with the
 * generated test model that was ~3.5 s of every prompt; a real one takes longer). A prompt that
 * times out, or a process that dies, ends that process; the next prompt starts a fresh one.
 * Prompts are asked one at a time.
 */
export class ChatModelSession {
  private current: ModelProcess | null = null;
  private nextId = 1;
  private closed = false;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly options: ChatModelOptions) {}

  ask(prompt: ChatPrompt): Promise<ModelAnswer> {
    const answer = this.queue.then(() => this.askNow(prompt));
    this.queue = answer;
    return answer;
  }

  /** Ends the process (asked to free the model, killed if it has not within a few seconds); resolves once it is gone. */
  async close(): Promise<void> {
    this.closed = true;
    await this.queue;
    const current = this.current;
    this.current = null;
    if (!current) return;
    if (!current.ending) current.child.send({ type: 'close' } satisfies CloseRequest, () => {});
    const killer = setTimeout(() => current.child.kill('SIGKILL'), CLOSE_GRACE_MS);
    await current.gone;
    clearTimeout(killer);
  }

  private async askNow(prompt: ChatPrompt): Promise<ModelAnswer> {
    const { signal } = this.options;
    if (signal?.aborted) return { ok: false, reason: 'the chat model was not asked: the engine is stopping' };
    if (this.closed) return { ok: false, reason: 'the chat model was not asked: its session is closed' };
    if (this.current?.ending) {
      await this.current.gone;
      this.current = null;
    }
    let proc: ModelProcess;
    try {
      proc = this.current ?? this.spawn();
    } catch (error) {
      return { ok: false, reason: `the chat model process could not start (${error instanceof Error ? error.message : String(error)})` };
    }
    this.current = proc;
    const id = this.nextId++;
    const maxTokens = prompt.maxTokens ?? DEFAULT_MAX_ANSWER_TOKENS;
    const ended = async (kill: boolean, answer: ModelAnswer): Promise<ModelAnswer> => {
      proc.waiting.delete(id);
      if (kill) {
        proc.ending = true;
        proc.child.kill('SIGKILL');
        await proc.gone;
      }
      return answer;
    };
    return new Promise<ModelAnswer>((resolve) => {
      let settled = false;
      const settle = (work: Promise<ModelAnswer>): void => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        signal?.removeEventListener('abort', abort);
        void work.then(resolve);
      };
      const timer = setTimeout(
        () => settle(ended(true, { ok: false, reason: `the chat model did not answer within ${describeDuration(prompt.timeoutMs)}` })),
        prompt.timeoutMs,
      );
      const abort = (): void => settle(ended(true, { ok: false, reason: 'the chat model was stopped: the engine is stopping' }));
      signal?.addEventListener('abort', abort, { once: true });
      proc.waiting.set(id, (message) => {
        // A model that cannot load ends its process (a next prompt starts another one).
        if (message.type === 'failure' && message.fatal) proc.ending = true;
        settle(ended(false, toAnswer(message)));
      });
      void proc.gone.then((why) => settle(ended(false, { ok: false, reason: why })));
      const generate: GenerateRequest = {
        type: 'generate',
        id,
        modelPath: this.options.modelPath,
        prompt: prompt.prompt,
        schema: prompt.schema,
        threads: Math.max(1, Math.min(os.availableParallelism(), MAX_THREADS)),
        maxContextSize: MAX_CONTEXT_SIZE,
        maxTokens,
      };
      proc.child.send(generate, () => {});
    });
  }

  private spawn(): ModelProcess {
    const entry = workerEntry();
    const child = fork(entry.file, [], { execArgv: entry.execArgv, stdio: ['ignore', 'ignore', 'pipe', 'ipc'] });
    if (child.pid !== undefined) this.options.onSpawn?.(child.pid);
    let stderrTail = '';
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (chunk: string) => {
      stderrTail = (stderrTail + chunk).slice(-STDERR_TAIL_CHARS);
    });
    const waiting = new Map<number, (message: ChatWorkerMessage) => void>();
    child.on('message', (message: unknown) => {
      if (isChatWorkerMessage(message)) waiting.get(message.id)?.(message);
    });
    const proc: ModelProcess = { child, waiting, gone: Promise.resolve(''), ending: false };
    proc.gone = new Promise<string>((resolve) => {
      let startError: Error | null = null;
      child.on('error', (error) => {
        startError = error;
        // A child that never started reports no exit.
        if (child.pid === undefined) {
          proc.ending = true;
          resolve(`the chat model process failed (${error.message})`);
        }
        else child.kill('SIGKILL');
      });
      const exited = new Promise<[number | null, NodeJS.Signals | null]>((done) => child.once('exit', (code, signal) => done([code, signal])));
      const disconnected = new Promise<void>((done) => child.once('disconnect', () => done()));
      void Promise.all([exited, disconnected]).then(([[code, signal]]) => {
        proc.ending = true;
        // Let the last stderr bytes arrive before describing the exit.
        setImmediate(() => resolve(startError ? `the chat model process failed (${startError.message})` : describeExit(code, signal, stderrTail)));
      });
    });
    return proc;
  }
}
