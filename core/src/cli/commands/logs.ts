import { LOG_LEVELS, type LogRecord } from '../../contract/index.js';
import { logDirOf } from '../../platform/log/engineLog.js';
import { followLog } from '../../platform/log/followLog.js';
import { LEVEL_RANK } from '../../platform/log/logger.js';
import { parseLogLine, readRecentLogRecords } from '../../platform/log/readLog.js';
import { defineCommand } from '../command.js';
import { info, printJson } from '../output.js';

/**
 * `reverie logs [--follow] [--level L] [--limit N] [--json]`: the last N records of the engine
 * log across days (oldest first, like tail), then with --follow every new one until Ctrl-C.
 * Needs no engine: it reads `<data>/logs/` directly, so it works while a host runs.
 */
export const logsCommand = defineCommand({
  name: 'logs',
  summary: 'The engine log (<data>/logs): the last records across days, or new ones as they are written.',
  usage: [
    { line: 'logs [--level debug|info|warn|error] [--limit N] [--json]', summary: 'the last N records, oldest first (--json: one array)' },
    { line: 'logs --follow [--level L] [--json]', summary: 'then every new record until Ctrl-C (--json: one JSON line each)' },
  ],
  flags: {
    follow: { type: 'boolean', description: 'keep printing new records until Ctrl-C' },
    level: { type: 'string', choices: LOG_LEVELS, value: 'LEVEL', description: 'leave out records below this level' },
    limit: { type: 'number', integer: true, min: 1, max: 100_000, default: 200, value: 'N', description: 'how many of the last records' },
  },
  run: async (ctx, { follow, level, limit }) => showLog(logDirOf(ctx.dataDir), { json: ctx.json, follow, minLevel: level, limit }),
});

async function showLog(dir: string, { json, follow, minLevel, limit }: { json: boolean; follow: boolean; minLevel: LogRecord['level'] | undefined; limit: number }): Promise<number> {
  const show = (record: LogRecord) => process.stdout.write(json ? JSON.stringify(record) + '\n' : formatLogRecord(record));

  const records = (await readRecentLogRecords(dir, { limit, minLevel })).reverse();
  if (json && !follow) {
    printJson(records);
    return 0;
  }
  if (records.length === 0) info(`No log records${minLevel ? ` at ${minLevel} or above` : ''} in ${dir} yet.`);
  records.forEach(show);
  if (!follow) return 0;

  const controller = new AbortController();
  const stop = () => controller.abort();
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  try {
    await followLog(dir, {
      signal: controller.signal,
      onReady: () => info(`Following ${dir} (Ctrl-C to stop)…`),
      onLine: (line) => {
        const record = parseLogLine(line);
        if (record === null) {
          // Not a record (a hand edit, a line cut by a crash): shown as it is, unless filtering or JSON.
          if (!json && !minLevel) process.stdout.write(line + '\n');
        } else if (!minLevel || LEVEL_RANK[record.level] >= LEVEL_RANK[minLevel]) show(record);
      },
    });
  } finally {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
  }
  return 0;
}

/** One record for a terminal: local time, level, area, message, fields; the error below (with its stack for errors). */
export function formatLogRecord(record: LogRecord): string {
  const fields = Object.entries(record.fields ?? {}).map(([key, value]) => `${key}=${formatValue(value)}`);
  const head = [localTime(record.time), record.level.toUpperCase().padEnd(5), record.area, record.message, ...fields].join('  ');
  const lines = [head];
  if (record.error) {
    const { name, message, code, stack } = record.error;
    lines.push(`    ${name}${code ? ` [${code}]` : ''}: ${message}`);
    if (record.level === 'error' && stack) lines.push(...stack.split('\n').filter((l) => /^\s+at /.test(l) || l.startsWith('Caused by')).map((l) => `      ${l.trim()}`));
  }
  return lines.join('\n') + '\n';
}

function formatValue(value: unknown): string {
  if (typeof value === 'string') return /^[^\s"=]+$/.test(value) ? value : JSON.stringify(value);
  return JSON.stringify(value);
}

function localTime(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  const pad = (n: number, width = 2) => String(n).padStart(width, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}.${pad(d.getMilliseconds(), 3)}`;
}
