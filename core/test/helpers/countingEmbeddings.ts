import { HashEmbeddingProvider } from '../../src/embed/hashProvider.js';
import type { EmbeddingGeneration, EmbeddingProvider } from '../../src/embed/provider.js';

/**
 * A model-like provider: the hash provider's vectors under a `llama` generation (so the index
 * stores and caches them as model vectors, 64 a batch), counting the texts it is asked to embed.
 */
export class CountingProvider implements EmbeddingProvider {
  readonly dims = 384;
  embedded: string[] = [];
  private readonly hash = new HashEmbeddingProvider();
  constructor(readonly generation: EmbeddingGeneration = { provider: 'llama', model: 'counting-test', dims: 384, preprocessing: 'test' }) {}
  async embedBatch(texts: readonly string[]): Promise<Float32Array[]> {
    this.embedded.push(...texts);
    return texts.map((t) => this.hash.embedSync(t));
  }
  async embedQuery(text: string): Promise<Float32Array> {
    return this.hash.embedSync(text);
  }
  async close(): Promise<void> {}
}
