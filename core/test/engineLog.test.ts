import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { LogRecord } from '../src/contract/index.js';
import { EngineLog, logLevelFromEnvironment, type EngineLogOptions } from '../src/platform/log/engineLog.js';
import { readRecentLogRecords } from '../src/platform/log/readLog.js';
import { secret } from '../src/platform/log/redaction.js';
import { redactSecrets } from '../src/sessions/redact.js';

let base: string;
let logs: EngineLog[];
beforeEach(() => {
  base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'reverie-log-')));
  logs = [];
});
afterEach(async () => {
  for (const log of logs) await log.close();
  fs.rmSync(base, { recursive: true, force: true });
});

const dir = () => path.join(base, 'logs');
function open(options: Partial<EngineLogOptions> = {}): EngineLog {
  const log = new EngineLog({ dir: dir(), ...options });
  logs.push(log);
  return log;
}
const recordsIn = (file: string): LogRecord[] =>
  fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as LogRecord);
/** A moment on a given local day (noon, so no time zone moves it to another day). */
const onDay = (day: string, hour = 12) => new Date(`${day}T${String(hour).padStart(2, '0')}:00:00`);

describe('engine log', () => {
  it('writes records at or above its level, as JSON lines with area, fields and the error', async () => {
    const log = open({ level: 'warn', now: () => onDay('2026-12-02') });
    const index = log.logger('index');
    index.debug('not written');
    index.info('not written either');
    const cause = Object.assign(new Error('no space left'), { code: 'ENOSPC' });
    index.warn('A file could not be read', { path: 'memory/a.md', bytes: 12, error: cause });
    index.child('watcher').error('The watcher stopped');
    await log.flush();

    const records = recordsIn(path.join(dir(), 'reverie-2026-12-02.log'));
    expect(records.map((r) => [r.level, r.area, r.message])).toEqual([
      ['warn', 'index', 'A file could not be read'],
      ['error', 'index/watcher', 'The watcher stopped'],
    ]);
    expect(records[0]).toMatchObject({ fields: { path: 'memory/a.md', bytes: 12 }, error: { name: 'Error', message: 'no space left', code: 'ENOSPC' }, pid: process.pid });
    expect(records[0]!.error!.stack).toContain('engineLog.test.ts');
    expect(Date.parse(records[0]!.time)).toBe(onDay('2026-12-02').getTime());
  });

  it('logs at info by default; REVERIE_LOG_LEVEL chooses another level, and a wrong one says so', () => {
    expect(open().level).toBe('info');
    expect(logLevelFromEnvironment({})).toEqual({ level: 'info', note: null });
    expect(logLevelFromEnvironment({ REVERIE_LOG_LEVEL: 'DEBUG' })).toEqual({ level: 'debug', note: null });
    expect(logLevelFromEnvironment({ REVERIE_LOG_LEVEL: 'loud' })).toEqual({ level: 'info', note: expect.stringContaining('REVERIE_LOG_LEVEL=loud is not a level') });
  });

  it('keeps one file per local day and deletes days older than it keeps', async () => {
    fs.mkdirSync(dir(), { recursive: true });
    for (const old of ['reverie-2026-11-20.log', 'reverie-2026-11-20.log.1', 'reverie-2026-11-29.log']) fs.writeFileSync(path.join(dir(), old), '{}\n');
    fs.writeFileSync(path.join(dir(), 'notes.txt'), 'not a log');
    let now = onDay('2026-11-30', 23);
    const log = open({ now: () => now, sink: { keepDays: 2 } });
    log.logger('engine').info('late on the 30th');
    await log.flush();
    now = onDay('2026-12-01', 0);
    log.logger('engine').info('just after midnight');
    await log.flush();

    expect(fs.readdirSync(dir()).sort()).toEqual(['notes.txt', 'reverie-2026-11-30.log', 'reverie-2026-12-01.log']);
    expect(recordsIn(path.join(dir(), 'reverie-2026-11-30.log')).map((r) => r.message)).toEqual(['late on the 30th']);
    expect(recordsIn(path.join(dir(), 'reverie-2026-12-01.log')).map((r) => r.message)).toEqual(['just after midnight']);
  });

  it('rotates a full file to .1, .2 and drops the oldest part, so a day stays under its cap', async () => {
    const maxFileBytes = 1500;
    const log = open({ now: () => onDay('2026-12-02'), sink: { maxFileBytes, rotatedParts: 2 } });
    for (let i = 0; i < 60; i++) {
      log.logger('index').info(`record ${i}`, { padding: 'x'.repeat(100) });
      await log.flush();
    }
    const names = fs.readdirSync(dir()).sort();
    expect(names).toEqual(['reverie-2026-12-02.log', 'reverie-2026-12-02.log.1', 'reverie-2026-12-02.log.2']);
    for (const name of names) expect(fs.statSync(path.join(dir(), name)).size).toBeLessThanOrEqual(maxFileBytes);
    const current = recordsIn(path.join(dir(), names[0]!));
    const older = recordsIn(path.join(dir(), names[1]!));
    expect(current.at(-1)!.message).toBe('record 59');
    // Parts are contiguous: .1 ends where the current file starts.
    expect(Number(older.at(-1)!.message.split(' ')[1]) + 1).toBe(Number(current[0]!.message.split(' ')[1]));
    // The newest records come back first, across the parts.
    const recent = await log.recent(12, 'info');
    expect(recent.map((r) => r.message)).toEqual(Array.from({ length: 12 }, (_, i) => `record ${59 - i}`));
  });

  it('reads back every record of a large file, newest first, whole lines across its read chunks', async () => {
    const log = open({ now: () => onDay('2026-12-02') });
    const total = 3000;
    for (let i = 0; i < total; i++) log.logger('index').info(`Zürich ✓ record ${i}`, { note: 'ä'.repeat(i % 97) });
    await log.flush();
    expect(fs.statSync(path.join(dir(), 'reverie-2026-12-02.log')).size).toBeGreaterThan(4 * 64 * 1024);
    const all = await readRecentLogRecords(dir(), { limit: total + 10 });
    expect(all.map((r) => r.message)).toEqual(Array.from({ length: total }, (_, i) => `Zürich ✓ record ${total - 1 - i}`));
    expect(all.every((r, i) => r.fields!.note === 'ä'.repeat((total - 1 - i) % 97))).toBe(true);
  });

  it('never writes secrets: agent tokens, bearer credentials, token parameters, secret fields and registered values', async () => {
    const log = open({ level: 'debug', redact: (text) => redactSecrets(text).text });
    const token = 'rvr_' + 'A1b2C3d4'.repeat(5) + 'xyz';
    const launchToken = 'f00dfeedcafe0123456789abcdef';
    log.addSecret(launchToken);
    const agents = log.logger('agents');
    agents.warn(`Agent call refused for token ${token}`, {
      header: 'Authorization: Bearer abc.def-ghi',
      url: `http://127.0.0.1:4321/#token=${launchToken}`,
      query: '/api/events?token=s3cr3tvalue&x=1',
      apiKey: 'plain-looking-value',
      nested: { password: 'hunter2hunter2', note: secret('the person said so') },
      list: [`again ${token}`],
    });
    agents.error('Model download failed', { error: new Error(`GET https://example.test/m.gguf?access_token=hf_abcdefghijklmnop failed with key sk-ant-api03-${'q'.repeat(30)}`) });
    await log.flush();

    const text = fs.readdirSync(dir()).map((name) => fs.readFileSync(path.join(dir(), name), 'utf8')).join('');
    for (const leaked of [token, 'abc.def-ghi', launchToken, 's3cr3tvalue', 'plain-looking-value', 'hunter2hunter2', 'the person said so', 'hf_abcdefghijklmnop', 'q'.repeat(30)]) {
      expect(text).not.toContain(leaked);
    }
    expect(text).toContain('rvr_[redacted]');
    expect(text).toContain('Bearer [redacted]');
    expect(text).toContain('x=1'); // the rest of the URL stays readable
    const [refused] = await log.recent(10, 'warn').then((records) => records.filter((r) => r.area === 'agents' && r.level === 'warn'));
    expect(refused!.fields).toMatchObject({ apiKey: '[redacted]', nested: { password: '[redacted]', note: '[redacted]' } });
  });

  it('a log folder that is a file: the engine is told once, records stay in memory, nothing throws', async () => {
    fs.writeFileSync(dir(), 'a file where the folder should be');
    const told: string[] = [];
    const log = open({ onProblem: (problem) => told.push(problem) });
    for (let i = 0; i < 5; i++) {
      expect(() => log.logger('index').warn(`warning ${i}`)).not.toThrow();
      await log.flush();
    }
    expect(told).toHaveLength(1);
    expect(told[0]).toContain(`Reverie cannot write its log to ${dir()}: a file is in the way of the folder (EEXIST)`);
    expect(log.problem).toBe(told[0]);
    const recent = await log.recent(10);
    expect(recent.filter((r) => r.area === 'index').map((r) => r.message)).toEqual(['warning 4', 'warning 3', 'warning 2', 'warning 1', 'warning 0']);
    expect(fs.readFileSync(dir(), 'utf8')).toBe('a file where the folder should be');
  });

  it('a full disk: told once with the reason, records counted as dropped, and the log resumes when space is back', async () => {
    let diskFull = true;
    const told: string[] = [];
    const log = open({
      now: () => onDay('2026-12-02'),
      onProblem: (problem) => told.push(problem),
      sink: {
        appendFile: async (file, text) => {
          if (diskFull) throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
          await fs.promises.appendFile(file, text);
        },
      },
    });
    const engine = log.logger('engine');
    engine.warn('first');
    await log.flush();
    engine.warn('second');
    await log.flush();
    expect(told).toEqual([expect.stringContaining('the disk is full (ENOSPC)')]);
    expect(log.problem).toContain('ENOSPC');

    diskFull = false;
    engine.warn('third');
    await log.flush();
    expect(log.problem).toBeNull();
    const records = recordsIn(path.join(dir(), 'reverie-2026-12-02.log'));
    expect(records.map((r) => r.message)).toEqual(['2 log records were dropped (the log could not keep up, or could not be written).', 'third']);
    expect(told).toHaveLength(1);
  });

  it('a record it cannot describe, or more than its buffer holds, still never throws', async () => {
    const log = open({ now: () => onDay('2026-12-02'), sink: { maxBufferedBytes: 600 } });
    const hostile = {
      get value(): string {
        throw new Error('getter exploded');
      },
    };
    const circular: Record<string, unknown> = { name: 'loop' };
    circular.self = circular;
    const engine = log.logger('engine');
    expect(() => engine.warn('hostile field', { hostile })).not.toThrow();
    expect(() => engine.warn('circular field', { circular })).not.toThrow();
    for (let i = 0; i < 20; i++) engine.info(`burst ${i}`);
    await log.flush();
    const records = recordsIn(path.join(dir(), 'reverie-2026-12-02.log'));
    expect(records[0]).toMatchObject({ message: expect.stringMatching(/^\d+ log records were dropped/) });
    expect(records.find((r) => r.message === 'hostile field')!.fields).toEqual({ unloggableFields: 'Error: getter exploded' });
    expect(records.find((r) => r.message === 'circular field')!.fields).toMatchObject({ circular: { name: 'loop', self: { name: 'loop' } } });
  });
});
