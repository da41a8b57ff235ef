import os from 'node:os';

/**
 * How many reader threads (notes, transcripts) run beside the engine thread: the cores its
 * writes leave, at most two. On two cores that is one reader, which reads and chunks while the
 * engine thread writes SQLite (each thread costs a heap; measured at load 14 on 2 cores, two
 * transcript readers beside the writer only added memory).
 */
export function readerThreadCount(): number {
  return Math.max(1, Math.min(2, os.availableParallelism() - 1));
}
