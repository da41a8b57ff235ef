/**
 * `search_p95_ms_hybrid_100k` with 768-dimensional model vectors, measured without a
 * downloadable 768-dim model (issue 3).
 *
 * What is real:
 *  - the embedding model process: a BERT GGUF written here (768 dims, 12 heads, Q8_0 weights
 *    like the default model's QAT Q8_0 file, random but seeded), installed with `models.pull
 *    <path> --role embedding` as a person would, and run by the product's LlamaEmbeddingProvider
 *    (child process, default thread count). By default it has 24 layers with FFN 1152, so a
 *    token costs about what it costs in embeddinggemma-300m (see EMBEDDINGGEMMA_SIZED), and its
 *    vocabulary is built from the corpus (real words whole, coined words in syllables), so
 *    queries and chunks have realistic token counts. Query embedding is most of the time: a
 *    1-2 layer model would understate it several-fold;
 *  - the index: the synthetic workspace of synthetic.ts (same generator and questions), indexed
 *    by the engine;
 *  - the vector store: the generation's floats table and bit[768] vec0 table, written through
 *    VectorStore.put (the calls embedPendingChunks makes);
 *  - search: `memory.search` through MemoryService.invoke (query embedding in the model process,
 *    then the hybrid path on 768-dim vectors);
 *  - the embedding throughput: an evenly spread sample of chunks is left without vectors and
 *    embedded by the engine's own sync (embedPendingChunks → the model process).
 *
 * What is synthetic: every other chunk's vector (deterministic pseudo-random unit vectors
 * around 300 subjects of 20 matters each, see SyntheticVectors). Above 50k
 * vectors the whole-index KNN runs inside the nearest vector cells (vectorCells.ts): their
 * build is timed, and their KNN is compared with one KNN over every vector, in time and in
 * recall of the exact top 20 for queries drawn like the vectors. The search results' quality
 * is not measured (random weights, synthetic vectors).
 *
 * Also measured: the query embedding alone (a second model process, same provider class and
 * settings), and a control run of the same questions on the same index with the built-in hash
 * provider (its vectors are built with the index), so both figures share the machine's load.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { SearchResult } from '../../core/src/contract/index.js';
import { LLAMA_PREPROCESSING, LlamaEmbeddingProvider, resolveThreadCount } from '../../core/src/embed/llama/llamaEmbeddingProvider.js';
import { generationId, type EmbeddingGeneration, type EmbeddingProvider } from '../../core/src/embed/provider.js';
import { openIndexDatabase } from '../../core/src/index/database.js';
import { blobToFloats, dot, VectorStore } from '../../core/src/index/vectorStore.js';
import { ModelStore } from '../../core/src/models/modelStore.js';
import { BenchEngine, makeTempWorkspace, removeTempWorkspace, type BenchWorkspace } from './engine.js';
import { writeProxyBertGguf, type ProxyModelOptions } from './proxyBertGguf.js';
import { log, percentile, round } from './stats.js';
import { SyntheticCorpus, makeQuestions } from './synthetic.js';
import { SyntheticVectors, VECTORS_SEED } from './syntheticVectors.js';

// ---------------------------------------------------------------------------------------------
// The benchmark.

/**
 * embeddinggemma-300m's transformer is 24 layers, hidden 768, FFN 1152 (gated), 3 heads of 256:
 * ~4.2M weights per layer. A BERT layer with FFN 1152 has ~4.1M, so 24 of them cost about the
 * same per token (its 262k-token embedding table is a row lookup, not compute). Context 1024:
 * the provider evaluates min(1024, training context) tokens at once, as with the default model.
 */
export const EMBEDDINGGEMMA_SIZED: Omit<ProxyModelOptions, 'seed'> = {
  embeddingLength: 768,
  blockCount: 24,
  feedForwardLength: 1152,
  headCount: 12,
  contextLength: 1024,
  weights: 'q8_0',
};

