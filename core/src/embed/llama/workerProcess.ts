/**
 * The host side of the embedding model process: forks `embeddingWorker`, matches replies to
 * requests, and turns a crash (a native abort, exit 134) into errors naming the model file
 * instead of taking the host down.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ReverieError } from '../../platform/errors.js';
import { isWorkerMessage, type LoadRequest, type ReadyMessage, type WorkerMessage, type WorkerRequest } from './protocol.js';

const STDERR_TAIL_CHARS = 2000;
const CLOSE_GRACE_MS = 5000;

export interface WorkerStartOptions extends Omit<LoadRequest, 'type'> {
  loadTimeoutMs: number;
}

/** The worker entry next to this file: `.ts` under vitest/tsx (run through tsx), `.js` when compiled. */
function workerEntry(): { file: string; execArgv: string[] } {
  const here = import.meta.url;
  if (here.endsWith('.ts')) {
    const tsxLoader = pathToFileURL(createRequire(here).resolve('tsx')).href;
    return { file: fileURLToPath(new URL('./embeddingWorker.ts', here)), execArgv: ['--import', tsxLoader] };
  }
  return { file: fileURLToPath(new URL('./embeddingWorker.js', here)), execArgv: [] };
}

function describeExit(code: number | null, signal: NodeJS.Signals | null, stderrTail: string): string {
  const how =
    signal === 'SIGABRT' ? 'aborted (SIGABRT, exit code 134)' : signal ? `was killed by ${signal}` : `exited with code ${code}`;
  // The last line that explains the exit (a llama.cpp assertion or an uncaught error), if any.
  const reason = stderrTail
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => /GGML_ASSERT|error|terminate|abort/i.test(line))
    .at(-1);
  if (!reason) return `the model process ${how}`;
  // llama.cpp assertions start with a build-machine source path; the assertion itself is the useful part.
  const detail = reason.includes('GGML_ASSERT') ? reason.slice(reason.indexOf('GGML_ASSERT')) : reason;
  return `the model process ${how}: ${detail.slice(0, 300)}`;
}

interface Pending {
  resolve(vectors: Float32Array[]): void;
  reject(error: Error): void;
}

export class EmbeddingWorkerProcess {
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private failure: Error | undefined;
  private readonly exited: Promise<void>;

  private constructor(
    private readonly child: ChildProcess,
    private readonly modelPath: string,
    readonly info: ReadyMessage,
    exited: Promise<void>,
  ) {
    this.exited = exited;
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  /** Forks the worker and loads the model; rejects with a message naming the file if it cannot. */
  static start(options: WorkerStartOptions): Promise<EmbeddingWorkerProcess> {
    const { modelPath, loadTimeoutMs, ...load } = options;
    const entry = workerEntry();
    const child = fork(entry.file, [], {
      execArgv: entry.execArgv,
      serialization: 'advanced',
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    });
    let stderrTail = '';
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (chunk: string) => {
      stderrTail = (stderrTail + chunk).slice(-STDERR_TAIL_CHARS);
    });
    let onExit: (code: number | null, signal: NodeJS.Signals | null) => void = () => {};
    const exited = new Promise<void>((resolve) => {
      child.once('exit', (code, signal) => {
        // Let the last stderr bytes arrive before describing the exit.
        setImmediate(() => {
          onExit(code, signal);
          resolve();
        });
      });
    });

    return new Promise<EmbeddingWorkerProcess>((resolve, reject) => {
      let settled = false;
      const failLoad = (reason: string): void => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        child.kill('SIGKILL');
        reject(new ReverieError('invalid-input', `The embedding model ${modelPath} could not be loaded: ${reason}.`));
      };
      const timer = setTimeout(() => failLoad(`it did not finish loading within ${Math.round(loadTimeoutMs / 1000)} s`), loadTimeoutMs);
      onExit = (code, signal) =>
        failLoad(`the file is not a valid GGUF embedding model (${describeExit(code, signal, stderrTail)})`);
      child.on('error', (error) => failLoad(`the model process could not start (${error.message})`));
      child.on('message', function onLoadMessage(message: unknown) {
        if (!isWorkerMessage(message)) return;
        if (message.type === 'load-error') return failLoad(message.message);
        if (message.type !== 'ready' || settled) return;
        settled = true;
        clearTimeout(timer);
        child.off('message', onLoadMessage);
        const worker = new EmbeddingWorkerProcess(child, modelPath, message, exited);
        onExit = (code, signal) => worker.fail(code, signal, stderrTail);
        child.on('message', (m: unknown) => isWorkerMessage(m) && worker.receive(m));
        worker.updateKeepAlive();
        resolve(worker);
      });
      child.send({ type: 'load', modelPath, ...load } satisfies WorkerRequest, () => {});
    });
  }

  /** The raw (not yet normalised) vectors for `texts`, in order. */
  embed(texts: string[], priority: 'query' | 'batch' = 'batch'): Promise<Float32Array[]> {
    if (this.failure) return Promise.reject(this.failure);
    const id = this.nextId++;
    return new Promise<Float32Array[]>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.updateKeepAlive();
      // A send that fails means the worker is exiting; its exit handler rejects this call.
      this.child.send({ type: 'embed', id, texts, priority } satisfies WorkerRequest, () => {});
    });
  }

  /** Asks the worker to free the model and exit; kills it if it does not within a few seconds. */
  async close(): Promise<void> {
    if (!this.failure) {
      this.failure = new ReverieError('internal', `The embedding model ${this.modelPath} is closed.`);
      this.rejectAll(this.failure);
      if (this.child.connected) this.child.send({ type: 'close' } satisfies WorkerRequest, () => {});
    }
    const timer = setTimeout(() => this.child.kill('SIGKILL'), CLOSE_GRACE_MS);
    await this.exited;
    clearTimeout(timer);
  }

  private receive(message: WorkerMessage): void {
    if (message.type !== 'result' && message.type !== 'error') return;
    const pending = this.pending.get(message.id);
    if (!pending) return;
    this.pending.delete(message.id);
    this.updateKeepAlive();
    if (message.type === 'result') pending.resolve(message.vectors);
    else pending.reject(new ReverieError('internal', `The embedding model ${this.modelPath} failed to embed a text: ${message.message}.`));
  }

  private fail(code: number | null, signal: NodeJS.Signals | null, stderrTail: string): void {
    if (this.failure) return; // closed on purpose
    this.failure = new ReverieError(
      'internal',
      `The embedding model ${this.modelPath} crashed (${describeExit(code, signal, stderrTail)}); reopen it to continue.`,
    );
    this.rejectAll(this.failure);
  }

  private rejectAll(error: Error): void {
    for (const p of this.pending.values()) p.reject(error);
    this.pending.clear();
  }

  /** An idle worker must not keep the host alive (a CLI exits when done); a busy one must. */
  private updateKeepAlive(): void {
    const busy = this.pending.size > 0;
    const handles = [this.child, this.child.channel, this.child.stderr] as Array<{ ref?(): void; unref?(): void } | null | undefined>;
    for (const handle of handles) {
      if (busy) handle?.ref?.();
      else handle?.unref?.();
    }
  }
}
