/**
 * The one declaration of Reverie's API. Every transport (HTTP host, Electron IPC, CLI, and
 * later the agent socket and MCP) is generic over this table: it validates input and output
 * against these schemas and never re-declares an operation.
 *
 * This file is imported by the renderer: it may depend on zod only (no Node, no DOM).
 */
import { z } from 'zod';
import {
  DEFAULT_DREAM_SETTINGS,
  DreamDiary,
  DreamRun,
  DreamRunSummary,
  DreamSchedule,
  DreamSettings,
  DreamThresholds,
  PreImage,
} from './dreamSchemas.js';

export * from './dreamSchemas.js';
import { AccessLogEntry, AgentInfo, AgentName, AgentScope, BootstrapFile, Intent, MatchedEntry, MemoryGetOutput, MemoryStoreKind, SessionExcerpt } from './agentSchemas.js';

export * from './agentSchemas.js';
import { GraphClaim, GraphEntity, GraphFilters, GraphSlice } from './graphSchemas.js';

export * from './graphSchemas.js';

// ---------------------------------------------------------------------------------------
// Shared records

/**
 * Where an indexed text comes from: workspace memory, the dreaming diary (`DREAMS.md`, never
 * mixed into recall by default) or agent transcripts (`sessions`: searchable, never auto-injected).
 */
export const SourceKind = z.enum(['memory', 'dreams', 'sessions']);
export type SourceKind = z.infer<typeof SourceKind>;

export const FileStatus = z.enum(['indexed', 'skipped', 'failed']);

/** Trust class of a text, written by code: owner (the person), agent, untrusted (external), system (scaffolding). */
export const OriginClass = z.enum(['owner', 'agent', 'untrusted', 'system']);
export type OriginClass = z.infer<typeof OriginClass>;
export const SessionKind = z.enum(['interactive', 'cron', 'heartbeat', 'subagent', 'unknown']);
export type SessionKind = z.infer<typeof SessionKind>;
export type FileStatus = z.infer<typeof FileStatus>;

/** Workspace-relative path with `/` separators (absolute, also with `/`, for extra paths outside it). */
export const WorkspacePath = z
  .string()
  .min(1, 'path must not be empty')
  .max(4096, 'path is longer than 4096 characters')
  .refine((p) => !p.includes('\0'), 'path must not contain NUL bytes');

export const FileCoverage = z.object({
  path: z.string(),
  source: SourceKind,
  status: FileStatus,
  /** Why a file is skipped or failed (`not UTF-8`, `too large`, `unreadable`, …); null when indexed. */
  reason: z.string().nullable(),
  size: z.number().int().nonnegative(),
  mtimeMs: z.number().nonnegative(),
  chunks: z.number().int().nonnegative(),
});
export type FileCoverage = z.infer<typeof FileCoverage>;

export const IndexState = z.enum(['idle', 'indexing', 'ready', 'error']);
export type IndexState = z.infer<typeof IndexState>;

export const SyncReport = z.object({
  files: z.number().int(),
  chunks: z.number().int(),
  added: z.number().int(),
  updated: z.number().int(),
  removed: z.number().int(),
  unchanged: z.number().int(),
  skipped: z.number().int(),
  failed: z.number().int(),
  durationMs: z.number(),
  /** Files that were skipped or failed in this run, with the reason. */
  problems: z.array(z.object({ path: z.string(), status: FileStatus, reason: z.string() })),
  /** Things the person should know (for example: a corrupted index was moved aside and rebuilt). */
  notices: z.array(z.string()),
  /** Transcripts ingested in this run, when any tool's home folder is configured. */
  sessions: z.lazy(() => IngestReport).optional(),
  /** The knowledge graph update that follows `index-ready` (derived from the memory files). */
  graph: z
    .object({ extracted: z.number().int(), removed: z.number().int(), entities: z.number().int(), claims: z.number().int(), durationMs: z.number() })
    .optional(),
  /** The vector phase that follows the keyword index (durationMs above covers the keyword index only). */
  embedding: z
    .object({
      provider: z.enum(['hash', 'llama']),
      generation: z.string(),
      embedded: z.number().int(),
      fromCache: z.number().int(),
      durationMs: z.number(),
      error: z.string().nullable(),
    })
    .optional(),
});
export type SyncReport = z.infer<typeof SyncReport>;

