import type { IndexedChunk } from '../index/indexStore.js';
import type { SessionKind } from '../contract/index.js';
import type { DocumentLine } from './transcriptDocument.js';
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

/** Messages rendered to indexed lines and chunked: what the engine thread writes in one transaction. */
export interface TranscriptBatch {
  lines: DocumentLine[];
  chunks: IndexedChunk[];
  messages: number;
}

export type WorkerToEngine =
  | { type: 'batch'; batch: TranscriptBatch }
  | { type: 'done'; outcome: TranscriptReadOutcome }
  | { type: 'failed'; code: string | null; message: string };

export type EngineToWorker = { type: 'read'; job: TranscriptReadJob } | { type: 'more' };

/** Messages per batch: a 2 GB transcript never sits in memory whole, and a batch is one write transaction. */
export const MESSAGE_BATCH = 2_000;
