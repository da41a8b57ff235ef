/**
 * The embedding model process: a `child_process.fork` child that loads one GGUF model with
 * node-llama-cpp and embeds texts for the host (protocol in `protocol.ts`). It lives in its
 * own process because llama.cpp can abort (exit 134) on a malformed file, and a slow
 * evaluation must never block the host's event loop.
 */
import type { Llama, LlamaEmbeddingContext, LlamaModel, Token } from 'node-llama-cpp';
import { isWorkerRequest, type EmbedRequest, type LoadRequest, type WorkerMessage } from './protocol.js';
import { poolWindowVectors, splitIntoWindows } from './tokenWindows.js';
import { openCpuLlama } from '../../platform/cpuLlama.js';
import { disposeAndExit } from '../../platform/llamaChildExit.js';

/** Without a configured size, evaluate this many tokens at once (chunks are ~400 tokens). */
const DEFAULT_CONTEXT_SIZE = 1024;
/** Used when a model does not declare its training context. */
const FALLBACK_TRAIN_CONTEXT = 512;
/** Room for the [CLS]/[SEP] (BOS/EOS) tokens the model adds; node-llama-cpp also needs length < contextSize. */
const ADDED_TOKENS_ROOM = 3;

interface LoadedModel {
  llama: Llama;
  model: LlamaModel;
  context: LlamaEmbeddingContext;
  dims: number;
  windowTokens: number;
}

let loaded: LoadedModel | undefined;

function send(message: WorkerMessage): void {
  process.send?.(message);
}

/** The most specific llama.cpp error line, e.g. "key not found in model: bert.block_count". */
function describeLoadFailure(error: unknown, llamaErrors: readonly string[]): string {
  const marker = 'error loading model: ';
  const detailed = llamaErrors.filter((line) => line.includes(marker)).at(-1);
  if (detailed) return detailed.slice(detailed.lastIndexOf(marker) + marker.length).trim();
  const last = llamaErrors.at(-1);
  if (last) return last.trim();
  return error instanceof Error ? error.message : String(error);
}

async function load(request: LoadRequest): Promise<void> {
  if (loaded) throw new Error('The embedding model process already holds a model.');
  const llamaErrors: string[] = [];
  try {
    const llama = await openCpuLlama(request.threads, llamaErrors);
    const model = await llama.loadModel({ modelPath: request.modelPath });
    const trainContextSize = model.trainContextSize > 0 ? model.trainContextSize : FALLBACK_TRAIN_CONTEXT;
    // More positions than the model was trained on overflow absolute position embeddings (a native abort).
    const contextSize = Math.min(request.contextSize ?? DEFAULT_CONTEXT_SIZE, trainContextSize);
    if (contextSize <= ADDED_TOKENS_ROOM) throw new Error(`its context of ${contextSize} tokens is too small to embed text`);
    // Non-causal (BERT-style) models must see a whole window in one batch: batch size = context size.
    const context = await model.createEmbeddingContext({ contextSize, batchSize: contextSize, threads: request.threads });
    const dims = model.embeddingVectorSize;
    loaded = { llama, model, context, dims, windowTokens: contextSize - ADDED_TOKENS_ROOM };
    const probe = await embedText('probe');
    if (!probe.every(Number.isFinite)) throw new Error('it produces non-finite values (NaN or infinity) for a simple text');
    send({ type: 'ready', dims, contextSize, trainContextSize: model.trainContextSize, windowTokens: loaded.windowTokens });
  } catch (error) {
    loaded = undefined;
    send({ type: 'load-error', message: describeLoadFailure(error, llamaErrors) });
  }
}

/** One pooled (not yet normalised) vector for a text of any length. */
async function embedText(text: string): Promise<Float32Array> {
  if (!loaded) throw new Error('No model is loaded.');
  const { model, context, dims, windowTokens } = loaded;
  // Special-token text in a note ("[CLS]", "<s>") is embedded as plain text, not as control tokens.
  let tokens: Token[] = model.tokenize(text, false);
  if (tokens.length === 0) {
    const marker = model.tokens.bos ?? model.tokens.eos;
    tokens = marker === null ? [] : [marker];
  }
  if (tokens.length === 0) return new Float32Array(dims);
  const windows = splitIntoWindows(tokens, windowTokens);
  const vectors: (readonly number[])[] = [];
  for (const window of windows) {
    const { vector } = await context.getEmbeddingFor(window);
    if (vector.length !== dims) throw new Error(`the model returned a ${vector.length}-dimensional vector instead of ${dims}`);
    vectors.push(vector);
  }
  return poolWindowVectors(vectors, windows.map((w) => w.length));
}

/**
 * Embed requests wait here. A query (a search waiting for its vector) goes before any batch
 * (background indexing), and a batch gives way to queries between its texts: behind a batch of
 * 16 chunks a large model would keep a search waiting for ~15 s (1 chunk/s on 2 cores).
 */
const queries: EmbedRequest[] = [];
const batches: Array<{ request: EmbedRequest; vectors: Float32Array[] }> = [];
let pumping = false;
let closing = false;

function enqueue(request: EmbedRequest): void {
  if (request.priority === 'query') queries.push(request);
  else batches.push({ request, vectors: [] });
  void pump();
}

/** Runs queued requests one text at a time until none is left (one context evaluates one window at a time anyway). */
async function pump(): Promise<void> {
  if (pumping) return;
  pumping = true;
  try {
    for (;;) {
      const query = queries.shift();
      if (query) {
        await embedAll(query);
        continue;
      }
      const batch = batches[0];
      if (!batch) break;
      const { request, vectors } = batch;
      try {
        if (vectors.length < request.texts.length) vectors.push(await embedText(request.texts[vectors.length]!));
        if (vectors.length === request.texts.length) {
          batches.shift();
          send({ type: 'result', id: request.id, vectors });
        }
      } catch (error) {
        batches.shift();
        send({ type: 'error', id: request.id, message: error instanceof Error ? error.message : String(error) });
      }
    }
  } finally {
    pumping = false;
  }
  if (closing) await disposeAndExit(loaded);
}

async function embedAll(request: EmbedRequest): Promise<void> {
  try {
    const vectors: Float32Array[] = [];
    for (const text of request.texts) vectors.push(await embedText(text));
    send({ type: 'result', id: request.id, vectors });
  } catch (error) {
    send({ type: 'error', id: request.id, message: error instanceof Error ? error.message : String(error) });
  }
}

// The host waits for `ready` before it asks for embeddings, and closes after its last answer.
process.on('message', (message: unknown) => {
  if (!isWorkerRequest(message)) return;
  switch (message.type) {
    case 'load':
      void load(message);
      return;
    case 'embed':
      enqueue(message);
      return;
    case 'close':
      closing = true;
      if (!pumping) void disposeAndExit(loaded);
      return;
  }
});
// The host went away (crashed or exited without closing us): do not linger.
process.on('disconnect', () => process.exit(0));
