import type { SearchResult, SourceKind } from '../../contract/index.js';
import type { RecalledEntry } from '../../dreaming/recall/recallRecorder.js';
import type { EmbeddingGeneration } from '../../embed/provider.js';
import type { VectorBackend } from '../../index/vectorStore.js';
import type { HybridSettings } from '../hybridSearch.js';

/** What a search worker is started with: the index it reads and how vectors are stored in it. */
export interface SearchWorkerData {
  indexPath: string;
  vectorBackend: VectorBackend;
  /** Where the notes are read from, to resolve which entries each result recalled (dreaming's signals). */
  workspaceRoot: string;
}

/** The entries that answered, by result id (results that are not recorded are absent). */
export type RecalledEntries = Record<string, RecalledEntry[]>;

/**
 * Chunk results, and then the entries each recalled: worked out after the answer is sent, so
 * dreaming's signals never delay a search (rejects when the worker died before sending them).
 */
export interface WorkerSearchAnswer {
  results: SearchResult[];
  recalled: Promise<RecalledEntries>;
}

export interface SearchRequest {
  query: string;
  limit: number;
  sources: readonly SourceKind[];
  settings: HybridSettings;
  /** The active embedding generation; null searches keywords only. */
  generation: EmbeddingGeneration | null;
  /** The engine's count of its changes to the index: when it moves, the worker's caches refresh at once. */
  indexChanges: number;
}

/** Engine → worker. */
export type ToSearchWorker =
  | { type: 'search'; id: number; request: SearchRequest }
  | { type: 'embedded'; id: number; vector: Float32Array }
  | { type: 'embed-failed'; id: number; message: string };

/** Worker → engine. `embed` asks the engine for a query vector its model (outside the worker) computes. */
export type FromSearchWorker =
  | { type: 'ready' }
  | { type: 'failed'; message: string }
  | { type: 'result'; id: number; results: SearchResult[] }
  | { type: 'recalled'; id: number; recalled: RecalledEntries }
  | { type: 'error'; id: number; message: string }
  | { type: 'embed'; id: number; generation: EmbeddingGeneration; text: string };
