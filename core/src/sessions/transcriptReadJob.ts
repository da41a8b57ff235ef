import type { PackedChunks } from '../index/packedChunks.js';
import type { SessionKind } from '../contract/index.js';
import type { TranscriptFormat, TranscriptReadOutcome, TranscriptResumeState } from './types.js';

/** One transcript to read off the engine thread (a `transcriptWorker` job), from where its last read stopped. */
export interface TranscriptReadJob {
  absPath: string;
  format: TranscriptFormat;
  resume: TranscriptResumeState | null;
  final: boolean;
  maxBytes: number;
  sessionKind?: SessionKind;
  /** Line number of the indexed text the first message renders to. */
  firstLine: number;
}

/**
 * Messages rendered to indexed lines and chunked: what the engine thread writes in one
 * transaction. Both tables' rows come packed as JSON, each written by one statement: the engine
 * thread, where every write happens, binds two strings instead of rebuilding and binding objects.
 */
export interface TranscriptBatch {
  /** JSON array of `[line, sourceLine, role, origin, timestamp]` as UTF-8 (see `packTranscriptBatch` and PackedChunks.json). */
  linesJson: Uint8Array;
  lineCount: number;
  chunks: PackedChunks;
  messages: number;
}

/** The buffers a batch message moves to the engine thread instead of copying. */
export function batchTransferList(batch: TranscriptBatch): ArrayBuffer[] {
  return [batch.linesJson.buffer as ArrayBuffer, batch.chunks.json.buffer as ArrayBuffer, batch.chunks.packed.buffer as ArrayBuffer, batch.chunks.texts.buffer as ArrayBuffer];
}

/** What a reader says about one of its reads (`id`: the job's, as the engine numbered it). */
export type WorkerToEngine =
  | { type: 'batch'; id: number; batch: TranscriptBatch }
  | { type: 'done'; id: number; outcome: TranscriptReadOutcome }
  | { type: 'failed'; id: number; code: string | null; message: string };

/** `read`: queued behind the reader's earlier reads. `more`: one batch was written, the reader may send another. */
export type EngineToWorker = { type: 'read'; id: number; job: TranscriptReadJob } | { type: 'more' };

/** Messages per batch: a 2 GB transcript never sits in memory whole, and a batch is one write transaction. */
export const MESSAGE_BATCH = 2_000;
/**
 * Characters of message text per batch: a batch of long messages (pasted logs, long answers) is
 * cut early, so a reader's memory stays bounded (~2,000 messages of 1,000 characters fit).
 */
export const BATCH_TEXT_CHARS = 2 * 1024 * 1024;
/**
 * Batches a reader may have sent and not yet seen written: two lets it read the next batch while
 * the engine thread writes this one, and bounds what waits in memory to two batches per reader.
 */
export const BATCHES_AHEAD = 2;