export const SearchResult = z.object({
  /** Typed record id, `chunk:<n>`. */
  id: z.string(),
  path: z.string(),
  source: SourceKind,
  /** 1-based, inclusive. */
  startLine: z.number().int().positive(),
  endLine: z.number().int().positive(),
  snippet: z.string().max(700),
  score: z.number(),
  /** Why this result matched: keyword (BM25), vector (embedding similarity), path or date in the file name. */
  matchedBy: z.array(z.enum(['keyword', 'vector', 'path', 'date'])),
  /** Provenance summary: the least trusted class of the cited text, and the session kind for transcripts. */
  origin: OriginClass.optional(),
  sessionKind: SessionKind.nullable().optional(),
  /** How the score was made, for the UI's "why this result" view. */
  breakdown: z
    .object({
      keyword: z.number().describe('BM25, normalised to 0–1 among the candidates'),
      vector: z.number().describe('cosine similarity of query and chunk embeddings'),
      fused: z.number(),
      fusion: z.enum(['weighted', 'rrf']),
      decay: z.number().describe('temporal decay multiplier for dated notes (1 = none)'),
      importance: z.number().describe('multiplier from <!-- importance: N -->'),
      trigger: z.number().describe('multiplier when the query contains a <!-- trigger: … --> phrase'),
      mmr: z.number().describe('diversity penalty applied by MMR (0 = none)'),
      passage: z.number().optional().describe('share of the query the cited lines cover (passage focus, 0–1)'),
      date: z.number().optional().describe('bonus for a note whose file-name date fits a date in the query'),
    })
    .optional(),
});
export type SearchResult = z.infer<typeof SearchResult>;

/** The knowledge graph: chat-model extraction on top of the deterministic one (off by default). */
export const GraphSettings = z.object({
  /** Ask the active chat model for more entities and relations; every item must cite lines that name it, or it is dropped. */
  modelExtraction: z.boolean(),
  /** Bound on one extraction prompt to the chat model; the deterministic graph stands whatever happens. */
  modelTimeoutSeconds: z.number().positive().max(600),
});
export type GraphSettings = z.infer<typeof GraphSettings>;

export const Settings = z.object({
  /** Absolute path of the workspace chosen at first run. */
  workspace: z.string().nullable(),
  /** Extra folders or `.md` files indexed as memory, absolute or relative to the workspace. */
  extraPaths: z.array(z.string()),
  /** Files larger than this are skipped as `too large`. */
  maxFileSizeMB: z.number().positive().max(1024),
  /** Watch the workspace for changes while a host runs. */
  watch: z.boolean(),
  /** How keyword and vector candidates are combined: weighted sum (0.7 vector / 0.3 text) or reciprocal-rank fusion. */
  fusion: z.enum(['weighted', 'rrf']),
  /** Agent tools' home folders whose transcripts are ingested (null: not ingested). */
  sessions: z.object({ codex: z.string().nullable(), claude: z.string().nullable(), openclaw: z.string().nullable() }),
  /** Transcripts larger than this are skipped as `too large`. */
  maxTranscriptSizeMB: z.number().positive().max(65536),
  /** Dreaming: schedule, review-before-writing, gates and budgets. */
  dreaming: DreamSettings,
  graph: GraphSettings,
  /** The person has seen the first-run welcome (workspace choice, imports). */
  firstRunDone: z.boolean(),
});
export type Settings = z.infer<typeof Settings>;

export const DEFAULT_SETTINGS: Settings = {
  workspace: null,
  extraPaths: [],
  maxFileSizeMB: 16,
  watch: true,
  fusion: 'weighted',
  sessions: { codex: null, claude: null, openclaw: null },
  maxTranscriptSizeMB: 512,
  dreaming: DEFAULT_DREAM_SETTINGS,
  graph: { modelExtraction: false, modelTimeoutSeconds: 60 },
  firstRunDone: false,
};

/** A settings change: top-level keys replace, `dreaming` is merged key by key. */
export const SettingsPatch = Settings.partial()
  .extend({ dreaming: DreamSettings.partial().strict().optional(), graph: GraphSettings.partial().strict().optional() })
  .strict();
export type SettingsPatch = z.infer<typeof SettingsPatch>;

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

export const ModelRole = z.enum(['embedding', 'chat']);
export type ModelRole = z.infer<typeof ModelRole>;

