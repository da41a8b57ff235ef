/** Imports of the memory other agent tools already wrote: detection, plans, reports. */
import { z } from 'zod';
import { ImportTool } from '../vocabulary.js';

/** Which tool to read, and optionally its home folder (otherwise the tool's default). */
export const ImportSourceSpec = z.object({ tool: ImportTool, home: z.string().min(1).max(4096).optional() }).strict();
export type ImportSourceSpec = z.infer<typeof ImportSourceSpec>;

export const DetectedImportSource = z.object({
  tool: ImportTool,
  home: z.string(),
  exists: z.boolean(),
  /** Folders of memory inside the tool (a Claude project, a Hermes profile, Codex's memories). */
  collections: z.array(
    z.object({
      name: z.string(),
      /** The project's real path, from its transcripts' `cwd` (Claude Code); never decoded from a folder name. */
      projectPath: z.string().nullable(),
      /** Where this collection's files were found. */
      origin: z.string(),
      /**
       * Files that would be copied; `relPath` (inside the collection, `/`-separated) becomes the
       * tail of the destination; `skipReason` is set when a file is listed but must not be copied.
       */
      files: z.array(z.object({ absPath: z.string(), relPath: z.string(), skipReason: z.string().nullable() })),
    }),
  ),
  /** Session transcripts found (Codex rollouts): offered for session ingestion, never copied. */
  transcripts: z.number().int(),
  /** Things a person should know: missing home, unreadable folder, active profile, … */
  notes: z.array(z.string()),
});
export type DetectedImportSource = z.infer<typeof DetectedImportSource>;

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
  /** What the plan noted but did not list as an item (Hermes lock files and drift backups, unreadable folders); absent in older reports. */
  notes: z.array(z.string()).optional(),
  startedAt: z.string(),
  finishedAt: z.string(),
  reportPath: z.string().nullable(),
  markdownPath: z.string().nullable(),
});
export type ImportReport = z.infer<typeof ImportReport>;
