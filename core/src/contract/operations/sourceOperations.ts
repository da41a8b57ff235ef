/** Transcripts, imports, provenance and forgetting: where memory comes from. */
import { z } from 'zod';
import { IngestReport } from '../records/indexRecords.js';
import { DetectedImportSource, ImportPlan, ImportReport, ImportSourceSpec } from '../records/importRecords.js';
import { ForgetReport, ProvenanceChain } from '../records/provenanceRecords.js';
import { TranscriptTool, WorkspacePath } from '../vocabulary.js';
import type { OperationSpec } from './spec.js';

export const sourceOperations = {
  'sessions.ingest': {
    access: 'write',
    summary: "Ingest agent transcripts from the tools' home folders (those given, else every default home that exists); remembered in settings.",
    input: z
      .object({
        /** Home folders by tool id; null stops ingesting that tool. None given: every tool's default home that exists. */
        homes: z.partialRecord(TranscriptTool, z.string().min(1).max(4096).nullable()).default({}),
      })
      .strict(),
    output: IngestReport,
  },
  'import.detect': {
    access: 'read',
    summary: 'Find the memory other agent tools already wrote (their default homes, or the ones given).',
    input: z.object({ sources: z.array(ImportSourceSpec).max(20).optional() }).strict(),
    output: z.object({ sources: z.array(DetectedImportSource) }),
  },
  'import.plan': {
    access: 'read',
    summary: 'List every item an import would copy, with destination, conflicts and a fingerprint.',
    input: z.object({ sources: z.array(ImportSourceSpec).max(20).optional() }).strict(),
    output: ImportPlan,
  },
  'import.apply': {
    access: 'write',
    summary: 'Copy a plan into memory/imports/ (staged, atomic; conflicts skipped unless replace, with verified backups).',
    input: z
      .object({
        plan: ImportPlan.optional(),
        sources: z.array(ImportSourceSpec).max(20).optional(),
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
} as const satisfies Record<string, OperationSpec>;