export const ModelInfo = z.object({
  /** `model:<sha256 prefix>` */
  id: z.string(),
  /** File name inside `<data-dir>/models/`. */
  file: z.string(),
  role: ModelRole,
  /** The URI or local path it came from. */
  source: z.string(),
  sha256: z.string(),
  size: z.number().int(),
  addedAt: z.string(),
  active: z.boolean(),
});
export type ModelInfo = z.infer<typeof ModelInfo>;

export const ProvenanceChain = z.object({
  path: z.string(),
  startLine: z.number().int(),
  endLine: z.number().int(),
  source: SourceKind,
  /** Least trusted class of the cited lines. */
  origin: OriginClass,
  sessionKind: SessionKind.nullable(),
  observedAt: z.string().nullable(),
  /** The cited text (at most 4,000 characters). */
  text: z.string(),
  /** Workspace lines in the range and who wrote each (null: the person, by default). */
  lines: z.array(
    z.object({
      line: z.number().int(),
      origin: OriginClass,
      writtenBy: z.object({ via: z.enum(['agent', 'import', 'dreaming']), actor: z.string().nullable(), writtenAt: z.string(), detail: z.string().nullable() }).nullable(),
    }),
  ),
  /** For transcript text: the session and each cited line's JSONL source line. */
  transcript: z
    .object({
      tool: z.enum(['codex', 'claude-code', 'openclaw']),
      sessionId: z.string(),
      sessionKind: SessionKind,
      originalPath: z.string(),
      cwd: z.string().nullable(),
      startedAt: z.string().nullable(),
      lines: z.array(
        z.object({ line: z.number().int(), sourceLine: z.number().int(), role: z.enum(['user', 'assistant']), origin: OriginClass, timestamp: z.string().nullable() }),
      ),
    })
    .nullable(),
});
export type ProvenanceChain = z.infer<typeof ProvenanceChain>;

export const IngestReport = z.object({
  transcripts: z.number().int(),
  added: z.number().int(),
  /** Transcripts that grew: only their new lines were read. */
  appended: z.number().int(),
  unchanged: z.number().int(),
  removed: z.number().int(),
  skipped: z.number().int(),
  failed: z.number().int(),
  messages: z.number().int(),
  /** Lines skipped inside transcripts: unknown types and malformed lines. */
  unknownLines: z.number().int(),
  malformedLines: z.number().int(),
  redactions: z.number().int(),
  recalledStripped: z.number().int(),
  durationMs: z.number(),
  problems: z.array(z.object({ path: z.string(), status: FileStatus, reason: z.string() })),
});
export type IngestReport = z.infer<typeof IngestReport>;

export const ImportTool = z.enum(['codex', 'claude-code', 'hermes']);
export type ImportTool = z.infer<typeof ImportTool>;
const ImportSourceSpec = z.object({ tool: ImportTool, home: z.string().min(1).max(4096).optional() }).strict();

export const DetectedImportSource = z.object({
  tool: ImportTool,
  home: z.string(),
  exists: z.boolean(),
  collections: z.array(
    z.object({
      name: z.string(),
      projectPath: z.string().nullable(),
      origin: z.string(),
      files: z.array(z.object({ absPath: z.string(), relPath: z.string(), skipReason: z.string().nullable() })),
    }),
  ),
  transcripts: z.number().int(),
  notes: z.array(z.string()),
});

export const ImportPlan = z.object({
  version: z.literal(1),
  createdAt: z.string(),
  workspaceRoot: z.string(),
  sources: z.array(ImportSourceSpec),
  options: z.object({ maxFileBytes: z.number(), maxFilesPerCollection: z.number().int(), includeClaudeMd: z.boolean() }),
  items: z.array(
    z.object({
      tool: ImportTool,
      collection: z.string(),
      sourcePath: z.string(),
      size: z.number(),
      sha256: z.string().nullable(),
      destination: z.string().nullable(),
      status: z.enum(['new', 'unchanged', 'conflict', 'skipped']),
      reason: z.string().nullable(),
    }),
  ),
  notes: z.array(z.string()),
  fingerprint: z.string(),
});
export type ImportPlan = z.infer<typeof ImportPlan>;