/** The syllables synthetic.ts's lexicon coins words from (lexicon.ts does not export them). */
const SYLLABLES = `ka lo mi ven tor rus pel an dri qua zel mor fin bel tas sor vin gal cor ith dun ser pra lum nox
ber cal dor em fal gor hal isk jor kel lan mar nel ost pir quil ras sal tem ul var wen xan yor zim
bra cle dro fla gri plo sna tri vel zor ark eth ond umb ilt ask orn`.split(/\s+/);
const COINED_SUFFIXES = ['ctl', 'd', 'db', 'sync', 'io', 'kit'];
const COINED = new RegExp(`^(?:${SYLLABLES.join('|')}){2,}(?:${COINED_SUFFIXES.join('|')})?$`);

/**
 * A WordPiece vocabulary for the corpus, so token counts are realistic: every real word of the
 * notes and questions is one token (as in a large vocabulary), coined words split into their
 * syllables (2-4 pieces, as a real tokenizer splits unknown names), digits and punctuation alone.
 */
export function corpusVocabulary(corpus: SyntheticCorpus, sampleNotes = 300): string[] {
  const texts: string[] = [];
  for (let i = 0; i < sampleNotes; i++) texts.push(corpus.note(i).text);
  for (const seed of [777, 4242]) for (const q of makeQuestions(corpus, seed)) texts.push(q.query);
  const L = corpus.lex;
  texts.push(...L.people, ...L.places, ...L.tools, ...L.nouns, ...L.adjectives, ...L.topics, ...L.weekdays, ...L.times);
  for (const v of L.verbs) texts.push(v.base, v.past);
  const words = new Set<string>();
  for (const t of texts) for (const w of t.toLowerCase().match(/[a-z]+/g) ?? []) if (!COINED.test(w)) words.add(w);
  const pieces: string[] = [];
  for (const c of 'abcdefghijklmnopqrstuvwxyz0123456789') pieces.push(`▁${c}`, c);
  for (const c of `.,!?'":;-()/[]{}<>=+*#_\`|&%$@~—–…`) pieces.push(`▁${c}`);
  for (const syl of SYLLABLES) pieces.push(`▁${syl}`, syl);
  pieces.push(...COINED_SUFFIXES);
  for (const w of [...words].sort()) pieces.push(`▁${w}`);
  return [...new Set(pieces)];
}

export interface Vectors768Options {
  /** Chunks in the index (default 100k, quick 10k). */
  targetChunks?: number;
  /** The embedding model's shape (default EMBEDDINGGEMMA_SIZED). */
  model?: Partial<Omit<ProxyModelOptions, 'seed'>>;
  /** Chunks the model embeds through the engine's sync, for the throughput figure. */
  sampleChunks?: number;
  /** Share of synthetic.ts's 320 questions to ask (default 1, quick 0.25). */
  questionScale?: number;
  warmupQueries?: number;
}

const MB = 1024 * 1024;
/** hybridSearch.ts: above this many vectors the KNN is skipped and vectors only re-score keyword candidates. */
/** The k the hybrid searcher asks the vector store for (max(VECTOR_CANDIDATES, limit * 2) with limit 10). */
const KNN_K = 20;
const RECALL_QUERIES = 50;
const FILL_BATCH = 2_000;

function summary(values: readonly number[]): { p50: number; p95: number; p99: number; max: number; mean: number } {
  const mean = values.reduce((a, b) => a + b, 0) / Math.max(1, values.length);
  return {
    p50: round(percentile(values, 50), 2),
    p95: round(percentile(values, 95), 2),
    p99: round(percentile(values, 99), 2),
    max: round(Math.max(...values), 2),
    mean: round(mean, 2),
  };
}

function processRssMb(pid: number | undefined): number {
  if (pid === undefined) return Number.NaN;
  try {
    const m = /VmRSS:\s+(\d+)\s+kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? round(Number(m[1]) / 1024, 1) : Number.NaN;
  } catch {
    return Number.NaN;
  }
}

/**
 * Times every query embedding the engine makes, by wrapping its current provider's embedQuery
 * (bench instrumentation: MemoryService keeps the provider private). False when not possible.
 */
function timeEmbedQueries(engine: BenchEngine, into: number[]): boolean {
  // MemoryService → IndexService → Embeddings: the active provider (kept private by the engine).
  const embeddings: unknown = Reflect.get(Reflect.get(engine.service, 'index') as object, 'embeddings');
  const provider = Reflect.get(embeddings as object, 'provider') as EmbeddingProvider | undefined;
  if (!provider || provider.generation.provider !== 'llama' || typeof provider.embedQuery !== 'function') return false;
  const embedQuery = provider.embedQuery.bind(provider);
  provider.embedQuery = async (text: string): Promise<Float32Array> => {
    const t = performance.now();
    try {
      return await embedQuery(text);
    } finally {
      into.push(performance.now() - t);
    }
  };
  return true;
}

