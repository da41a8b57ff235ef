import type { HandlersFor } from '../../contract/index.js';
import { processLogger } from '../../platform/log/processLog.js';
import type { RecallRecorder } from './recallRecorder.js';

const log = processLogger('dreaming/recall');

/**
 * The reads that use a search's results: an agent's memory_get of a result's lines, the
 * window opening a result's file. Each successful read is handed to the recorder, which keeps
 * it only when it follows one of that caller's searches (see `recordUse`).
 */
export function withResultUse<H extends HandlersFor<'memory.get' | 'files.read'>>(handlers: H, recorder: RecallRecorder): H {
  const get = handlers['memory.get'];
  const read = handlers['files.read'];
  return {
    ...handlers,
    'memory.get': async (input, context) => {
      const output = await get(input, context);
      recordQuietly(() => recorder.recordUse(output.path, output.from, output.from + Math.max(0, output.lines - 1), context.transport));
      return output;
    },
    'files.read': async (input, context) => {
      const output = await read(input, context);
      recordQuietly(() => recorder.recordUse(input.path, 1, null, context.transport));
      return output;
    },
  };
}

// A use is a hint for dreaming: failing to store it must never fail the read.
function recordQuietly(write: () => number): void {
  try {
    write();
  } catch (error) {
    log.warn('A used result could not be recorded', { error });
  }
}
