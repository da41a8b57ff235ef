import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { LogRecord } from '../src/contract/index.js';
import type { MemoryService } from '../src/engine/memoryService.js';
import { createTempWorkspace, openService, SAMPLE_NOTES, type TempWorkspace } from './helpers/workspace.js';

let ws: TempWorkspace;
let service: MemoryService | undefined;
afterEach(async () => {
  await service?.close();
  service = undefined;
  ws?.cleanup();
});

const logDir = () => path.join(ws.dataDir, 'logs');
function loggedRecords(): LogRecord[] {
  return fs
    .readdirSync(logDir())
    .flatMap((name) => fs.readFileSync(path.join(logDir(), name), 'utf8').split('\n'))
    .filter(Boolean)
    .map((line) => JSON.parse(line) as LogRecord);
}
const LOG_NOTICE = /^Reverie cannot write its log to /;

describe('the engine log, wired', () => {
  it('a sync logs its start and finish with counts and duration', async () => {
    ws = createTempWorkspace(SAMPLE_NOTES);
    service = openService(ws);
    await service.sync(false);
    await service.close();
    const records = loggedRecords();
    expect(records.find((r) => r.message === 'Indexing started')).toMatchObject({ level: 'info', area: 'index', fields: { workspace: ws.root, force: false } });
    expect(records.find((r) => r.message === 'Indexing finished')).toMatchObject({
      level: 'info',
      area: 'index',
      fields: { files: 7, added: 7, failed: 0, durationMs: expect.any(Number) },
    });
  });

  it('logs.recent returns a warning a feature logged (a damaged import report), with the log folder and the app', async () => {
    ws = createTempWorkspace(SAMPLE_NOTES);
    const reports = path.join(ws.dataDir, 'imports', 'reports');
    fs.mkdirSync(reports, { recursive: true });
    fs.writeFileSync(path.join(reports, 'broken.json'), '{"id": "half a report');
    service = openService(ws);
    expect(await service.invoke('import.reports', {})).toEqual({ reports: [] });

    const recent = await service.invoke('logs.recent', {});
    expect(recent.problem).toBeNull();
    expect(recent.logDir).toBe(logDir());
    expect(recent.records[0]).toMatchObject({
      level: 'warn',
      area: 'importers',
      message: 'An import report could not be read; left out of the list',
      fields: { file: 'broken.json' },
      error: { name: 'SyntaxError' },
    });
    expect(recent.app).toEqual({ version: expect.stringMatching(/^\d+\.\d+\.\d+/), platform: `${process.platform} ${process.arch}`, node: process.versions.node });
    // Only warnings and errors unless asked: the sync's info records are not among them.
    await service.sync(false);
    const after = await service.invoke('logs.recent', { limit: 5 });
    expect(after.records.every((r) => r.level === 'warn' || r.level === 'error')).toBe(true);
    const withInfo = await service.invoke('logs.recent', { minLevel: 'info', limit: 1 });
    expect(withInfo.records).toEqual([expect.objectContaining({ message: 'Indexing finished' })]);
  });

  it('an operation that fails with an internal error is logged as an error; bad input is not', async () => {
    ws = createTempWorkspace(SAMPLE_NOTES);
    service = openService(ws);
    await expect(service.invoke('files.read', { path: '../outside.md' })).rejects.toThrow();
    // A handler that breaks (a bug): the transport reports "internal", the log keeps the stack.
    (service.handlers as unknown as Record<string, () => Promise<never>>)['graph.overview'] = async () => {
      throw new TypeError('graph exploded');
    };
    await expect(service.invoke('graph.overview', {}, { transport: 'ui' })).rejects.toThrow('graph exploded');
    const recent = await service.invoke('logs.recent', {});
    expect(recent.records.filter((r) => r.message.startsWith('Operation files.read failed'))).toEqual([]);
    expect(recent.records[0]).toMatchObject({
      level: 'error',
      area: 'engine',
      message: 'Operation graph.overview failed',
      fields: { transport: 'ui' },
      error: { name: 'TypeError', message: 'graph exploded', stack: expect.stringContaining('engineLogWiring.test.ts') },
    });
  });

  it('a log folder that cannot be made: the engine works on and says so once, in Status', async () => {
    ws = createTempWorkspace(SAMPLE_NOTES);
    fs.mkdirSync(ws.dataDir, { recursive: true });
    fs.writeFileSync(logDir(), 'a file where the log folder should be');
    service = openService(ws);

    const before = await service.invoke('status', {});
    expect(before.notices.filter((n) => LOG_NOTICE.test(n))).toEqual([expect.stringContaining('a file is in the way of the folder (EEXIST)')]);

    const report = await service.sync(false);
    expect(report.files).toBe(7);
    expect(report.notices.filter((n) => LOG_NOTICE.test(n))).toHaveLength(1);
    const found = await service.invoke('memory.search', { query: 'restic backups', limit: 3 });
    expect(found.results.length).toBeGreaterThan(0);
    await service.sync(true);
    const later = await service.invoke('status', {});
    expect(later.notices.filter((n) => LOG_NOTICE.test(n))).toEqual([]);

    const recent = await service.invoke('logs.recent', {});
    expect(recent.problem).toMatch(LOG_NOTICE);
    expect(recent.records[0]).toMatchObject({ area: 'log', message: 'The log cannot be written' });
    expect(fs.readFileSync(logDir(), 'utf8')).toBe('a file where the log folder should be');
  });
});
