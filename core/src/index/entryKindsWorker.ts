import { parentPort } from 'node:worker_threads';
import { classifiedFromRead, type EntryKindsReply, type EntryKindsRequest } from './entryKindsJob.js';
import { readMarkdownFileSync } from './fileReader.js';

/**
 * An entry kinds thread: reads the files handed to it, hashes them and classifies their
 * entries (entryKinds.ts, pure functions of the text), in order; the engine thread only checks
 * each hash against the indexed one and writes the kinds. A blocking read is fine here: this
 * thread has nothing else to answer.
 */
const port = parentPort!;

port.on('message', (request: EntryKindsRequest) => {
  const results = request.jobs.map((job): EntryKindsReply['results'][number] => {
    try {
      return { classified: classifiedFromRead(job, readMarkdownFileSync(job.absPath)) };
    } catch (error) {
      return { error: error instanceof Error ? error.message : String(error) };
    }
  });
  port.postMessage({ id: request.id, results } satisfies EntryKindsReply);
});
