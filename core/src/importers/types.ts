/** The agent tools whose memory Reverie can import; also the folder under `memory/imports/`. */
export type ImportTool = 'codex' | 'claude-code' | 'hermes';

export const IMPORT_TOOLS: readonly ImportTool[] = ['codex', 'claude-code', 'hermes'];

/** Which tool to read, and optionally its home folder (otherwise the tool's default). */
export interface ImportSourceSpec {
  tool: ImportTool;
  home?: string;
}

/** A file found in a tool's home that would be copied (or is reported as skipped). */
export interface DetectedFile {
  absPath: string;
  /** Path inside the collection, `/`-separated; becomes the tail of the destination. */
  relPath: string;
  /** Set when the file is listed but must not be copied (symlink, unreadable folder, …). */
  skipReason: string | null;
}

/** One folder of memory inside a tool (a Claude project, a Hermes profile, Codex's memories). */
export interface DetectedCollection {
  name: string;
  /** The project's real path, from its transcripts' `cwd` (Claude Code); never decoded from a folder name. */
  projectPath: string | null;
  /** Where this collection's files were found. */
  origin: string;
  files: DetectedFile[];
}

export interface DetectedSource {
  tool: ImportTool;
  home: string;
  exists: boolean;
  collections: DetectedCollection[];
  /** Session transcripts found (Codex rollouts): offered for session ingestion, never copied. */
  transcripts: number;
  /** Things a person should know: missing home, unreadable folder, active profile, … */
  notes: string[];
}

export type ImportItemStatus = 'new' | 'unchanged' | 'conflict' | 'skipped';

export interface ImportPlanItem {
  tool: ImportTool;
  collection: string;
  sourcePath: string;
  size: number;
  sha256: string | null;
  /** Workspace-relative, `/`-separated, under `memory/imports/<tool>/<collection>/`; null when rejected. */
  destination: string | null;
  status: ImportItemStatus;
  reason: string | null;
}

export interface ImportPlanOptions {
  maxFileBytes: number;
  maxFilesPerCollection: number;
  /** Whether Claude Code's `CLAUDE.md` was offered. */
  includeClaudeMd: boolean;
}

export interface ImportPlan {
  version: 1;
  createdAt: string;
  workspaceRoot: string;
  sources: ImportSourceSpec[];
  options: ImportPlanOptions;
  items: ImportPlanItem[];
  notes: string[];
  /** SHA-256 over every item's source path, size, hash and destination. */
  fingerprint: string;
}

export type ImportAction = 'copied' | 'replaced' | 'unchanged' | 'skipped';

export interface ImportReportItem {
  tool: ImportTool;
  collection: string;
  sourcePath: string;
  destination: string | null;
  sha256: string | null;
  action: ImportAction;
  reason: string | null;
  /** Where the replaced file was saved, workspace-independent absolute path. */
  backupPath: string | null;
}

export interface ImportReport {
  id: string;
  outcome: 'completed' | 'failed';
  /** Why the apply stopped (disk full, …); nothing was imported when set. */
  error: string | null;
  workspaceRoot: string;
  planFingerprint: string;
  copied: number;
  skipped: number;
  replaced: number;
  unchanged: number;
  items: ImportReportItem[];
  backupDir: string | null;
  startedAt: string;
  finishedAt: string;
  /** Where this report was saved (JSON), or null when it could not be written. */
  reportPath: string | null;
  markdownPath: string | null;
}

export interface ImportProgress {
  phase: 'checking' | 'staging' | 'backup' | 'commit' | 'done';
  done: number;
  total: number;
  path: string | null;
}
