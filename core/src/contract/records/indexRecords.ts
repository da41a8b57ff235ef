/** The index's records: per-file coverage, a sync's report, a transcript ingestion's report. */
import { z } from 'zod';
import { EntryKind, FileStatus, SourceKind } from '../vocabulary.js';

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

/** One entry's kind as the index stored it: its lines, its kind, and for a time-bounded entry the last day it holds. */
export const EntryKindSpan = z.object({
  startLine: z.number().int().positive(),
  endLine: z.number().int().positive(),
  kind: EntryKind,
  /** YYYY-MM-DD; null when the entry is not time-bounded or its end could not be read. */
  validUntil: z.string().nullable(),
  /** The wording that decided it: "a checkbox", "a question mark", "a kind annotation". */
  cue: z.string(),
});
export type EntryKindSpan = z.infer<typeof EntryKindSpan>;

export const IndexState = z.enum(['idle', 'indexing', 'ready', 'error']);
export type IndexState = z.infer<typeof IndexState>;

/**
 * The derived work that follows `index-ready` (the entries' kinds, then the knowledge graph):
 * `running` in background slices, `waiting` for a sync (the running one, or the next: after a
 * restart), `done` when it has caught up. `done`/`total` count the memory files the graph has
 * caught up with; `kinds`, the same for the entries' kinds while they are behind.
 */
export const DerivedProgress = z.object({
  state: z.enum(['done', 'running', 'waiting']),
  done: z.number().int(),
  total: z.number().int(),
  /** Set while the entries' kinds lag behind the index (derived after search is ready, before the graph): memory files with their kinds, of all. */
  kinds: z.object({ done: z.number().int(), total: z.number().int() }).optional(),
  /** Set while the index is compacted once after an upgrade (searches work; syncs wait): bytes of the compacted file written so far. */
  compaction: z.object({ doneBytes: z.number().int(), totalBytes: z.number().int() }).optional(),
});
export type DerivedProgress = z.infer<typeof DerivedProgress>;

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
  sessions: IngestReport.optional(),
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
