/** Turning a log call into the record that is written: redacted, JSON-safe, bounded. */
import type { LogLevel, LogRecord, LoggedError } from '../../contract/index.js';
import type { Redactor } from './redaction.js';

/**
 * What a log call says about its subject. An `error` field (anything caught) becomes the
 * record's error: name, message, errno code and stack.
 */
export type LogFields = Record<string, unknown> & { error?: unknown };

const MAX_STACK_CHARS = 8000;

export function buildLogRecord(level: LogLevel, area: string, message: string, fields: LogFields | undefined, at: Date, redactor: Redactor): LogRecord {
  const record: LogRecord = { time: at.toISOString(), level, area, message: redactor.text(message), pid: process.pid };
  if (fields) {
    const { error, ...rest } = fields;
    if (Object.keys(rest).length > 0) record.fields = redactor.value(rest) as Record<string, unknown>;
    if (error !== undefined) record.error = describeError(error, redactor);
  }
  return record;
}

export function describeError(error: unknown, redactor: Redactor): LoggedError {
  if (!(error instanceof Error)) return { name: 'Thrown value', message: redactor.text(String(redactor.value(error))) };
  const described: LoggedError = { name: error.name, message: redactor.text(error.message) };
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' || typeof code === 'number') described.code = String(code);
  if (error.stack) described.stack = redactor.text(error.stack, MAX_STACK_CHARS);
  const cause = (error as { cause?: unknown }).cause;
  if (cause instanceof Error && described.stack) described.stack += `\nCaused by: ${redactor.text(cause.stack ?? `${cause.name}: ${cause.message}`)}`;
  return described;
}
