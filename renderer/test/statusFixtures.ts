import type { StatusOutput } from '../../core/src/contract/index.js';

/** A healthy, small workspace's status; override the index and embedding fields a test is about. */
export function statusOutput(index: Partial<StatusOutput['index']> = {}, embedding: Partial<StatusOutput['embedding']> = {}): StatusOutput {
  return {
    workspace: { path: '/home/ada/Reverie', id: 'w', exists: true },
    dataDir: '/home/ada/.local/share/reverie',
    indexPath: '/home/ada/.local/share/reverie/index.sqlite',
    host: null,
    agentSocket: null,
    index: { state: 'ready', files: 3, chunks: 12, indexed: 3, skipped: 0, failed: 0, lastSyncAt: null, lastError: null, paused: false, searchReady: true, derived: { state: 'done', done: 3, total: 3 }, ...index },
    embedding: {
      provider: 'hash',
      model: 'hash:fh-words-trigrams',
      dims: 384,
      generation: 'gen:1',
      vectorBackend: 'sqlite-vec',
      vectorBackendProblem: null,
      knn: { mode: 'flat', reason: null },
      embedded: 12,
      total: 12,
      running: false,
      lastError: null,
      ...embedding,
    },
    sessions: { transcripts: 0, lines: 0, messages: 0, unknownLines: 0, malformedLines: 0, toolCalls: 0, redactions: 0, recalledStripped: 0 },
    dreaming: { recallSignals: 0, stagedCandidates: 0, lastRun: null, schedule: null, nextRunAt: null },
    files: [],
    notices: [],
  };
}
