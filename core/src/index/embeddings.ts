import type Database from 'better-sqlite3';
import type { EngineEvent, StatusOutput, SyncReport } from '../contract/index.js';
import { HashEmbeddingProvider } from '../embed/hashProvider.js';
import { LlamaEmbeddingProvider } from '../embed/llama/llamaEmbeddingProvider.js';
import { generationId, type EmbeddingProvider } from '../embed/provider.js';
import type { ModelStore } from '../models/modelStore.js';
import type { Logger } from '../platform/log/logger.js';
import type { Notices } from '../platform/notices.js';
import { isCorruptionError } from '../platform/sqliteSchema.js';
import { embedPendingChunks } from './embedSync.js';
import type { ChunkVectorSink } from './sync.js';
import type { IndexStore } from './indexStore.js';
import { VectorStore, type VectorBackend } from './vectorStore.js';

export interface EmbeddingsOptions {
  models: Pick<ModelStore, 'activeModel'>;
  notices: Notices;
  logger: Logger;
  emit(event: EngineEvent): void;
  /** The engine is closing: embedding stops between batches. */
  isClosing(): boolean;
  /** The index is read as it is (IndexServiceOptions.readOnly): a generation's vectors are read when they exist, never created. */
  readOnly?: boolean;
}

/**
 * The active embedding provider (the installed embedding model, or the hash provider when none
 * is) and the vector store of its generation in the index. Search reads `provider` and
 * `vectors`; a sync fills the vectors of new chunks with `embedPending`.
 */
export class Embeddings {
  provider: EmbeddingProvider = new HashEmbeddingProvider();
  vectors: VectorStore | null = null;
  vectorBackend: VectorBackend = 'scan';
  private vectorProblem: string | null = null;
  private db!: Database.Database;
  private providerChosen = false;
  private embedState: { running: boolean; error: string | null } = { running: false, error: null };

  constructor(private readonly options: EmbeddingsOptions) {}

  /** The index was (re)opened: vectors are read and written through its connection. */
  attach(store: IndexStore, vectorBackend: VectorBackend, vectorProblem: string | null): void {
    this.db = store.db;
    this.vectorBackend = vectorBackend;
    this.vectorProblem = vectorProblem;
    this.vectors = this.vectorStoreOf(this.provider.generation);
  }

  private vectorStoreOf(generation: EmbeddingProvider['generation']): VectorStore | null {
    if (this.options.readOnly) return VectorStore.openExisting(this.db, generation, this.vectorBackend);
    return new VectorStore(this.db, generation, this.vectorBackend);
  }

  /** The active embedding model may have changed: the next `ensureProvider` chooses again. */
  chooseAgain(): void {
    this.providerChosen = false;
  }

  /** Picks the provider for the active embedding model once (hash until then). */
  async ensureProvider(): Promise<void> {
    if (this.providerChosen) return;
    this.providerChosen = true;
    const next = await this.createProvider();
    if (generationId(next.generation) === generationId(this.provider.generation)) {
      await next.close();
      return;
    }
    const previous = this.provider;
    this.provider = next;
    this.vectors = this.vectorStoreOf(next.generation);
    await previous.close();
  }

  private async createProvider(): Promise<EmbeddingProvider> {
    const model = this.options.models.activeModel('embedding');
    if (!model || !model.present) return new HashEmbeddingProvider();
    try {
      return await LlamaEmbeddingProvider.open({ modelPath: model.path, modelId: model.sha256.slice(0, 16) });
    } catch (error) {
      this.options.notices.push(`The embedding model ${model.file} could not be used (${(error as Error).message}); using the built-in hash embeddings instead.`);
      this.options.logger.warn('The embedding model could not be opened; using hash embeddings', { model: model.file, error });
      return new HashEmbeddingProvider();
    }
  }

  /**
   * Where a sync may store hash vectors computed with the chunks (sync.ts's ChunkVectorSink): only
   * for the hash provider, and only while every chunk has its vector (otherwise embedPending, which
   * works in chunk order, catches up first).
   */
  hashVectorSink(): ChunkVectorSink | null {
    const vectors = this.vectors;
    if (this.options.readOnly || !vectors || !(this.provider instanceof HashEmbeddingProvider) || !vectors.isEveryChunkEmbedded()) return null;
    return { dims: this.provider.dims, put: (id, vector) => vectors.put(id, vector) };
  }

  /** Vectors for new chunks in the active generation; keyword search works meanwhile. */
  async embedPending(): Promise<NonNullable<SyncReport['embedding']>> {
    const vectors = this.vectors;
    const closing = () => this.options.isClosing();
    const result: NonNullable<SyncReport['embedding']> = {
      provider: this.provider.generation.provider,
      generation: vectors?.id ?? '',
      embedded: 0,
      fromCache: 0,
      durationMs: 0,
      error: null,
    };
    if (!vectors) return result;
    this.embedState.running = true;
    try {
      const done = await embedPendingChunks(this.db, vectors, this.provider, {
        onProgress: (p) => this.options.emit({ type: 'index-progress', ...p }),
        shouldStop: closing,
        // A model generation that grows large gets (or renews) its cells for whole-index KNN as it
        // goes, not hours later when re-embedding ends; searches go on meanwhile.
        afterBatch: () => vectors.maintainCells(closing),
      });
      Object.assign(result, { embedded: done.embedded, fromCache: done.fromCache, durationMs: done.durationMs });
      // Vectors stored by an earlier version, or a batch cut short by a stop.
      if (!closing()) await vectors.maintainCells(closing);
      this.embedState.error = null;
    } catch (error) {
      // A damaged index is the sync's to rebuild, not an embedding problem to carry on past.
      if (isCorruptionError(error)) throw error;
      // Embedding problems never take keyword search down: report and carry on.
      this.embedState.error = (error as Error).message;
      this.options.logger.warn('Embedding failed; keyword search keeps working', { error });
      result.error = this.embedState.error;
    } finally {
      this.embedState.running = false;
    }
    return result;
  }

  /** The `embedding` part of `status`; `total` is the index's chunk count. */
  describe(total: number): StatusOutput['embedding'] {
    return {
      provider: this.provider.generation.provider,
      model: this.provider.generation.model,
      dims: this.provider.dims,
      generation: this.vectors?.id ?? null,
      vectorBackend: this.vectorBackend,
      vectorBackendProblem: this.vectorProblem,
      knn: this.vectors?.knnMode() ?? { mode: 'off', reason: 'no vectors yet' },
      embedded: this.vectors?.embeddedCount() ?? 0,
      total,
      running: this.embedState.running,
      lastError: this.embedState.error,
    };
  }

  close(): Promise<void> {
    return this.provider.close();
  }
}
