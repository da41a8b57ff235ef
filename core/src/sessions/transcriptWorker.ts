import { parentPort, workerData } from 'node:worker_threads';
import { readTranscript } from './readTranscript.js';
import { recalledHashMatcher, type RecalledTextCheck } from './recalled.js';
import { packTranscriptBatch } from './transcriptDocument.js';
import { BATCH_TEXT_CHARS, BATCHES_AHEAD, batchTransferList, MESSAGE_BATCH, type EngineToWorker, type TranscriptReadJob, type WorkerToEngine } from './transcriptReadJob.js';
import type { TranscriptMessage, TranscriptMeta } from './types.js';

/**
 * A transcript reader thread: streams the JSONL files handed to it, one after another (parse,
 * redact, strip recalled memory, render, chunk), and hands the engine thread batches, at most
 * BATCHES_AHEAD of them not yet written, across files: it reads on while the engine writes, and
 * memory stays at a few batches per reader.
 */
const port = parentPort!;
const { recalledKeys } = workerData as { recalledKeys: Float64Array };
let recalled: RecalledTextCheck | null = null;
// Batches sent and not yet acknowledged with `more`, and the read waiting for one to be.
let unwritten = 0;
let resumeReading: (() => void) | null = null;
// Reads run one after another, in the order they were handed over.
let queue: Promise<void> = Promise.resolve();

port.on('message', (message: EngineToWorker) => {
  if (message.type === 'more') {
    unwritten = Math.max(0, unwritten - 1);
    const resume = resumeReading;
    resumeReading = null;
    resume?.();
    return;
  }
  const { id, job } = message;
  queue = queue.then(() =>
    read(id, job).then(
      (outcome) => post({ type: 'done', id, outcome }),
      (error: unknown) => post({ type: 'failed', id, code: (error as NodeJS.ErrnoException).code ?? null, message: (error as Error).message ?? String(error) }),
    ),
  );
});

function post(message: WorkerToEngine): void {
  port.postMessage(message, message.type === 'batch' ? batchTransferList(message.batch) : []);
}

async function read(id: number, job: TranscriptReadJob) {
  recalled ??= recalledHashMatcher(recalledKeys);
  // The session's kind as read so far: chunks carry it, so the engine's final fix-up of the kind
  // rewrites no rows in the usual case (it rewrote every chunk of a 2 GB transcript).
  const liveMeta: { current: TranscriptMeta | null } = { current: null };
  const reader = readTranscript(job.absPath, {
    liveMeta,
    format: job.format,
    resume: job.resume,
    final: job.final,
    maxBytes: job.maxBytes,
    isRecalledText: recalled,
    ...(job.sessionKind ? { sessionKind: job.sessionKind } : {}),
  });
  let nextLine = job.firstLine;
  let batch: TranscriptMessage[] = [];
  let batchChars = 0;
  const send = async (): Promise<void> => {
    // The engine writes only the line map; the text travels once, in the chunks.
    const { linesJson, lineCount, chunks } = packTranscriptBatch(batch, nextLine, liveMeta.current?.sessionKind ?? job.sessionKind ?? 'unknown');
    nextLine += lineCount;
    const messages = batch.length;
    batch = [];
    batchChars = 0;
    while (unwritten >= BATCHES_AHEAD) await new Promise<void>((resolve) => (resumeReading = resolve));
    unwritten += 1;
    post({ type: 'batch', id, batch: { linesJson, lineCount, chunks, messages } });
  };
  for (;;) {
    const step = await reader.next();
    if (step.done) {
      if (batch.length > 0) await send();
      return step.value;
    }
    batch.push(step.value);
    batchChars += step.value.text.length;
    if (batch.length >= MESSAGE_BATCH || batchChars >= BATCH_TEXT_CHARS) await send();
  }
}
