import { parentPort } from 'node:worker_threads';
import type { FileGroupReply, FileGroupRequest, FileGroupResult } from './fileGroupPool.js';

/**
 * The thread side of a FileGroupPool: answers each group with `work`'s value per file, in
 * order, or why it threw on that file (the other files are still worked). `transfer` names the
 * buffers a value moves to the engine thread instead of copying.
 */
export function answerFileGroups<J, R, O>(work: (job: J, options: O) => R, transfer: (value: R) => ArrayBuffer[] = () => []): void {
  const port = parentPort!;
  port.on('message', (request: FileGroupRequest<J, O>) => {
    const results = request.jobs.map((job): FileGroupResult<R> => {
      try {
        return { value: work(job, request.options) };
      } catch (error) {
        return { error: error instanceof Error ? error.message : String(error) };
      }
    });
    const moved = results.flatMap((r) => ('value' in r ? transfer(r.value) : []));
    port.postMessage({ id: request.id, results } satisfies FileGroupReply<R>, moved);
  });
}
