/** Where a line came from, and what forgetting removed. */
import { z } from 'zod';
import { OriginClass, SessionKind, SourceKind, TranscriptTool } from '../vocabulary.js';
import { EntryKindSpan } from './indexRecords.js';

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
  /** The kind of each entry in the range, as the index stored it (absent for transcripts, and while the file's kinds are still being derived after an index or an edit). */
  entryKinds: z.array(EntryKindSpan).optional(),
  /** For transcript text: the session and each cited line's JSONL source line. */
  transcript: z
    .object({
      tool: TranscriptTool,
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

export const ForgetReport = z.object({
  dryRun: z.boolean(),
  /** Index entries removed (or that would be). */
  removed: z.object({ files: z.array(z.string()), chunks: z.number().int(), vectors: z.number().int() }),
  tombstone: z.object({ kind: z.enum(['session', 'path']), key: z.string() }),
  /** Workspace Markdown is never deleted by forget: files that still contain the text. */
  stillInWorkspace: z.array(z.object({ path: z.string(), lines: z.array(z.number().int()) })),
});
export type ForgetReport = z.infer<typeof ForgetReport>;