export const ImportReport = z.object({
  id: z.string(),
  outcome: z.enum(['completed', 'failed']),
  error: z.string().nullable(),
  workspaceRoot: z.string(),
  planFingerprint: z.string(),
  copied: z.number().int(),
  skipped: z.number().int(),
  replaced: z.number().int(),
  unchanged: z.number().int(),
  items: z.array(
    z.object({
      tool: ImportTool,
      collection: z.string(),
      sourcePath: z.string(),
      destination: z.string().nullable(),
      sha256: z.string().nullable(),
      action: z.enum(['copied', 'replaced', 'unchanged', 'skipped']),
      reason: z.string().nullable(),
      backupPath: z.string().nullable(),
    }),
  ),
  backupDir: z.string().nullable(),
  startedAt: z.string(),
  finishedAt: z.string(),
  reportPath: z.string().nullable(),
  markdownPath: z.string().nullable(),
});
export type ImportReport = z.infer<typeof ImportReport>;

export const ForgetReport = z.object({
  dryRun: z.boolean(),
  /** Index entries removed (or that would be). */
  removed: z.object({ files: z.array(z.string()), chunks: z.number().int(), vectors: z.number().int() }),
  tombstone: z.object({ kind: z.enum(['session', 'path']), key: z.string() }),
  /** Workspace Markdown is never deleted by forget: files that still contain the text. */
  stillInWorkspace: z.array(z.object({ path: z.string(), lines: z.array(z.number().int()) })),
});
export type ForgetReport = z.infer<typeof ForgetReport>;

// ---------------------------------------------------------------------------------------
// Operations

const MAX_QUERY_CHARS = 20_000;
const MAX_WRITE_BYTES = 16 * 1024 * 1024;

