import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { MemoryService } from '../src/engine/memoryService.js';
import { createTempWorkspace, openService, SAMPLE_NOTES, type TempWorkspace } from './helpers/workspace.js';

let ws: TempWorkspace;
let service: MemoryService | undefined;
afterEach(async () => {
  await service?.close();
  service = undefined;
  ws?.cleanup();
});

const sync = (s: MemoryService, force = false) => s.invoke('index.sync', { force });
const status = (s: MemoryService) => s.invoke('status', {});
const search = async (s: MemoryService, query: string, extra: object = {}) =>
  (await s.invoke('memory.search', { query, ...extra })).results;

describe('index sync', () => {
  it('indexes a workspace, then skips unchanged files, re-chunks changed ones and drops deleted ones', async () => {
    ws = createTempWorkspace(SAMPLE_NOTES);
    service = openService(ws);
    const first = await sync(service);
    expect(first).toMatchObject({ files: 7, added: 7, updated: 0, removed: 0, failed: 0, skipped: 0 });
    expect(first.chunks).toBeGreaterThanOrEqual(7);

    const again = await sync(service);
    expect(again).toMatchObject({ added: 0, updated: 0, removed: 0, unchanged: 7 });

    // Same bytes, new mtime: recognised by hash, not re-chunked.
    const touched = path.join(ws.root, 'USER.md');
    fs.utimesSync(touched, new Date(), new Date(Date.now() + 5000));
    expect(await sync(service)).toMatchObject({ updated: 0, unchanged: 7 });

    ws.write('memory/2026-04-05.md', '# 2026-04-05\n\n- Dentist appointment cancelled; rebooked for May.\n');
    ws.remove('memory/2026-04-01.md');
    const changed = await sync(service);
    expect(changed).toMatchObject({ updated: 1, removed: 1, files: 6 });
    expect(await search(service, 'rebooked')).toHaveLength(1);
    expect(await search(service, 'cutoff')).toHaveLength(0);
  });

  it('reports every bad file with a reason and still indexes the rest', async () => {
    ws = createTempWorkspace({ 'MEMORY.md': '# Memory\n- good file about lighthouses\n' });
    ws.write('memory/latin1.md', Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a])); // "café" in Latin-1
    ws.write('memory/binary.md', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01, 0x02]));
    const big = Buffer.alloc(60 * 1024 * 1024, 'a');
    ws.write('memory/huge.md', big);
    service = openService(ws);
    const report = await sync(service);
    expect(report.failed).toBe(0);
    const reasons = Object.fromEntries(report.problems.map((p) => [p.path, p.reason]));
    expect(reasons['memory/latin1.md']).toMatch(/^not UTF-8 \(invalid byte at offset 3\)/);
    expect(reasons['memory/binary.md']).toMatch(/^binary content/);
    expect(reasons['memory/huge.md']).toMatch(/^too large \(60\.0 MB; the limit is 16\.0 MB/);
    const st = await status(service);
    expect(st.files.map((f) => [f.path, f.status])).toEqual([
      ['MEMORY.md', 'indexed'],
      ['memory/binary.md', 'skipped'],
      ['memory/huge.md', 'skipped'],
      ['memory/latin1.md', 'skipped'],
    ]);
    expect(await search(service, 'lighthouses')).toHaveLength(1);
    // Nothing was modified on disk.
    expect(fs.readFileSync(path.join(ws.root, 'memory/latin1.md'))).toEqual(Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]));
  });

  it('marks an unreadable file as failed, naming it, and keeps going', async () => {
    ws = createTempWorkspace({ 'memory/ok.md': 'fine note', 'memory/secret.md': 'locked note' });
    const secret = path.join(ws.root, 'memory', 'secret.md');
    const isRoot = process.getuid?.() === 0;
    if (!isRoot) fs.chmodSync(secret, 0o000);
    // As root, permissions do not stop reads: simulate the same OS error at the read seam.
    service = openService(ws, {
      readBytes: async (p) => {
        if (isRoot && p === secret) throw Object.assign(new Error('EACCES: permission denied'), { code: 'EACCES' });
        return fs.promises.readFile(p);
      },
    });
    const report = await sync(service);
    if (!isRoot) fs.chmodSync(secret, 0o644);
    expect(report.failed).toBe(1);
    expect(report.problems).toEqual([{ path: 'memory/secret.md', status: 'failed', reason: 'unreadable (permission denied, EACCES)' }]);
    expect(report.files).toBe(2);
  });

  it('treats a file deleted while indexing as removed, not as an error', async () => {
    ws = createTempWorkspace({ 'memory/a.md': 'first', 'memory/b.md': 'second', 'memory/c.md': 'third' });
    const doomed = path.join(ws.root, 'memory', 'b.md');
    service = openService(ws, {
      readBytes: async (p) => {
        if (p.endsWith('a.md')) fs.rmSync(doomed, { force: true }); // vanishes after discovery
        return fs.promises.readFile(p);
      },
    });
    const report = await sync(service);
    expect(report.failed).toBe(0);
    expect((await status(service)).files.map((f) => f.path)).toEqual(['memory/a.md', 'memory/c.md']);
  });

  it('indexes an empty workspace without complaint', async () => {
    ws = createTempWorkspace();
    service = openService(ws);
    expect(await sync(service)).toMatchObject({ files: 0, chunks: 0, failed: 0, problems: [] });
    expect(await search(service, 'anything')).toEqual([]);
  });

  it('keeps DREAMS.md out of memory recall unless asked for', async () => {
    ws = createTempWorkspace(SAMPLE_NOTES);
    service = openService(ws);
    await sync(service);
    const memoryOnly = await search(service, 'reflection dentist');
    expect(memoryOnly.every((r) => r.source === 'memory')).toBe(true);
    const dreams = await search(service, 'reflection', { sources: ['dreams'] });
    expect(dreams.map((r) => r.path)).toEqual(['DREAMS.md']);
  });

  it('moves a corrupted index aside, rebuilds it, and says so', async () => {
    ws = createTempWorkspace(SAMPLE_NOTES);
    service = openService(ws);
    await sync(service);
    const indexPath = service.indexPath;
    await service.close();
    fs.writeFileSync(indexPath, Buffer.from('this is not a database at all, just garbage bytes'.repeat(100)));
    fs.rmSync(indexPath + '-wal', { force: true });
    fs.rmSync(indexPath + '-shm', { force: true });
    service = openService(ws);
    const report = await sync(service);
    expect(report.notices.join(' ')).toMatch(/corrupted.*moved to .*corrupt-.*rebuilt/);
    expect(report.files).toBe(7);
    expect(fs.readdirSync(path.dirname(indexPath)).some((n) => n.includes('.corrupt-'))).toBe(true);
    expect(await search(service, 'restic')).not.toHaveLength(0);
  });

  it('recovers from damaged pages inside a valid database file', async () => {
    ws = createTempWorkspace(SAMPLE_NOTES);
    for (let i = 0; i < 200; i++) ws.write(`memory/bulk/${i}.md`, `# note ${i}\n` + `- bulk line ${i} about harbours and ships\n`.repeat(40));
    service = openService(ws);
    await sync(service);
    const indexPath = service.indexPath;
    await service.close();
    service = undefined;
    const fd = fs.openSync(indexPath, 'r+');
    const size = fs.fstatSync(fd).size;
    // Keep the header (first page) intact, scribble over the middle of the file.
    fs.writeSync(fd, Buffer.alloc(64 * 1024, 0xab), 0, 64 * 1024, Math.floor(size / 2));
    fs.closeSync(fd);
    service = openService(ws);
    const report = await sync(service, true);
    expect(report.notices.join(' ')).toMatch(/corrupted/);
    expect(report.files).toBe(207);
    expect(await search(service, 'harbours')).not.toHaveLength(0);
  });
});
