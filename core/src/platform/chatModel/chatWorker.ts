/**
 * The chat model process: a `child_process.fork` child that loads one GGUF chat model once and
 * answers prompts, one at a time, each under the JSON-schema grammar it carries, until the host
 * closes it. It is a separate process because llama.cpp can abort (exit 134) on a malformed
 * file, and a slow model must be killable.
 */
import type { GbnfJsonObjectSchema, Llama, LlamaContext, LlamaContextSequence, LlamaModel } from 'node-llama-cpp';
import { isCloseRequest, isGenerateRequest, type ChatWorkerMessage, type GenerateRequest } from './chatProtocol.js';
import { openCpuLlama } from '../cpuLlama.js';
import { disposeAndExit } from '../llamaChildExit.js';

/** Prompt tokens must leave at least this many for the answer, or the model cannot answer. */
const MIN_ANSWER_TOKENS = 32;
/** Room for the chat template's own tokens around the prompt. */
const TEMPLATE_TOKENS = 64;

function send(message: ChatWorkerMessage): Promise<void> {
  return new Promise((resolve) => {
    if (!process.send) return resolve();
    process.send(message, () => resolve());
  });
}

/** The most specific llama.cpp error line, else the thrown message. */
function describeFailure(error: unknown, llamaErrors: readonly string[]): string {
  const marker = 'error loading model: ';
  const detailed = llamaErrors.filter((line) => line.includes(marker)).at(-1);
  if (detailed) return detailed.slice(detailed.lastIndexOf(marker) + marker.length).trim();
  return error instanceof Error ? error.message : String(error);
}

interface LoadedChatModel {
  llama: Llama;
  model: LlamaModel;
  context: LlamaContext;
  sequence: LlamaContextSequence;
  modelPath: string;
  llamaErrors: string[];
}

let loaded: LoadedChatModel | null = null;

/** The model and one context for every prompt (loading is most of a small prompt's time). */
async function load(request: GenerateRequest): Promise<LoadedChatModel> {
  const llamaErrors: string[] = [];
  try {
    const llama = await openCpuLlama(request.threads, llamaErrors);
    const model = await llama.loadModel({ modelPath: request.modelPath });
    const contextSize = Math.min(model.trainContextSize > 0 ? model.trainContextSize : request.maxContextSize, request.maxContextSize);
    const context = await model.createContext({ contextSize, threads: request.threads });
    return { llama, model, context, sequence: context.getSequence(), modelPath: request.modelPath, llamaErrors };
  } catch (error) {
    throw new LoadFailure(describeFailure(error, llamaErrors));
  }
}

class LoadFailure extends Error {}

async function generate(request: GenerateRequest): Promise<ChatWorkerMessage> {
  const id = request.id;
  try {
    loaded ??= await load(request);
    if (loaded.modelPath !== request.modelPath) return { type: 'failure', id, message: `this process holds ${loaded.modelPath}, not ${request.modelPath}` };
    const { llama, model, context, sequence } = loaded;
    const { LlamaChatSession } = await import('node-llama-cpp');
    const promptTokens = model.tokenize(request.prompt).length + TEMPLATE_TOKENS;
    const room = context.contextSize - promptTokens;
    if (room < MIN_ANSWER_TOKENS) {
      return { type: 'failure', id, message: `the prompt (about ${promptTokens} tokens) does not fit the model's context of ${context.contextSize} tokens` };
    }
    const maxTokens = Math.min(request.maxTokens, room);
    // An invalid schema is the caller's bug: it fails here with node-llama-cpp's message.
    const grammar = await llama.createGrammarForJsonSchema<GbnfJsonObjectSchema>(request.schema as GbnfJsonObjectSchema);
    // Each prompt starts from an empty history: answers never depend on the prompts before them.
    await sequence.clearHistory();
    const session = new LlamaChatSession({ contextSequence: sequence });
    try {
      // Temperature 0: the same memory and candidates get the same answer.
      const { responseText, stopReason } = await session.promptWithMeta(request.prompt, { grammar, maxTokens, temperature: 0 });
      return { type: 'answer', id, raw: responseText, stopReason, maxTokens };
    } finally {
      session.dispose({ disposeSequence: false });
    }
  } catch (error) {
    if (error instanceof LoadFailure) return { type: 'failure', id, message: error.message, fatal: true };
    return { type: 'failure', id, message: describeFailure(error, loaded?.llamaErrors ?? []) };
  }
}

// Prompts run one at a time, in arrival order; a model that cannot load ends the process.
let queue: Promise<unknown> = Promise.resolve();
process.on('message', (message: unknown) => {
  if (isGenerateRequest(message)) {
    queue = queue.then(async () => {
      const answer = await generate(message);
      await send(answer);
      if (answer.type === 'failure' && answer.fatal) process.exit(0);
    });
  } else if (isCloseRequest(message)) {
    queue = queue.then(() => disposeAndExit(loaded));
  }
});
// The host went away: do not linger.
process.on('disconnect', () => process.exit(0));