export const operations = {
  status: {
    access: 'read',
    summary: 'Workspace, index state and per-file coverage.',
    input: z.object({}).strict(),
    output: StatusOutput,
  },
  'index.sync': {
    access: 'write',
    summary: 'Bring the index up to date with the Markdown files.',
    input: z.object({ force: z.boolean().default(false) }).strict(),
    output: SyncReport,
  },
  'index.pause': {
    access: 'write',
    summary: 'Pause or resume indexing; changes seen while paused are indexed on resume.',
    input: z.object({ paused: z.boolean() }).strict(),
    output: z.object({ paused: z.boolean() }),
  },
  'workspace.info': {
    access: 'read',
    summary: 'The open workspace, whether this is the first run, and workspaces that could be opened instead.',
    input: z.object({}).strict(),
    output: WorkspaceInfo,
  },
  'workspace.open': {
    access: 'write',
    summary: 'Choose the workspace the app opens (the host restarts its engine on it).',
    input: z
      .object({
        /** Absolute folder; null asks the person with a folder picker (desktop app only). */
        path: z.string().min(1).max(4096).nullable(),
        /** Create the folder with starter files when it does not exist. */
        create: z.boolean().default(false),
      })
      .strict(),
    output: z.object({
      root: z.string(),
      /** False when the person cancelled the picker or chose the open workspace again. */
      changed: z.boolean(),
      /** True when this host cannot switch by itself (`reverie serve`: start it again). */
      restartRequired: z.boolean(),
    }),
  },
  'memory.search': {
    access: 'read',
    summary: 'Keyword search over indexed memory.',
    input: z
      .object({
        query: z.string().max(MAX_QUERY_CHARS, `query is longer than ${MAX_QUERY_CHARS} characters`),
        limit: z.number().int().min(1).max(100).default(10),
        sources: z.array(SourceKind).min(1).default(['memory', 'sessions']),
        /** Boost entries annotated `<!-- project: KEY -->` with this key. */
        project: z.string().min(1).max(200).optional(),
        /** Also return matching graph entities (a separate group; results stay chunk results). */
        graph: z.boolean().default(false),
      })
      .strict(),
    output: z.object({ results: z.array(SearchResult), tookMs: z.number(), graph: z.array(GraphEntity).optional() }),
  },
  'files.list': {
    access: 'read',
    summary: 'Every discovered file with its coverage status.',
    input: z.object({}).strict(),
    output: z.object({ files: z.array(FileCoverage) }),
  },
  'files.read': {
    access: 'read',
    summary: 'Read one memory file with its content hash.',
    input: z.object({ path: WorkspacePath }).strict(),
    output: z.object({
      path: z.string(),
      text: z.string(),
      sha256: z.string(),
      mtimeMs: z.number(),
      size: z.number().int(),
    }),
  },
  'files.write': {
    access: 'write',
    summary: 'Save a memory file if it has not changed on disk since it was read.',
    input: z
      .object({
        path: WorkspacePath,
        text: z.string().refine((t) => t.length <= MAX_WRITE_BYTES, 'text is larger than 16 MB'),
        /** Hash of the content the editor started from; null to create a new file. */
        expectedSha256: z.string().regex(/^[0-9a-f]{64}$/).nullable(),
      })
      .strict(),
    output: z.object({ path: z.string(), sha256: z.string(), mtimeMs: z.number(), size: z.number().int() }),
  },
  'settings.get': {
    access: 'read',
    summary: 'Current settings.',
    input: z.object({}).strict(),
    output: Settings,
  },
  'settings.set': {
    access: 'write',
    summary: 'Change some settings.',
    input: z.object({ patch: SettingsPatch }).strict(),
    output: Settings,
  },
  'sessions.ingest': {
    access: 'write',
    summary: "Ingest agent transcripts (Codex, Claude Code, OpenClaw) from the tools' home folders; remembered in settings.",
    input: z
      .object({
        codex: z.string().min(1).nullable().optional(),
        claude: z.string().min(1).nullable().optional(),
        openclaw: z.string().min(1).nullable().optional(),
      })
      .strict(),
    output: IngestReport,
  },
  'import.detect': {
    access: 'read',
    summary: 'Find the memory Codex, Claude Code and Hermes already wrote (default homes, or the ones given).',
    input: z.object({ sources: z.array(ImportSourceSpec).max(3).optional() }).strict(),
    output: z.object({ sources: z.array(DetectedImportSource) }),
  },
  'import.plan': {
    access: 'read',
    summary: 'List every item an import would copy, with destination, conflicts and a fingerprint.',
    input: z.object({ sources: z.array(ImportSourceSpec).max(3).optional() }).strict(),
    output: ImportPlan,
  },
  'import.apply': {
    access: 'write',
    summary: 'Copy a plan into memory/imports/ (staged, atomic; conflicts skipped unless replace, with verified backups).',
    input: z
      .object({
        plan: ImportPlan.optional(),
        sources: z.array(ImportSourceSpec).max(3).optional(),
        replace: z.boolean().default(false),
        /** Destinations unticked in the preview. */
        exclude: z.array(z.string()).max(10_000).default([]),
      })
      .strict(),
    output: ImportReport,
  },
  'import.reports': {
    access: 'read',
    summary: 'Earlier import reports, newest first.',
    input: z.object({}).strict(),
    output: z.object({
      reports: z.array(
        z.object({
          id: z.string(),
          outcome: z.enum(['completed', 'failed']),
          error: z.string().nullable(),
          copied: z.number().int(),
          skipped: z.number().int(),
          replaced: z.number().int(),
          unchanged: z.number().int(),
          backupDir: z.string().nullable(),
          startedAt: z.string(),
          finishedAt: z.string(),
          reportPath: z.string(),
          markdownPath: z.string().nullable(),
        }),
      ),
    }),
  },
  'provenance.get': {
    access: 'read',
    summary: 'Where a result or a line came from: file and lines, origin class, session, transcript line.',
    input: z
      .object({
        /** `chunk:<n>`, `path:line` or `path:start-end`. */
        ref: z.string().min(1).max(4200),
      })
      .strict(),
    output: ProvenanceChain,
  },
  forget: {
    access: 'write',
    summary: 'Remove a session or a path from the index (never deletes your Markdown) and keep it out.',
    input: z
      .object({
        session: z.string().min(1).max(512).optional(),
        path: WorkspacePath.optional(),
        dryRun: z.boolean().default(false),
      })
      .strict()
      .refine((v) => (v.session === undefined) !== (v.path === undefined), 'give exactly one of session or path'),
    output: ForgetReport,
  },
  'models.list': {
    access: 'read',
    summary: 'Installed models by role, and which one is active.',
    input: z.object({}).strict(),
    output: z.object({
      models: z.array(ModelInfo),
      active: z.object({ embedding: z.string().nullable(), chat: z.string().nullable() }),
      defaultEmbeddingUri: z.string(),
    }),
  },
  'models.pull': {
    access: 'write',
    summary: 'Download a model (hf:… or https://…) or add a local .gguf file.',
    input: z.object({ uri: z.string().min(1).max(2048), role: ModelRole.optional() }).strict(),
    output: ModelInfo,
  },
  'models.use': {
    access: 'write',
    summary: 'Make an installed model the active one for its role (re-embeds in the background).',
    input: z.object({ model: z.string().min(1).max(2048), role: ModelRole.optional() }).strict(),
    output: z.object({ active: z.object({ embedding: z.string().nullable(), chat: z.string().nullable() }) }),
  },
  'models.remove': {
    access: 'write',
    summary: 'Delete an installed model.',
    input: z.object({ model: z.string().min(1).max(2048) }).strict(),
    output: z.object({ removed: z.string() }),
  },
  'dream.run': {
    access: 'write',
    summary: 'Run one dreaming sweep now (light → REM → deep), or a dry run, or a backfill of old daily notes.',
    input: z
      .object({
        dryRun: z.boolean().default(false),
        /** A daily note or a folder of them (workspace-relative or absolute) to replay into the diary. */
        backfill: z.string().min(1).max(4096).optional(),
        /** Override the settings' gates for this run only. */
        thresholds: DreamThresholds.optional(),
      })
      .strict(),
    output: DreamRun,
  },
  'dream.runs': {
    access: 'read',
    summary: 'Dream runs, newest first, and the schedule.',
    input: z.object({ limit: z.number().int().min(1).max(500).default(50) }).strict(),
    output: z.object({ runs: z.array(DreamRunSummary), schedule: DreamSchedule }),
  },
  'dream.get': {
    access: 'read',
    summary: 'One dream run: candidates with every signal and gate outcome, promotions, the diff it applied.',
    input: z.object({ runId: z.string().min(1).max(200) }).strict(),
    output: DreamRun,
  },
  'dream.review': {
    access: 'write',
    summary: 'Approve (protect from rollback, or write a proposal) or reject (remove) one promotion.',
    input: z.object({ runId: z.string().min(1).max(200), candidateKey: z.string().min(1).max(4200), decision: z.enum(['approve', 'reject']) }).strict(),
    output: DreamRun,
  },
  'dream.rollback': {
    access: 'write',
    summary: "Undo a run: restore the pre-image if the files are unchanged since, else remove exactly the run's lines.",
    input: z.object({ runId: z.string().min(1).max(200) }).strict(),
    output: DreamRun,
  },
  'dream.preimages': {
    access: 'read',
    summary: 'Saved pre-images of MEMORY.md, USER.md and DREAMS.md, newest first.',
    input: z.object({ file: z.enum(['MEMORY.md', 'USER.md', 'DREAMS.md']).optional() }).strict(),
    output: z.object({ preImages: z.array(PreImage) }),
  },
  'dream.restore': {
    access: 'write',
    summary: 'Restore a file from a pre-image (the current content is kept as a new pre-image first).',
    input: z.object({ preImageId: z.string().min(1).max(200) }).strict(),
    output: z.object({ file: z.string(), sha256: z.string(), savedAs: z.string().nullable() }),
  },
  'dream.diary': {
    access: 'read',
    summary: "The dream diary (Reverie's or OpenClaw's DREAMS.md), parsed leniently.",
    input: z.object({}).strict(),
    output: DreamDiary,
  },
  'memory.get': {
    access: 'read',
    summary: 'Lines of one workspace memory file (no paths outside the workspace, no symlinks).',
    input: z
      .object({
        path: WorkspacePath,
        from: z.number().int().min(1).default(1),
        lines: z.number().int().min(1).max(2000).default(200),
      })
      .strict(),
    output: MemoryGetOutput,
  },
  'sessions.get': {
    access: 'read',
    summary: 'A bounded, redacted excerpt of an ingested transcript (for a `sessions` search hit).',
    input: z
      .object({
        sessionId: z.string().min(1).max(512),
        fromLine: z.number().int().min(1).default(1),
        lines: z.number().int().min(1).max(500).default(100),
      })
      .strict(),
    output: SessionExcerpt,
  },
  'memory.store': {
    access: 'write',
    summary: "Append a note to today's daily note (memory/YYYY-MM-DD.md), de-duplicated; never edits MEMORY.md or USER.md.",
    input: z
      .object({
        text: z.string().trim().min(1, 'text must not be empty').max(4000, 'text is longer than 4,000 characters'),
        kind: MemoryStoreKind.default('note'),
        project: z.string().min(1).max(200).optional(),
      })
      .strict(),
    output: z.object({
      path: z.string(),
      line: z.number().int(),
      stored: z.boolean(),
      /** Set when the same note (normalised) was stored recently: nothing was appended. */
      duplicateOf: z.object({ path: z.string(), line: z.number().int() }).nullable(),
    }),
  },
  'context.bootstrap': {
    access: 'read',
    summary: "What an agent should start with: active USER.md directives and MEMORY.md entries, within a budget; plus a project's entries.",
    input: z
      .object({
        budget: z.number().int().min(1000).max(200_000).default(24_000),
        project: z.string().min(1).max(200).optional(),
      })
      .strict(),
    output: z.object({ text: z.string(), files: z.array(BootstrapFile), totalChars: z.number().int(), budget: z.number().int(), truncated: z.boolean() }),
  },
  'context.match': {
    access: 'read',
    summary: 'Curated entries whose trigger phrases match a message strongly, and armed standing intents that match (no model call).',
    input: z
      .object({
        message: z.string().min(1).max(20_000, 'message is longer than 20,000 characters'),
        project: z.string().min(1).max(200).optional(),
      })
      .strict(),
    output: z.object({ entries: z.array(MatchedEntry), intents: z.array(Intent) }),
  },
  'intents.create': {
    access: 'write',
    summary: 'A standing intent: remember to bring something up when a matching message comes.',
    input: z
      .object({
        description: z.string().trim().min(1).max(500),
        keywords: z.array(z.string().trim().min(1).max(80)).min(1).max(20),
        project: z.string().min(1).max(200).optional(),
        expiresInDays: z.number().int().min(1).max(365).default(90),
        fireBudget: z.number().int().min(1).max(100).default(3),
        cooldownHours: z.number().min(0).max(720).default(24),
      })
      .strict(),
    output: Intent,
  },
  'intents.list': {
    access: 'read',
    summary: 'Standing intents, armed ones first.',
    input: z.object({ includeInactive: z.boolean().default(false) }).strict(),
    output: z.object({ intents: z.array(Intent) }),
  },
  'intents.cancel': {
    access: 'write',
    summary: 'Cancel a standing intent.',
    input: z.object({ id: z.string().min(1).max(200) }).strict(),
    output: Intent,
  },
  'agents.list': {
    access: 'read',
    summary: 'Agents with tokens, their scopes and last use, and the agent socket.',
    input: z.object({}).strict(),
    output: z.object({
      agents: z.array(AgentInfo),
      socket: z.object({ path: z.string(), listening: z.boolean() }),
      /** How an agent starts `reverie mcp` for this workspace on this machine (for setup snippets). */
      mcpLaunch: z.object({ command: z.string(), args: z.array(z.string()) }),
    }),
  },
  'agents.add': {
    access: 'write',
    summary: 'Create an agent and its token (shown once; stored hashed).',
    input: z.object({ name: AgentName, write: z.boolean().default(false) }).strict(),
    output: z.object({ agentId: z.string(), name: z.string(), scopes: z.array(AgentScope), token: z.string() }),
  },
  'agents.revoke': {
    access: 'write',
    summary: "Revoke an agent's token; its calls are refused from then on.",
    input: z.object({ name: AgentName }).strict(),
    output: AgentInfo,
  },
  'agents.log': {
    access: 'read',
    summary: 'The access log: every agent call (method, query or path, result count, time), newest first.',
    input: z.object({ agent: AgentName.optional(), limit: z.number().int().min(1).max(2000).default(200) }).strict(),
    output: z.object({ entries: z.array(AccessLogEntry) }),
  },
  'graph.search': {
    access: 'read',
    summary: 'Entities of the knowledge graph by text (label or alias), with their evidence.',
    input: z.object({ text: z.string().min(1).max(500), limit: z.number().int().min(1).max(200).default(20), filters: GraphFilters.optional() }).strict(),
    output: z.object({ entities: z.array(GraphEntity) }),
  },
  'graph.neighbors': {
    access: 'read',
    summary: 'An entity (id, label or alias) and what it connects to, up to N hops, within a node budget.',
    input: z
      .object({
        entity: z.string().min(1).max(500),
        hops: z.number().int().min(1).max(3).default(1),
        limit: z.number().int().min(1).max(5000).default(200),
        filters: GraphFilters.optional(),
      })
      .strict(),
    output: GraphSlice.extend({
      center: GraphEntity,
      /** The centre's literal claims ("status: active", "timezone: Europe/Berlin"), surest first, with their evidence. */
      facts: z.array(GraphClaim),
    }),
  },
  'graph.explain': {
    access: 'read',
    summary: 'A claim and the lines that support it.',
    input: z.object({ claimId: z.string().min(1).max(100) }).strict(),
    output: GraphClaim.extend({ subjectLabel: z.string(), objectLabel: z.string().nullable(), lines: z.array(z.object({ path: z.string(), line: z.number().int(), text: z.string() })) }),
  },
  'graph.overview': {
    access: 'read',
    summary: 'The most connected part of the graph within a node budget (for the graph view).',
    input: z.object({ limit: z.number().int().min(1).max(20_000).default(2_000), filters: GraphFilters.optional() }).strict(),
    output: GraphSlice,
  },
} as const satisfies Record<string, OperationSpec>;

