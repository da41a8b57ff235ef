/**
 * The chat model process: a `child_process.fork` child that loads one GGUF chat model, answers
 * one prompt under the JSON-schema grammar the request carries, and exits. It is a separate process because
 * llama.cpp can abort (exit 134) on a malformed file, and a slow model must be killable.
 */
import type { GbnfJsonObjectSchema } from 'node-llama-cpp';
import { isGenerateRequest, type ChatWorkerMessage, type GenerateRequest } from './chatProtocol.js';

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

async function generate(request: GenerateRequest): Promise<ChatWorkerMessage> {
  const llamaErrors: string[] = [];
  try {
    const { getLlama, LlamaChatSession, LlamaLogLevel } = await import('node-llama-cpp');
    const llama = await getLlama({
      gpu: false,
      build: 'never',
      skipDownload: true,
      maxThreads: request.threads,
      logLevel: LlamaLogLevel.warn,
      logger: (level, message) => {
        if (level === LlamaLogLevel.error || level === LlamaLogLevel.fatal) llamaErrors.push(message);
      },
    });
    const model = await llama.loadModel({ modelPath: request.modelPath });
    const contextSize = Math.min(model.trainContextSize > 0 ? model.trainContextSize : request.maxContextSize, request.maxContextSize);
    const promptTokens = model.tokenize(request.prompt).length + TEMPLATE_TOKENS;
    const maxTokens = Math.min(request.maxTokens, contextSize - promptTokens);
    if (maxTokens < MIN_ANSWER_TOKENS) {
      return { type: 'failure', message: `the prompt (about ${promptTokens} tokens) does not fit the model's context of ${contextSize} tokens` };
    }
    const context = await model.createContext({ contextSize, threads: request.threads });
    // An invalid schema is the caller's bug: it fails here with node-llama-cpp's message.
    const grammar = await llama.createGrammarForJsonSchema<GbnfJsonObjectSchema>(request.schema as GbnfJsonObjectSchema);
    const session = new LlamaChatSession({ contextSequence: context.getSequence() });
    // Temperature 0: the same memory and candidates get the same answer.
    const { responseText, stopReason } = await session.promptWithMeta(request.prompt, { grammar, maxTokens, temperature: 0 });
    return { type: 'answer', raw: responseText, stopReason, maxTokens };
  } catch (error) {
    return { type: 'failure', message: describeFailure(error, llamaErrors) };
  }
}

process.once('message', (message: unknown) => {
  if (!isGenerateRequest(message)) return;
  void generate(message)
    .then(send)
    .finally(() => process.exit(0));
});
// The host went away: do not linger.
process.on('disconnect', () => process.exit(0));
