/**
 * The `llama` embedding provider: a local GGUF embedding model run by node-llama-cpp in a
 * child process (`embeddingWorker.ts`). Files are checked in TypeScript first
 * (`inspectGguf`), so most bad files never reach llama.cpp; the rest crash only the child.
 */
import os from 'node:os';
import path from 'node:path';
import { normalizeInPlace, type EmbeddingGeneration, type EmbeddingProvider } from '../provider.js';
import { inspectGguf, type GgufSummary } from './ggufInspect.js';
import { modelFileId } from './modelFileId.js';
import { EmbeddingWorkerProcess } from './workerProcess.js';

/** Bumped when the text given to the model changes (prefixes, windowing, pooling). */
export const LLAMA_PREPROCESSING = 'llama-v1';

export interface LlamaEmbeddingProviderOptions {
  modelPath: string;
  /** The generation's model id: a sha256 prefix or a URI. Defaults to the file's sha256 (first 16 hex). */
  modelId?: string;
  /** CPU threads; capped at `os.availableParallelism()`, default one fewer (see `resolveThreadCount`). */
  threads?: number;
  /** Tokens evaluated at once; defaults to 1024, capped at the model's training context. */
  contextSize?: number;
  /** Texts per request to the model process. */
  batchSize?: number;
  loadTimeoutMs?: number;
}

const DEFAULT_BATCH_TEXTS = 16;
/** Keeps one request's messages small however long the texts are. */
const MAX_BATCH_CHARS = 256 * 1024;
const DEFAULT_LOAD_TIMEOUT_MS = 120_000;
/** Query vectors kept for a repeated query (768 dims: 3 KB each). */
const RECENT_QUERIES = 256;

/**
 * CPU threads for llama.cpp: never more than the cores, and by default one fewer. ggml's
 * threads spin at barriers, so when the host (SQLite, the UI) needs a core the threads
 * wait on each other: on 2 busy cores, 2 threads embedded 400 tokens in ~700 ms against
 * ~320 ms with 1 thread (MiniLM-sized model), and tiny inputs took 25-80 ms against ~1 ms.
 */
export function resolveThreadCount(requested: number | undefined): number {
  const cores = Math.max(1, os.availableParallelism());
  if (requested === undefined || !Number.isFinite(requested)) return Math.max(1, cores - 1);
  return Math.min(cores, Math.max(1, Math.floor(requested)));
}

/** Consecutive slices of `texts` holding at most `maxTexts` texts and (beyond one text) `maxChars` characters. */
export function batchTexts(texts: readonly string[], maxTexts: number, maxChars = MAX_BATCH_CHARS): string[][] {
  const batches: string[][] = [];
  let current: string[] = [];
  let chars = 0;
  for (const text of texts) {
    if (current.length > 0 && (current.length >= maxTexts || chars + text.length > maxChars)) {
      batches.push(current);
      current = [];
      chars = 0;
    }
    current.push(text);
    chars += text.length;
  }
  if (current.length > 0) batches.push(current);
  return batches;
}

export class LlamaEmbeddingProvider implements EmbeddingProvider {
  readonly generation: EmbeddingGeneration;
  readonly dims: number;
  /** Tokens evaluated at once, and text tokens per window of a long text. */
  readonly contextSize: number;
  readonly windowTokens: number;
  private readonly recentQueries = new Map<string, Float32Array>();

  private constructor(
    private readonly worker: EmbeddingWorkerProcess,
    readonly modelPath: string,
    readonly summary: GgufSummary,
    modelId: string,
    private readonly batchSize: number,
  ) {
    this.dims = worker.info.dims;
    this.contextSize = worker.info.contextSize;
    this.windowTokens = worker.info.windowTokens;
    this.generation = { provider: 'llama', model: modelId, dims: this.dims, preprocessing: LLAMA_PREPROCESSING };
  }

  /** Checks the file, starts the model process and loads the model; rejects with a message naming the file. */
  static async open(options: LlamaEmbeddingProviderOptions): Promise<LlamaEmbeddingProvider> {
    const modelPath = path.resolve(options.modelPath);
    const summary = await inspectGguf(modelPath, 'embedding');
    const modelId = options.modelId ?? (await modelFileId(modelPath));
    const worker = await EmbeddingWorkerProcess.start({
      modelPath,
      threads: resolveThreadCount(options.threads),
      ...(options.contextSize === undefined ? {} : { contextSize: options.contextSize }),
      loadTimeoutMs: options.loadTimeoutMs ?? DEFAULT_LOAD_TIMEOUT_MS,
    });
    return new LlamaEmbeddingProvider(worker, modelPath, summary, modelId, Math.max(1, options.batchSize ?? DEFAULT_BATCH_TEXTS));
  }

  /** The model process id (for diagnostics and tests). */
  get pid(): number | undefined {
    return this.worker.pid;
  }

  async embedBatch(texts: readonly string[]): Promise<Float32Array[]> {
    const vectors: Float32Array[] = [];
    // One bounded request at a time: the model process evaluates serially anyway.
    for (const batch of batchTexts(texts, this.batchSize)) {
      for (const vector of await this.worker.embed(batch)) {
        vectors.push(normalizeInPlace(vector, `embedding from ${this.modelPath}`));
      }
    }
    return vectors;
  }

  /**
   * A search's query vector, ahead of any indexing batch in the model process. Recent queries
   * are kept: type-ahead and agents ask the same text again, and a query costs ~45 ms with a
   * model the size of the default one on 2 cores.
   */
  async embedQuery(text: string): Promise<Float32Array> {
    const known = this.recentQueries.get(text);
    if (known) {
      this.recentQueries.delete(text);
      this.recentQueries.set(text, known);
      return known.slice();
    }
    const [raw] = await this.worker.embed([text], 'query');
    const vector = normalizeInPlace(raw!, `embedding from ${this.modelPath}`);
    this.recentQueries.set(text, vector.slice());
    if (this.recentQueries.size > RECENT_QUERIES) this.recentQueries.delete(this.recentQueries.keys().next().value!);
    return vector;
  }

  close(): Promise<void> {
    return this.worker.close();
  }
}
