/**
 * CPU per distinct question on a search worker's path, in one thread (valid under machine load):
 * the hybrid search with the hash vectors, then dreaming's recall resolution that follows it, on
 * the synthetic workspace the agents' host bench uses (~2,800 chunks), 1,000 distinct questions
 * asked twice (the second pass finds the notes and vectors the first one cached).
 *   nice -n 10 node --import tsx scripts/bench/searchWorkerCpu.ts
 */
import { createAfterSearch } from '../../core/src/dreaming/recall/searchWorkerRecall.js';
import { HashEmbeddingProvider } from '../../core/src/embed/hashProvider.js';
import { MemoryService } from '../../core/src/engine/memoryService.js';
import { registerChunkText } from '../../core/src/index/chunkText.js';
import { loadVectorExtension, VectorStore } from '../../core/src/index/vectorStore.js';
import { openSqlite } from '../../core/src/platform/sqliteDriver.js';
import { DEFAULT_HYBRID, HybridSearcher } from '../../core/src/search/hybridSearch.js';
import { KeywordSearcher } from '../../core/src/search/keywordSearch.js';
import { resolveExistingWorkspace } from '../../core/src/workspace/resolveWorkspace.js';
import { makeTempWorkspace, removeTempWorkspace } from './engine.js';
import { log, round } from './stats.js';
import { makeQuestions, SyntheticCorpus } from './synthetic.js';

const ws = makeTempWorkspace('worker-cpu');
const service = new MemoryService({ dataDir: ws.dataDir, workspace: resolveExistingWorkspace(ws.workspace) });
try {
  const corpus = new SyntheticCorpus(ws.workspace);
  corpus.writeRootFiles();
  while (service.status().index.chunks < 2000) {
    corpus.writeNotes(200);
    await service.sync(false);
  }
  const db = openSqlite(service.indexPath, { readonly: true });
  registerChunkText(db); // as a search worker opens it (recall reads a transcript's lines through chunk_text())
  try {
    const provider = new HashEmbeddingProvider();
    const store = VectorStore.openExisting(db, provider.generation, loadVectorExtension(db).backend);
    if (!store) throw new Error('The sync made no hash vectors.');
    const hybrid = new HybridSearcher(db, new KeywordSearcher(db), () => ({ store, provider }), () => DEFAULT_HYBRID);
    const recall = createAfterSearch(db, { workspaceRoot: ws.workspace });
    const queries = [...new Set(makeQuestions(corpus, 777, 10).map((q) => q.query))];
    const sources = ['memory', 'sessions'] as const;
    const cpuMs = (usage: NodeJS.CpuUsage): number => (usage.user + usage.system) / 1000;
    const pass = async (asked: readonly string[]): Promise<{ search: number; recall: number }> => {
      let search = 0;
      let recalled = 0;
      for (const query of asked) {
        const start = process.cpuUsage();
        const results = await hybrid.search({ query, limit: 5, sources });
        const searched = process.cpuUsage(start);
        recall(query, results);
        search += cpuMs(searched);
        recalled += cpuMs(process.cpuUsage(start)) - cpuMs(searched);
      }
      return { search: round(search / asked.length, 3), recall: round(recalled / asked.length, 3) };
    };
    await pass(queries.slice(0, 300)); // the JIT warms up
    const first = await pass(queries.slice(300, 1300));
    const second = await pass(queries.slice(300, 1300));
    log(`${service.status().index.chunks} chunks, 1,000 distinct questions: CPU per search ${first.search} ms, recall ${first.recall} ms (first pass); ${second.search} ms, ${second.recall} ms (second pass)`);
  } finally {
    db.close();
  }
} finally {
  await service.close();
  removeTempWorkspace(ws);
}
process.exit(0);
