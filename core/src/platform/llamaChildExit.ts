/** What a llama.cpp child process holds, freed in order: the context, the model, the runtime. */
export interface LlamaHoldings {
  context: { dispose(): Promise<void> };
  model: { dispose(): Promise<void> };
  llama: { dispose(): Promise<void> };
}

/** A model process closing on the host's request: frees what it holds, then exits 0 whatever happens. */
export async function disposeAndExit(held: LlamaHoldings | null | undefined): Promise<never> {
  try {
    await held?.context.dispose();
    await held?.model.dispose();
    await held?.llama.dispose();
  } finally {
    process.exit(0);
  }
}
