/** The engine's own log, for the window's Status view and bug reports. */
import { z } from 'zod';
import { LogLevel, RecentLogs } from '../records/logRecords.js';
import type { OperationSpec } from './spec.js';

/** The most records one call returns (the log folder is read from the end, bounded). */
const MAX_RECENT_LOG_RECORDS = 1000;

export const logOperations = {
  'logs.recent': {
    access: 'read',
    summary: 'Recent warnings and errors of the engine log (newest first), the log folder and whether logging works.',
    input: z
      .object({
        limit: z.number().int().min(1).max(MAX_RECENT_LOG_RECORDS).default(200),
        minLevel: LogLevel.default('warn'),
      })
      .strict(),
    output: RecentLogs,
  },
} as const satisfies Record<string, OperationSpec>;