export interface OperationSpec {
  access: 'read' | 'write';
  summary: string;
  input: z.ZodType;
  output: z.ZodType;
}

export type OperationName = keyof typeof operations;
export type OperationInput<N extends OperationName> = z.input<(typeof operations)[N]['input']>;
export type ParsedInput<N extends OperationName> = z.output<(typeof operations)[N]['input']>;
export type OperationOutput<N extends OperationName> = z.output<(typeof operations)[N]['output']>;

export const operationNames = Object.keys(operations) as OperationName[];

export function isOperationName(name: string): name is OperationName {
  return Object.prototype.hasOwnProperty.call(operations, name);
}

// ---------------------------------------------------------------------------------------
// Events (progress and lifecycle), pushed by a host to every front end

export const EngineEvent = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('index-progress'),
    phase: z.enum(['discover', 'index', 'sessions', 'embed']),
    done: z.number().int(),
    total: z.number().int(),
    path: z.string().nullable(),
  }),
  z.object({ type: z.literal('index-ready'), report: SyncReport }),
  z.object({ type: z.literal('index-error'), message: z.string() }),
  /** The knowledge graph changed (it is updated after `index-ready`). */
  z.object({ type: z.literal('graph-updated'), extracted: z.number().int(), removed: z.number().int(), entities: z.number().int(), claims: z.number().int() }),
  z.object({
    type: z.literal('dream-progress'),
    runId: z.string(),
    phase: z.enum(['light', 'rem', 'deep', 'consolidate', 'write']),
    done: z.number().int(),
    total: z.number().int(),
  }),
  z.object({ type: z.literal('dream-complete'), runId: z.string(), status: z.enum(['ok', 'nothing-to-do', 'skipped', 'failed']), reason: z.string().nullable() }),
  z.object({ type: z.literal('files-changed'), paths: z.array(z.string()) }),
  z.object({ type: z.literal('index-paused'), paused: z.boolean() }),
  /** Desktop app: the engine process stopped unexpectedly, is restarting, or runs again. */
  z.object({ type: z.literal('engine-state'), state: z.enum(['crashed', 'restarting', 'running']), message: z.string().nullable() }),
  /** Desktop app: a menu or tray command the window carries out. */
  z.object({ type: z.literal('app-command'), command: z.enum(['focus-search', 'show-view']), view: z.string().max(32).nullable() }),
  z.object({
    type: z.literal('import-progress'),
    phase: z.enum(['checking', 'staging', 'backup', 'commit', 'done']),
    done: z.number().int(),
    total: z.number().int(),
    path: z.string().nullable(),
  }),
  z.object({
    type: z.literal('model-download'),
    uri: z.string(),
    bytes: z.number(),
    total: z.number().nullable(),
    /** Bytes per second, smoothed. */
    rate: z.number(),
    etaSeconds: z.number().nullable(),
    done: z.boolean(),
  }),
]);
export type EngineEvent = z.infer<typeof EngineEvent>;

// ---------------------------------------------------------------------------------------
// Errors, as every transport reports them

export const ErrorCode = z.enum([
  'invalid-input',
  'not-found',
  'conflict',
  'workspace-missing',
  'locked',
  'forbidden',
  'too-large',
  'unauthenticated',
  'internal',
]);
export type ErrorCode = z.infer<typeof ErrorCode>;

export const ErrorPayload = z.object({ code: ErrorCode, message: z.string() });
export type ErrorPayload = z.infer<typeof ErrorPayload>;

/** The client side of the contract: what the renderer and tests talk to. */
export interface MemoryClient {
  call<N extends OperationName>(name: N, input: OperationInput<N>): Promise<OperationOutput<N>>;
  onEvent(listener: (event: EngineEvent) => void): () => void;
}
