import { answerFileGroups } from '../platform/fileGroupWorker.js';
import { classifiedFromRead, type EntryKindsJob } from './entryKindsJob.js';
import { readMarkdownFileSync } from './fileReader.js';

/**
 * An entry kinds thread: reads the files handed to it, hashes them and classifies their
 * entries (entryKinds.ts, pure functions of the text), in order; the engine thread only checks
 * each hash against the indexed one and writes the kinds. A blocking read is fine here: this
 * thread has nothing else to answer.
 */
answerFileGroups((job: EntryKindsJob) => classifiedFromRead(job, readMarkdownFileSync(job.absPath)));