interface SearchPass {
  wall: number[];
  took: number[];
  results: number;
  /** Results whose score breakdown has a vector similarity (vectors re-scored them). */
  vectorScored: number;
  /** Results the KNN found. */
  vectorMatched: number;
}

/** Asks every question through memory.search; `flushBetween` writes the recall signals between searches, untimed. */
async function searchAll(engine: BenchEngine, questions: ReadonlyArray<{ query: string }>, flushBetween: boolean): Promise<SearchPass> {
  const pass: SearchPass = { wall: [], took: [], results: 0, vectorScored: 0, vectorMatched: 0 };
  for (const q of questions) {
    const r = await engine.search(q.query, 10);
    pass.wall.push(r.wallMs);
    pass.took.push(r.tookMs);
    pass.results += r.results.length;
    pass.vectorScored += r.results.filter((x: SearchResult) => (x.breakdown?.vector ?? 0) > 0).length;
    pass.vectorMatched += r.results.filter((x: SearchResult) => x.matchedBy.includes('vector')).length;
    if (flushBetween) engine.service.dreams.recorder.flush();
  }
  return pass;
}

/** Writes and indexes the synthetic corpus until the index holds `targetChunks` chunks (hash provider: no model yet). */
async function buildIndex(engine: BenchEngine, corpus: SyntheticCorpus, targetChunks: number): Promise<{ files: number; chunks: number; seconds: number }> {
  const started = performance.now();
  corpus.writeRootFiles();
  corpus.writeNotes(Math.max(20, Math.round(targetChunks / 10)));
  let report = (await engine.sync()).report;
  while (report.chunks < targetChunks) {
    const perFile = report.chunks / Math.max(1, report.files);
    const add = Math.max(10, Math.ceil(((targetChunks - report.chunks) / perFile) * 1.02));
    log(`  growing: +${add} notes (index has ${report.chunks} chunks, target ${targetChunks})`);
    corpus.writeNotes(add);
    report = (await engine.sync()).report;
  }
  return { files: report.files, chunks: report.chunks, seconds: (performance.now() - started) / 1000 };
}

/**
 * Gives every chunk except the newest `sampleChunks` a synthetic vector in `generation`, through
 * VectorStore.put (the calls embedPendingChunks makes); the sample stays pending for the model.
 * The newest, because the engine embeds in id order: pending chunks are always the newest ones
 * (a no-op pass only asks whether the newest chunk has a vector, index/vectorStore.ts).
 */
async function fillSyntheticVectors(
  indexPath: string,
  generation: EmbeddingGeneration,
  sampleChunks: number,
): Promise<{ filled: number; sample: number; sampleChars: number; seconds: number; backend: string; cellsSeconds: number; cells: string }> {
  const started = performance.now();
  const opened = openIndexDatabase(indexPath);
  try {
    const store = new VectorStore(opened.db, generation, opened.vectorBackend);
    const ids = (opened.db.prepare('SELECT id FROM chunks ORDER BY id').all() as Array<{ id: number }>).map((r) => r.id);
    const pending = new Set<number>(ids.slice(Math.max(0, ids.length - sampleChunks)));
    const synthetic = new SyntheticVectors(VECTORS_SEED, generation.dims);
    let filled = 0;
    for (let start = 0; start < ids.length; start += FILL_BATCH) {
      const batch = ids.slice(start, start + FILL_BATCH).filter((id) => !pending.has(id));
      opened.db.transaction(() => {
        for (const id of batch) store.put(id, synthetic.next());
      }).immediate();
      filled += batch.length;
    }
    // The cells the engine builds after embedding once a model generation passes 40k vectors.
    const cellsStarted = performance.now();
    const cellsResult = await store.maintainCells();
    const cellsSeconds = (performance.now() - cellsStarted) / 1000;
    const cellsRow = opened.db.prepare('SELECT cells FROM vector_cells').get() as { cells: number } | undefined;
    const cells = `${cellsResult}${cellsRow ? `, ${cellsRow.cells} cells` : ''}`;
    const textOf = opened.db.prepare<[number], { n: number }>('SELECT length(text) AS n FROM chunks WHERE id = ?');
    let sampleChars = 0;
    for (const id of pending) sampleChars += textOf.get(id)?.n ?? 0;
    return { filled, sample: pending.size, sampleChars: sampleChars / Math.max(1, pending.size), seconds: (performance.now() - started) / 1000, backend: opened.vectorBackend, cellsSeconds, cells };
  } finally {
    opened.db.close();
  }
}

