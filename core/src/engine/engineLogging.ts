import { openEngineLog, type EngineLog } from '../platform/log/engineLog.js';
import type { Logger } from '../platform/log/logger.js';
import { setProcessLogDestination } from '../platform/log/processLog.js';
import type { Notices } from '../platform/notices.js';
import { redactSecrets } from '../sessions/redact.js';

export interface EngineLogging {
  log: EngineLog;
  /** The `engine` area. */
  logger: Logger;
  /** Flushes the log and hands the process-wide log back to whoever had it. */
  close(): Promise<void>;
}

/**
 * An engine's log under `<data>/logs/`, also the process-wide log (for utility code no service
 * hands a logger to) while the engine is open. A folder that cannot be written is told once,
 * as a notice; the engine works on regardless.
 */
export function startEngineLogging(dataDir: string, notices: Notices): EngineLogging {
  // The transcript redactor's provider-key patterns, on top of the log's own (tokens, Bearer, …).
  const log = openEngineLog(dataDir, { redact: (text) => redactSecrets(text).text, onProblem: (problem) => notices.push(problem) });
  const restore = setProcessLogDestination(log);
  return {
    log,
    logger: log.logger('engine'),
    close: async () => {
      await log.close();
      restore();
    },
  };
}
