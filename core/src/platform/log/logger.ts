/** The logger every part of the engine writes through: levels, an area name, context fields. */
import type { LogLevel } from '../../contract/index.js';
// The levels alone, not the whole contract: hooks and `reverie mcp` log without loading zod.
import { LOG_LEVELS } from '../../contract/records/logLevels.js';
import type { LogFields } from './logRecord.js';

export type { LogFields } from './logRecord.js';

/**
 * Where records go (the engine's log, or nowhere). `write` never throws and never waits: a log
 * call costs a level check, and for enabled levels one redacted record in a buffer.
 */
export interface LogDestination {
  isEnabled(level: LogLevel): boolean;
  write(level: LogLevel, area: string, message: string, fields?: LogFields): void;
}

export interface Logger {
  readonly area: string;
  debug(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
  isEnabled(level: LogLevel): boolean;
  /** A logger for a part of this area: `index` → `index/watcher`. */
  child(name: string): Logger;
}

export const LEVEL_RANK: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

export function isLogLevel(text: string): text is LogLevel {
  return (LOG_LEVELS as readonly string[]).includes(text);
}

/** A logger over a destination read at every call (so the process-wide one can be pointed elsewhere later). */
export function loggerFor(destination: () => LogDestination | null, area: string): Logger {
  const write = (level: LogLevel) => (message: string, fields?: LogFields) => {
    const target = destination();
    if (target?.isEnabled(level)) target.write(level, area, message, fields);
  };
  return {
    area,
    debug: write('debug'),
    info: write('info'),
    warn: write('warn'),
    error: write('error'),
    isEnabled: (level) => destination()?.isEnabled(level) ?? false,
    child: (name) => loggerFor(destination, `${area}/${name}`),
  };
}

/** Writes nothing: for code run outside an engine (tests of single modules, tools). */
export const SILENT_LOGGER: Logger = loggerFor(() => null, 'silent');