/**
 * KNN alone for the model's query vectors, through the cells (as memory.search does at this
 * size) and through one KNN over every vector; and each one's recall of the exact top KNN_K for
 * queries drawn like the synthetic vectors (the model's own queries have no exact neighbours
 * among synthetic vectors worth comparing).
 */
function timeKnn(
  indexPath: string,
  generation: EmbeddingGeneration,
  queries: readonly Float32Array[],
): { cells: number[]; flat: number[]; mode: string; cellsRecall: number; flatRecall: number } {
  const opened = openIndexDatabase(indexPath, { readonly: true });
  try {
    const store = VectorStore.openExisting(opened.db, generation, opened.vectorBackend)!;
    const flat = VectorStore.openExisting(opened.db, generation, opened.vectorBackend, { flatMax: Infinity, cellsFrom: Infinity })!;
    const time = (s: VectorStore): number[] => {
      for (const q of queries.slice(0, 5)) s.knn(q, KNN_K); // warm the statement and the page cache
      return queries.map((q) => {
        const t = performance.now();
        s.knn(q, KNN_K);
        return performance.now() - t;
      });
    };
    const cells = time(store);
    const flatMs = time(flat);
    // Exact top KNN_K by a scan of every float vector, for drawn queries.
    const drawn = new SyntheticVectors(VECTORS_SEED, generation.dims, 4_242);
    const probes = Array.from({ length: RECALL_QUERIES }, () => drawn.next());
    const exact = probes.map(() => [] as Array<{ id: number; s: number }>);
    for (const row of opened.db.prepare(`SELECT chunk_id, vector FROM vectors_${store.key}`).iterate() as Iterable<{ chunk_id: number; vector: Buffer }>) {
      const v = blobToFloats(row.vector);
      probes.forEach((q, i) => {
        const top = exact[i]!;
        const s = dot(q, v);
        if (top.length < KNN_K || s > top[top.length - 1]!.s) {
          top.push({ id: row.chunk_id, s });
          top.sort((a, b) => b.s - a.s);
          if (top.length > KNN_K) top.pop();
        }
      });
    }
    const recall = (s: VectorStore): number => {
      let found = 0;
      probes.forEach((q, i) => {
        const want = new Set(exact[i]!.map((e) => e.id));
        found += (s.knn(q, KNN_K) ?? []).filter((h) => want.has(h.chunkId)).length;
      });
      return found / (KNN_K * probes.length);
    };
    return { cells, flat: flatMs, mode: store.knnMode().mode, cellsRecall: recall(store), flatRecall: recall(flat) };
  } finally {
    opened.db.close();
  }
}

/**
 * Hybrid search p50/p95 at 100k chunks (quick: 10k) with 768-dim model vectors: the model
 * process embeds every query, the vector side works on 768-dim vectors. See the file comment
 * for what is real and what is synthetic.
 */
