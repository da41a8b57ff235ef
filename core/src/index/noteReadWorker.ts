import { parentPort } from 'node:worker_threads';
import { readMarkdownFileSync } from './fileReader.js';
import type { NoteReadReply, NoteReadRequest, NoteReadResult } from './noteReadJob.js';
import { preparedFromRead } from './notePreparation.js';

/**
 * A note reader thread: reads, decodes, hashes, chunks and dates the files handed to it, in
 * order, and hands the engine thread their prepared rows; the engine thread only writes them.
 * A blocking read is fine here: this thread has nothing else to answer.
 */
const port = parentPort!;

port.on('message', (request: NoteReadRequest) => {
  const results = request.jobs.map((job): NoteReadResult => {
    try {
      return { prepared: preparedFromRead(job.file, job.previous, readMarkdownFileSync(job.file.absPath), request.options, job.lineOrigins) };
    } catch (error) {
      return { error: error instanceof Error ? error.message : String(error) };
    }
  });
  // Vectors move to the engine thread, not copied.
  const transfer = results.flatMap((r) => ('prepared' in r && r.prepared.vectors ? [r.prepared.vectors.buffer as ArrayBuffer] : []));
  port.postMessage({ id: request.id, results } satisfies NoteReadReply, transfer);
});
