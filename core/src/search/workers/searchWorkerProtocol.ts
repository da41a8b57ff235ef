import type { SearchResult, SourceKind } from '../../contract/index.js';
import type Database from 'better-sqlite3';
import type { EmbeddingGeneration } from '../../embed/provider.js';
import type { VectorBackend } from '../../index/vectorStore.js';
import type { HybridSettings } from '../hybridSearch.js';

/** What a search worker is started with: the index it reads and how vectors are stored in it. */
export interface SearchWorkerData {
  indexPath: string;
  vectorBackend: VectorBackend;
  /** Work each worker does after a search's answer is sent; null: none. */
  afterSearch: AfterSearchModule | null;
}

/**
 * A module a worker loads to run after each search, off the search's path (dreaming resolves
 * which entries the results recalled there). The module exports `createAfterSearch`; what it
 * returns for a search travels back to the engine by structured clone.
 */
export interface AfterSearchModule {
  /** file: URL of the module. */
  url: string;
  /** Passed to `createAfterSearch` (structured-cloneable). */
  options: unknown;
}

/** The export an after-search module provides: called once per worker with its connection. */
export type CreateAfterSearch<After> = (db: Database.Database, options: unknown) => (query: string, results: readonly SearchResult[]) => After;

/**
 * Chunk results, and then what the after-search module made of them: worked out after the
 * answer is sent, so it never delays a search (rejects when the worker died before sending it).
 */
export interface WorkerSearchAnswer<After> {
  results: SearchResult[];
  after: Promise<After>;
}

export interface SearchRequest {
  query: string;
  limit: number;
  sources: readonly SourceKind[];
  /** Characters the snippets may use together (results packed to it); absent: whole results. */
  budget?: number;
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

/** A worker met a corruption error reading the index: the engine rebuilds it (an error without this is the worker's own). */
export interface IndexDamage {
  /** The SQLite code (SQLITE_CORRUPT, SQLITE_CORRUPT_VTAB, SQLITE_NOTADB…). */
  code: string;
}

/** Worker → engine. `embed` asks the engine for a query vector its model (outside the worker) computes. */
export type FromSearchWorker =
  | { type: 'ready' }
  | { type: 'failed'; message: string; damage?: IndexDamage }
  | { type: 'result'; id: number; results: SearchResult[] }
  | { type: 'after'; id: number; value: unknown }
  | { type: 'error'; id: number; message: string; damage?: IndexDamage }
  | { type: 'embed'; id: number; generation: EmbeddingGeneration; text: string };
