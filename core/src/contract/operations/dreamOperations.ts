/** Dreaming: sweeps, runs, review, rollback, pre-images and the diary. */
import { z } from 'zod';
import { DreamConflict, DreamDiary, DreamRun, DreamRunSummary, DreamSchedule, DreamThresholds, PreImage } from '../records/dreamRecords.js';
import type { OperationSpec } from './spec.js';

export const dreamOperations = {
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
  'dream.conflicts': {
    access: 'read',
    summary: 'Contradictions the sweeps queued: two entries about the same thing that disagree and cannot be ordered by date.',
    input: z.object({ status: z.enum(['open', 'all']).default('open') }).strict(),
    output: z.object({ conflicts: z.array(DreamConflict) }),
  },
  'dream.resolve': {
    access: 'write',
    summary: 'Decide a contradiction: keep side a, side b, both, or dismiss it; the next sweep follows the decision.',
    input: z.object({ conflictId: z.string().min(1).max(200), decision: z.enum(['keep-a', 'keep-b', 'keep-both', 'dismissed']) }).strict(),
    output: DreamConflict,
  },
  'dream.diary': {
    access: 'read',
    summary: "The dream diary (Reverie's or OpenClaw's DREAMS.md), parsed leniently.",
    input: z.object({}).strict(),
    output: DreamDiary,
  },
} as const satisfies Record<string, OperationSpec>;
