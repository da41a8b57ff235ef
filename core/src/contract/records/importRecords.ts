/** Imports of the memory other agent tools already wrote: detection, plans, reports. */
import { z } from 'zod';

export const ImportTool = z.enum(['codex', 'claude-code', 'hermes']);
export type ImportTool = z.infer<typeof ImportTool>;
export const ImportSourceSpec = z.object({ tool: ImportTool, home: z.string().min(1).max(4096).optional() }).strict();

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
