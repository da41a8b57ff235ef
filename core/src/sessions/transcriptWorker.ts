import { parentPort, workerData } from 'node:worker_threads';
import { readTranscript } from './readTranscript.js';
import { recalledLineMatcher, type RecalledTextCheck } from './recalled.js';
import { chunkTranscriptLines, renderMessages } from './transcriptDocument.js';
import { MESSAGE_BATCH, type EngineToWorker, type TranscriptReadJob, type WorkerToEngine } from './transcriptReadJob.js';
import type { TranscriptMessage } from './types.js';

/**
 * A transcript reader thread: streams one JSONL file at a time (parse, redact, strip recalled
 * memory, render, chunk) and hands the engine thread one batch at a time, waiting for `more`
 * before reading on, so at most one batch per reader is ever in memory.
 */
const port = parentPort!;
const { memoryLines } = workerData as { memoryLines: string[] };
let recalled: RecalledTextCheck | null = null;
let resumeReading: (() => void) | null = null;

port.on('message', (message: EngineToWorker) => {
  if (message.type === 'more') {
    resumeReading?.();
    return;
  }
  read(message.job).then(
    (outcome) => post({ type: 'done', outcome }),
    (error: unknown) => post({ type: 'failed', code: (error as NodeJS.ErrnoException).code ?? null, message: (error as Error).message ?? String(error) }),
  );
});

function post(message: WorkerToEngine): void {
  port.postMessage(message);
}

async function read(job: TranscriptReadJob) {
  recalled ??= recalledLineMatcher(memoryLines);
  const reader = readTranscript(job.absPath, {
    format: job.format,
    resume: job.resume,
    final: job.final,
    maxBytes: job.maxBytes,
    isRecalledText: recalled,
    ...(job.sessionKind ? { sessionKind: job.sessionKind } : {}),
  });
  let nextLine = job.firstLine;
  let batch: TranscriptMessage[] = [];
  const send = async (): Promise<void> => {
    const lines = renderMessages(batch, nextLine);
    const chunks = chunkTranscriptLines(lines, job.sessionKind ?? 'unknown');
    nextLine += lines.length;
    const messages = batch.length;
    batch = [];
    const more = new Promise<void>((resolve) => (resumeReading = resolve));
    post({ type: 'batch', batch: { lines, chunks, messages } });
    await more;
  };
  for (;;) {
    const step = await reader.next();
    if (step.done) {
      if (batch.length > 0) await send();
      return step.value;
    }
    batch.push(step.value);
    if (batch.length >= MESSAGE_BATCH) await send();
  }
}
