/** The workspace and host at a glance: what `status` and `workspace.info` answer. */
import { z } from 'zod';
import { DerivedProgress, FileCoverage, IndexState } from './indexRecords.js';

export const WorkspaceInfo = z.object({
  root: z.string(),
  /** True until the person has seen the welcome (keep this workspace, choose another, import). */
  firstRun: z.boolean(),
  /** An OpenClaw workspace found on this machine that is not the open one. */
  openClaw: z.string().nullable(),
  /** Where a new workspace is created by default (`~/Reverie`). */
  starterDir: z.string(),
  /** Whether this host can show a folder picker (`path: null` in workspace.open). */
  canPickFolder: z.boolean(),
});
export type WorkspaceInfo = z.infer<typeof WorkspaceInfo>;

export const HostInfo = z.object({
  kind: z.enum(['serve', 'desktop', 'daemon']),
  pid: z.number().int(),
  startedAt: z.string(),
  url: z.string().nullable(),
});
export type HostInfo = z.infer<typeof HostInfo>;

export const StatusOutput = z.object({
  workspace: z.object({ path: z.string(), id: z.string(), exists: z.boolean() }),
  dataDir: z.string(),
  indexPath: z.string(),
  /** The host that owns this workspace right now, if any. */
  host: HostInfo.nullable(),
  index: z.object({
    state: IndexState,
    files: z.number().int(),
    chunks: z.number().int(),
    indexed: z.number().int(),
    skipped: z.number().int(),
    failed: z.number().int(),
    lastSyncAt: z.string().nullable(),
    lastError: z.string().nullable(),
    /** Indexing paused by the person: file changes wait until it resumes. */
    paused: z.boolean(),
    /** Keywords and vectors are complete as of the last sync: search sees every file (false during a first index or a rebuild). */
    searchReady: z.boolean(),
    /** Work derived from the index after search is ready (the knowledge graph): memory files it has caught up with. */
    derived: DerivedProgress,
  }),
  /** Semantic recall: the active embedding generation and how far its vectors are. */
  embedding: z.object({
    provider: z.enum(['hash', 'llama']),
    model: z.string(),
    dims: z.number().int(),
    generation: z.string().nullable(),
    /** `sqlite-vec` KNN, or `scan` (bounded batches) when the extension cannot load. */
    vectorBackend: z.enum(['sqlite-vec', 'scan']),
    vectorBackendProblem: z.string().nullable(),
    /**
     * How a query's nearest vectors are found over the whole index: one KNN (`flat`), the exact
     * `scan`, KNN inside the nearest `cells` (large model generations), or `off` (vectors only
     * re-score keyword candidates), with the reason.
     */
    knn: z.object({ mode: z.enum(['flat', 'scan', 'cells', 'off']), reason: z.string().nullable() }),
    embedded: z.number().int(),
    total: z.number().int(),
    running: z.boolean(),
    lastError: z.string().nullable(),
  }),
  /** The local socket agents connect to, while a host serves it. */
  agentSocket: z.string().nullable(),
  /** Ingested agent transcripts: what was read and what was left out, summed over all transcripts. */
  sessions: z.object({
    transcripts: z.number().int(),
    lines: z.number().int(),
    messages: z.number().int(),
    unknownLines: z.number().int(),
    malformedLines: z.number().int(),
    toolCalls: z.number().int(),
    redactions: z.number().int(),
    recalledStripped: z.number().int(),
  }),
  /** Dreaming at a glance: short-term signals, staged candidates, the last run and the next. */
  dreaming: z.object({
    recallSignals: z.number().int(),
    stagedCandidates: z.number().int(),
    lastRun: z.object({ id: z.string(), status: z.string(), startedAt: z.string(), reason: z.string().nullable() }).nullable(),
    schedule: z.string().nullable(),
    nextRunAt: z.string().nullable(),
  }),
  files: z.array(FileCoverage),
  notices: z.array(z.string()),
});
export type StatusOutput = z.infer<typeof StatusOutput>;
