/** The engine's log: one record per line of `<data>/logs/reverie-YYYY-MM-DD.log`. */
import { z } from 'zod';
import { LOG_LEVELS } from './logLevels.js';

export { LOG_LEVELS };
export const LogLevel = z.enum(LOG_LEVELS);
export type LogLevel = z.infer<typeof LogLevel>;

/** A caught error as the log keeps it (secrets already redacted). */
export const LoggedError = z.object({
  name: z.string(),
  message: z.string(),
  /** Node's errno code (`ENOENT`, `ENOSPC`, …) or a Reverie error code. */
  code: z.string().optional(),
  stack: z.string().optional(),
});
export type LoggedError = z.infer<typeof LoggedError>;

export const LogRecord = z.object({
  /** ISO 8601, UTC. */
  time: z.string(),
  level: LogLevel,
  /** The part of the engine that wrote it: `engine`, `index`, `dreaming`, `agents`, … */
  area: z.string(),
  message: z.string(),
  /** The process that wrote it (a host and one-shot CLI commands share the day's file). */
  pid: z.number().int().optional(),
  /** What the message is about: paths, counts, durations. */
  fields: z.record(z.string(), z.unknown()).optional(),
  error: LoggedError.optional(),
});
export type LogRecord = z.infer<typeof LogRecord>;

/** What a bug report needs besides the log. */
export const AppDescription = z.object({
  version: z.string(),
  /** `process.platform` and `process.arch` of the engine, e.g. `linux x64`. */
  platform: z.string(),
  node: z.string(),
});
export type AppDescription = z.infer<typeof AppDescription>;

export const RecentLogs = z.object({
  /** Newest first. */
  records: z.array(LogRecord),
  /** `<data>/logs`. */
  logDir: z.string(),
  /** Why the engine cannot write its log right now, or null when it can. */
  problem: z.string().nullable(),
  app: AppDescription,
});
export type RecentLogs = z.infer<typeof RecentLogs>;
