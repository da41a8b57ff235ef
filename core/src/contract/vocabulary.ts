/**
 * Words every layer shares, each declared once: where a text comes from, its trust class,
 * the kind of session that wrote it, a file's coverage status, a workspace path.
 */
import { z } from 'zod';
import { importTools, toolIds, transcriptTools, WORKSPACE_SOURCE } from './tools.js';

/**
 * Where an indexed text comes from: workspace memory, the dreaming diary (`DREAMS.md`, never
 * mixed into recall by default) or agent transcripts (`sessions`: searchable, never auto-injected).
 */
export const SourceKind = z.enum(['memory', 'dreams', 'sessions']);
export type SourceKind = z.infer<typeof SourceKind>;

/**
 * What kind of entry a line of notes is, read from its wording when it is indexed: tasks and
 * questions are work in progress, a time-bounded fact holds until its end (workspace/entryKind.ts).
 */
export const EntryKind = z.enum(['fact', 'preference', 'decision', 'procedure', 'event', 'task', 'question', 'time-bounded']);
export type EntryKind = z.infer<typeof EntryKind>;

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

/** Least trusted first: a chunk takes the least trusted class of its lines. */
const TRUST_ORDER: Record<OriginClass, number> = { untrusted: 0, system: 1, agent: 2, owner: 3 };

export function leastTrusted(classes: Iterable<OriginClass>, fallback: OriginClass = 'owner'): OriginClass {
  let result: OriginClass | null = null;
  for (const c of classes) if (result === null || TRUST_ORDER[c] < TRUST_ORDER[result]) result = c;
  return result ?? fallback;
}

/** Tools whose transcripts Reverie ingests (see tools.ts): `sessions/<tool>/…` in the index. */
export const TranscriptTool = z.enum(toolIds(transcriptTools()));
export type TranscriptTool = z.infer<typeof TranscriptTool>;

/** Tools whose memory Reverie imports (see tools.ts): `memory/imports/<tool>/…` in the workspace. */
export const ImportTool = z.enum(toolIds(importTools()));
export type ImportTool = z.infer<typeof ImportTool>;

/** Where a graph entity's evidence comes from: the workspace itself or an imported tool's memory. */
export const SourceTool = z.enum([WORKSPACE_SOURCE, ...toolIds(importTools())]);
export type SourceTool = z.infer<typeof SourceTool>;
