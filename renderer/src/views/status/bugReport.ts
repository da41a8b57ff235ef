import type { LogRecord, RecentLogs, StatusOutput } from '../../../../core/src/contract/index.js';

/**
 * The plain text "Copy for a bug report" puts on the clipboard: the app and platform, the
 * index at a glance, whether logging works, and the recent warnings and errors. The records
 * come from the engine with their secrets already redacted; nothing else of the person's
 * memory (no file text, no search) is included.
 */
export function bugReportText(log: RecentLogs, status: StatusOutput | null, generatedAt = new Date()): string {
  const lines = [
    'Reverie bug report',
    `Version: ${log.app.version} · Platform: ${log.app.platform} · Node ${log.app.node}`,
    `Generated: ${generatedAt.toISOString()}`,
  ];
  if (status) {
    const { index } = status;
    lines.push(
      `Index: ${index.state}${index.paused ? ' (paused)' : ''} · ${index.files} files (${index.indexed} indexed, ${index.skipped} skipped, ${index.failed} failed) · ${index.chunks} chunks`,
      `Embedding: ${status.embedding.provider} ${status.embedding.model} · ${status.embedding.embedded}/${status.embedding.total} · vectors ${status.embedding.vectorBackend}`,
    );
    if (index.lastError) lines.push(`Last indexing error: ${index.lastError}`);
  }
  lines.push(`Log folder: ${log.logDir}`, `Logging: ${log.problem ? `not working: ${log.problem}` : 'working'}`, '');
  lines.push(log.records.length === 0 ? 'No recent warnings or errors.' : `Recent warnings and errors (${log.records.length}, newest first):`);
  for (const record of log.records) lines.push(...recordLines(record));
  return lines.join('\n') + '\n';
}

function recordLines(record: LogRecord): string[] {
  const fields = Object.entries(record.fields ?? {}).map(([key, value]) => `${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`);
  const lines = [`${record.time} ${record.level.toUpperCase()} [${record.area}] ${record.message}${fields.length > 0 ? ` (${fields.join(', ')})` : ''}`];
  if (record.error) {
    const { name, code, message, stack } = record.error;
    lines.push(`    ${name}${code ? ` [${code}]` : ''}: ${message}`);
    if (stack) for (const line of stack.split('\n').slice(1, 12)) lines.push(`      ${line.trim()}`);
  }
  return lines;
}
