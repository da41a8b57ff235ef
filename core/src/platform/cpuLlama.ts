import type { Llama } from 'node-llama-cpp';

/**
 * llama.cpp as a model child process runs it: the CPU build (models load with `gpu: false`),
 * never downloaded or built at run time, `threads` from the host. Its error lines are collected
 * in `llamaErrors`: a load failure's message names the native error, not only "failed".
 */
export async function openCpuLlama(threads: number, llamaErrors: string[]): Promise<Llama> {
  const { getLlama, LlamaLogLevel } = await import('node-llama-cpp');
  return getLlama({
    gpu: false,
    build: 'never',
    skipDownload: true,
    maxThreads: threads,
    logLevel: LlamaLogLevel.warn,
    logger: (level, message) => {
      if (level === LlamaLogLevel.error || level === LlamaLogLevel.fatal) llamaErrors.push(message);
    },
  });
}
