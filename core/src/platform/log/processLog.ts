/**
 * The process-wide log for deep utility code (file probes, parsers) that no service hands a
 * logger to. The engine points it at its log when it starts and back when it closes; until
 * then (tests of single modules, tools) it writes nothing, to stderr or anywhere else.
 */
import { loggerFor, type LogDestination, type Logger } from './logger.js';

let current: LogDestination | null = null;

/** Makes `destination` the process-wide log; the returned function restores the previous one if it is still current. */
export function setProcessLogDestination(destination: LogDestination): () => void {
  const previous = current;
  current = destination;
  return () => {
    if (current === destination) current = previous;
  };
}

/** A logger for `area` that writes wherever the process log points at the time of each call. */
export function processLogger(area: string): Logger {
  return loggerFor(() => current, area);
}