export async function runVectors768Bench(quick: boolean, options: Vectors768Options = {}): Promise<Record<string, number | string>> {
  const started = performance.now();
  const loadStart = os.loadavg()[0]!;
  const targetChunks = options.targetChunks ?? (quick ? 10_000 : 100_000);
  const sampleChunks = options.sampleChunks ?? (quick ? 6 : 24);
  const questionScale = options.questionScale ?? (quick ? 0.25 : 1);
  const warmupCount = options.warmupQueries ?? (quick ? 5 : 20);
  const shape: ProxyModelOptions = { ...EMBEDDINGGEMMA_SIZED, ...options.model, seed: 20_768 };
  const ws: BenchWorkspace = makeTempWorkspace('vectors768');
  let engine: BenchEngine | null = null;
  let probe: LlamaEmbeddingProvider | null = null;
  try {
    // 1. The corpus and its keyword index (the engine starts on the hash provider: no model yet).
    log(`Vectors768: indexing a synthetic workspace of ~${targetChunks} chunks in ${ws.workspace}`);
    const corpus = new SyntheticCorpus(ws.workspace);
    engine = new BenchEngine(ws);
    const built = await buildIndex(engine, corpus, targetChunks);
    log(`  ${built.files} files, ${built.chunks} chunks in ${built.seconds.toFixed(1)} s`);

    // 2. The model: written, then installed as a person would (models.pull <path> --role embedding).
    const vocabulary = corpusVocabulary(corpus);
    const modelSource = path.join(ws.root, 'model-src', `bench-bert-e${shape.embeddingLength}-l${shape.blockCount}.gguf`);
    fs.mkdirSync(path.dirname(modelSource), { recursive: true });
    let t = performance.now();
    const modelBytes = writeProxyBertGguf(modelSource, vocabulary, shape);
    const modelWriteS = (performance.now() - t) / 1000;
    const installed = await engine.service.invoke('models.pull', { uri: modelSource, role: 'embedding' });
    fs.rmSync(path.dirname(modelSource), { recursive: true, force: true });
    const { active } = await engine.service.invoke('models.list', {});
    if (active.embedding !== installed.id) throw new Error(`models.pull did not make ${installed.id} the active embedding model`);
    log(`  model ${installed.id}: ${(modelBytes / MB).toFixed(1)} MB (${shape.blockCount} layers, ${shape.weights}), ${vocabulary.length + 5} tokens, written in ${modelWriteS.toFixed(1)} s`);
    const indexPath = engine.service.indexPath;
    await engine.close();
    engine = null;

    // 3. Synthetic vectors in the generation the engine computes for this model, except for a sample.
    const generation: EmbeddingGeneration = { provider: 'llama', model: installed.sha256.slice(0, 16), dims: shape.embeddingLength, preprocessing: LLAMA_PREPROCESSING };
    const fill = await fillSyntheticVectors(indexPath, generation, sampleChunks);
    log(
      `  ${fill.filled} synthetic ${generation.dims}-dim vectors (${fill.backend}) in ${fill.seconds.toFixed(1)} s, of which vector cells ${fill.cellsSeconds.toFixed(1)} s (${fill.cells}); ` +
        `${fill.sample} chunks left for the model`,
    );

    // 4. A fresh engine: the active model loads in its child process on the first search.
    engine = new BenchEngine(ws);
    t = performance.now();
    await engine.search('warm up', 1);
    const modelLoadMs = performance.now() - t;
    let status = await engine.status();
    if (status.embedding.generation !== generationId(generation)) {
      throw new Error(`the engine uses generation ${status.embedding.generation}, expected ${generation.provider}:${generation.model}:${generation.dims}`);
    }
    if (status.embedding.total - status.embedding.embedded !== fill.sample) {
      throw new Error(`${status.embedding.total - status.embedding.embedded} chunks lack vectors, expected ${fill.sample}`);
    }

    // 5. Embedding throughput: the engine's own sync embeds the sample through the model process.
    const sync = await engine.sync();
    const embedding = sync.report.embedding;
    if (!embedding || embedding.error) throw new Error(`embedding the sample failed: ${embedding?.error ?? 'no report'}`);
    if (embedding.embedded !== fill.sample) throw new Error(`the sync embedded ${embedding.embedded} chunks, expected ${fill.sample}`);
    const textsPerS = embedding.embedded / Math.max(1e-3, embedding.durationMs / 1000);
    status = await engine.status();
    log(`  model embedded ${embedding.embedded} chunks in ${(embedding.durationMs / 1000).toFixed(1)} s (${textsPerS.toFixed(2)} texts/s); ${status.embedding.embedded}/${status.embedding.total} vectors`);

    // 6. Hybrid search through memory.search, the questions of synthetic.ts. The engine's own
    // provider is wrapped (bench-side only) to time each search's query embedding exactly.
    // First pass: the recall recorder's deferred write (250 ms after a search) is flushed between
    // searches, outside the timed part, as when searches are more than 250 ms apart; the hash
    // control is measured the same way. Second pass: back to back; the write then runs on the
    // host's event loop while a search waits for the model process, and lands in that search's time.
    const inSearchEmbedMs: number[] = [];
    const timed = timeEmbedQueries(engine, inSearchEmbedMs);
    const questions = makeQuestions(corpus, 777, questionScale);
    for (const q of makeQuestions(corpus, 4242).slice(0, warmupCount)) await engine.search(q.query, 10);
    inSearchEmbedMs.length = 0;
    const spaced = await searchAll(engine, questions, true);
    const ownEmbedMs = timed && inSearchEmbedMs.length === questions.length ? inSearchEmbedMs.splice(0) : null;
    const backToBack = await searchAll(engine, questions, false);
    const rssMb = process.memoryUsage().rss / MB;
    const hybrid = summary(spaced.wall);
    const hybridB2b = summary(backToBack.wall);
    log(`  hybrid search (${questions.length} questions): p50 ${hybrid.p50} ms, p95 ${hybrid.p95} ms, max ${hybrid.max} ms; back to back: p50 ${hybridB2b.p50} ms, p95 ${hybridB2b.p95} ms`);
    await engine.close();
    engine = null;

    // 7. The query embedding alone: the same provider class and settings, a second model process.
    const models = new ModelStore({ dataDir: ws.dataDir });
    const modelPath = models.activeModel('embedding')!.path;
    probe = await LlamaEmbeddingProvider.open({ modelPath, modelId: generation.model });
    for (const q of makeQuestions(corpus, 4242).slice(0, warmupCount)) await probe.embedQuery(q.query);
    const embedMs: number[] = [];
    const queryVectors: Float32Array[] = [];
    for (const q of questions) {
      t = performance.now();
      queryVectors.push(await probe.embedQuery(q.query));
      embedMs.push(performance.now() - t);
    }
    const modelRssMb = processRssMb(probe.pid);
    await probe.close();
    probe = null;
    const embedQ = summary(embedMs);
    // Per search: its wall time minus its own query embedding (timed inside the search when the
    // wrapper could be installed, else the same question's embedding timed apart).
    const ownEmbed = ownEmbedMs ?? embedMs;
    const withoutEmbed = summary(spaced.wall.map((w, i) => Math.max(0, w - ownEmbed[i]!)));
    const inSearch = ownEmbedMs ? summary(ownEmbedMs) : null;
    log(`  query embedding alone: p50 ${embedQ.p50} ms, p95 ${embedQ.p95} ms; inside the searches: p50 ${inSearch?.p50 ?? '?'} ms, p95 ${inSearch?.p95 ?? '?'} ms; search minus it: p50 ${withoutEmbed.p50} ms, p95 ${withoutEmbed.p95} ms`);

    // 8. The KNN side alone at this size: through the cells (memory.search's path) and over every vector.
    const knnRun = timeKnn(indexPath, generation, queryVectors);
    const knn = summary(knnRun.cells);
    const knnFlat = summary(knnRun.flat);
    log(
      `  KNN alone (k=${KNN_K}, ${knnRun.mode}): p50 ${knn.p50} ms, p95 ${knn.p95} ms, recall of the exact top ${KNN_K} ${knnRun.cellsRecall.toFixed(3)}; ` +
        `one KNN over every vector: p50 ${knnFlat.p50} ms, p95 ${knnFlat.p95} ms, recall ${knnRun.flatRecall.toFixed(3)}`,
    );

    // 9. Control: the same index and questions with the built-in hash provider (its 384-dim vectors
    // were built with the index in step 1), so the 768-dim figures compare under the same load.
    models.remove(installed.id);
    engine = new BenchEngine(ws);
    for (const q of makeQuestions(corpus, 4242).slice(0, warmupCount)) await engine.search(q.query, 10);
    const hashStatus = await engine.status();
    if (hashStatus.embedding.provider !== 'hash' || hashStatus.embedding.embedded !== hashStatus.embedding.total) {
      throw new Error(`the control run uses ${hashStatus.embedding.provider} with ${hashStatus.embedding.embedded}/${hashStatus.embedding.total} vectors`);
    }
    const hash = summary((await searchAll(engine, questions, true)).wall);
    await engine.close();
    engine = null;
    log(`  control, hash provider (${hashStatus.embedding.dims} dims) on the same index: p50 ${hash.p50} ms, p95 ${hash.p95} ms`);

    return {
      v768_mode: quick ? 'quick' : 'full',
      v768_model: `bert e${shape.embeddingLength} l${shape.blockCount} ffn${shape.feedForwardLength} h${shape.headCount} ctx${shape.contextLength} ${shape.weights}, random weights${options.model ? '' : ' (embeddinggemma-300m-sized compute)'}`,
      v768_model_mb: round(modelBytes / MB, 1),
      v768_vocab_tokens: vocabulary.length + 5,
      v768_model_threads: resolveThreadCount(undefined),
      v768_model_load_ms: round(modelLoadMs, 0),
      embedding_dims_768: status.embedding.dims,
      v768_vector_backend: status.embedding.vectorBackend,
      v768_files: built.files,
      v768_chunks: status.embedding.total,
      v768_vectors: status.embedding.embedded,
      v768_vectors_from_model: embedding.embedded,
      v768_vectors_synthetic: fill.filled,
      v768_index_s: round(built.seconds, 1),
      v768_fill_s: round(fill.seconds, 1),
      embed768_texts_per_s: round(textsPerS, 2),
      embed768_sample_n: embedding.embedded,
      embed768_sample_avg_chars: round(fill.sampleChars, 0),
      embed768_reembed_all_est_min: round(status.embedding.total / textsPerS / 60, 1),
      search_p50_ms_hybrid_100k_768: hybrid.p50,
      search_p95_ms_hybrid_100k_768: hybrid.p95,
      search_p99_ms_hybrid_100k_768: hybrid.p99,
      search_max_ms_hybrid_100k_768: hybrid.max,
      search_engine_p95_ms_hybrid_100k_768: round(percentile(spaced.took, 95), 2),
      search_p50_ms_hybrid_100k_768_back_to_back: hybridB2b.p50,
      search_p95_ms_hybrid_100k_768_back_to_back: hybridB2b.p95,
      search_n_768: questions.length,
      // Repeated questions get their vector from the model provider's kept queries.
      search_n_768_distinct: new Set(questions.map((q) => q.query)).size,
      embed768_query_p50_ms: embedQ.p50,
      embed768_query_p95_ms: embedQ.p95,
      embed768_query_mean_ms: embedQ.mean,
      embed768_query_share_of_mean: round(embedQ.mean / Math.max(1e-9, hybrid.mean), 3),
      embed768_query_in_search_p50_ms: inSearch?.p50 ?? Number.NaN,
      embed768_query_in_search_p95_ms: inSearch?.p95 ?? Number.NaN,
      search768_minus_query_embed_p50_ms: withoutEmbed.p50,
      search768_minus_query_embed_p95_ms: withoutEmbed.p95,
      search768_minus_query_embed_method: inSearch ? 'embedding timed inside each search' : 'embedding timed apart, same question',
      search_p50_ms_hybrid_100k_hash_control: hash.p50,
      search_p95_ms_hybrid_100k_hash_control: hash.p95,
      knn768_mode: status.embedding.knn.mode,
      knn768_p50_ms: knn.p50,
      knn768_p95_ms: knn.p95,
      knn768_recall_at_20: round(knnRun.cellsRecall, 3),
      knn768_flat_p50_ms: knnFlat.p50,
      knn768_flat_p95_ms: knnFlat.p95,
      knn768_flat_recall_at_20: round(knnRun.flatRecall, 3),
      v768_cells_build_s: round(fill.cellsSeconds, 1),
      v768_cells: fill.cells,
      v768_results_vector_scored_share: round(spaced.vectorScored / Math.max(1, spaced.results), 3),
      v768_results_matched_by_vector: spaced.vectorMatched,
      rss_mb_100k_768: round(rssMb, 1),
      v768_model_process_rss_mb: modelRssMb,
      v768_loadavg_1m_start: round(loadStart, 2),
      v768_loadavg_1m_end: round(os.loadavg()[0]!, 2),
      v768_total_s: round((performance.now() - started) / 1000, 1),
    };
  } finally {
    await probe?.close();
    await engine?.close();
    removeTempWorkspace(ws);
  }
}
