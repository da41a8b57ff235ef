/**
 * A search worker thread: its own read-only connection to the index, the same hybrid search
 * as the engine thread. The engine keeps writing (WAL); every search reads a committed snapshot.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type Database from 'better-sqlite3';
import { openSqlite } from '../../platform/sqliteDriver.js';
import { HashEmbeddingProvider } from '../../embed/hashProvider.js';
import { generationId, type EmbeddingGeneration, type EmbeddingProvider } from '../../embed/provider.js';
import { loadVectorExtension, VectorStore } from '../../index/vectorStore.js';
import { registerChunkText } from '../../index/chunkText.js';
import { HybridSearcher, DEFAULT_HYBRID, type HybridSettings } from '../hybridSearch.js';
import { KeywordSearcher } from '../keywordSearch.js';
import { errnoCode } from '../../platform/errors.js';
import { isCorruptionError } from '../../platform/sqliteSchema.js';
import type { CreateAfterSearch, FromSearchWorker, IndexDamage, SearchRequest, SearchWorkerData, ToSearchWorker } from './searchWorkerProtocol.js';

const port = parentPort!;
const post = (message: FromSearchWorker): void => port.postMessage(message);

const waitingEmbeds = new Map<number, { resolve(v: Float32Array): void; reject(e: Error): void }>();
let nextEmbedId = 1;

/** Query vectors of a model the engine runs (llama, outside this thread): asked for over the port. */
class EngineEmbeddings implements EmbeddingProvider {
  constructor(readonly generation: EmbeddingGeneration) {}
  get dims(): number {
    return this.generation.dims;
  }
  embedBatch(): Promise<Float32Array[]> {
    return Promise.reject(new Error('Search workers embed queries only.'));
  }
  embedQuery(text: string): Promise<Float32Array> {
    const id = nextEmbedId++;
    return new Promise((resolve, reject) => {
      waitingEmbeds.set(id, { resolve, reject });
      post({ type: 'embed', id, generation: this.generation, text });
    });
  }
  async close(): Promise<void> {}
}

function open(data: SearchWorkerData): Database.Database {
  const db = openSqlite(data.indexPath, { readonly: true, fileMustExist: true, timeout: 10_000 });
  registerChunkText(db);
  if (data.vectorBackend === 'sqlite-vec') {
    const loaded = loadVectorExtension(db);
    if (loaded.problem) throw new Error(loaded.problem);
  }
  db.pragma('cache_size = -16000');
  return db;
}

/** This connection reads only the index: a corruption error here is the index's damage, reported as such. */
function damageOf(error: unknown): IndexDamage | undefined {
  return isCorruptionError(error) ? { code: errnoCode(error)! } : undefined;
}

const data = workerData as SearchWorkerData;
let db: Database.Database;
try {
  db = open(data);
} catch (error) {
  post({ type: 'failed', message: (error as Error).message, damage: damageOf(error) });
  process.exit(1);
}

let settings: HybridSettings = DEFAULT_HYBRID;
let active: { store: VectorStore; provider: EmbeddingProvider } | null = null;

/** The vectors of the request's generation, opened once; none until the engine has created them. */
function useGeneration(generation: EmbeddingGeneration | null): void {
  if (!generation) {
    active = null;
    return;
  }
  const id = generationId(generation);
  if (active && active.store.id === id) return;
  const store = VectorStore.openExisting(db, generation, data.vectorBackend);
  if (!store) {
    active = null;
    return;
  }
  let provider: EmbeddingProvider;
  const hash = generation.provider === 'hash' ? new HashEmbeddingProvider(generation.dims) : null;
  if (hash && generationId(hash.generation) === id) provider = hash;
  else provider = new EngineEmbeddings(generation);
  active = { store, provider };
}

const keyword = new KeywordSearcher(db);
const hybrid = new HybridSearcher(db, keyword, () => active, () => settings);
// Work that follows every search (dreaming's recall resolution) runs here, in parallel, after the
// answer is sent: the engine thread only writes what it returns.
const afterSearch = data.afterSearch
  ? ((await import(data.afterSearch.url)) as { createAfterSearch: CreateAfterSearch<unknown> }).createAfterSearch(db, data.afterSearch.options)
  : null;

let seenIndexChanges = -1;

/** Posts the results, then what the after-search module made of them (off the search's path). */
async function search(id: number, request: SearchRequest): Promise<void> {
  settings = request.settings;
  // Other connections' writes are looked at once a second; a change the engine finished is seen now.
  if (request.indexChanges !== seenIndexChanges) keyword.invalidate();
  seenIndexChanges = request.indexChanges;
  useGeneration(request.generation);
  const results = await hybrid.search({ query: request.query, limit: request.limit, sources: request.sources, budget: request.budget });
  post({ type: 'result', id, results });
  // Sent even without a module: it settles the search on the engine side.
  post({ type: 'after', id, value: afterSearch ? afterSearch(request.query, results) : null });
}

// One search at a time, in arrival order: a search sets the settings and generation it runs with.
let queue: Promise<void> = Promise.resolve();

port.on('message', (message: ToSearchWorker) => {
  if (message.type === 'search') {
    queue = queue.then(() =>
      search(message.id, message.request).catch((error: unknown) => post({ type: 'error', id: message.id, message: (error as Error).message, damage: damageOf(error) })),
    );
    return;
  }
  const waiter = waitingEmbeds.get(message.id);
  waitingEmbeds.delete(message.id);
  if (message.type === 'embedded') waiter?.resolve(message.vector);
  else waiter?.reject(new Error(message.message));
});
post({ type: 'ready' });
