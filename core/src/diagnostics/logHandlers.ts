/** `logs.recent`: the engine log's recent warnings and errors, for the window's Status view and bug reports. */
import type { HandlersFor } from '../contract/index.js';
import type { EngineLog } from '../platform/log/engineLog.js';
import { packageVersion } from '../platform/packageRoot.js';

export function logHandlers(log: EngineLog): HandlersFor<'logs.recent'> {
  return {
    'logs.recent': async ({ limit, minLevel }) => ({
      records: await log.recent(limit, minLevel),
      logDir: log.dir,
      problem: log.problem,
      app: { version: packageVersion(), platform: `${process.platform} ${process.arch}`, node: process.versions.node },
    }),
  };
}
