import { answerFileGroups } from '../platform/fileGroupWorker.js';
import { readMarkdownFileSync } from './fileReader.js';
import type { NoteReadJob } from './noteReadJob.js';
import { preparedFromRead, type PrepareOptions } from './notePreparation.js';

/**
 * A note reader thread: reads, decodes, hashes, chunks and dates the files handed to it, in
 * order, and hands the engine thread their prepared rows; the engine thread only writes them.
 * A blocking read is fine here: this thread has nothing else to answer. Vectors move to the
 * engine thread, not copied.
 */
answerFileGroups(
  (job: NoteReadJob, options: PrepareOptions) => preparedFromRead(job.file, job.previous, readMarkdownFileSync(job.file.absPath), options, job.lineOrigins),
  (prepared) => (prepared.vectors ? [prepared.vectors.buffer as ArrayBuffer] : []),
);
