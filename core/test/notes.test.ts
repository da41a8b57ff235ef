import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { MemoryService } from '../src/engine/memoryService.js';
import { sha256Hex } from '../src/platform/hash.js';
import { createTempWorkspace, openService, SAMPLE_NOTES, type TempWorkspace } from './helpers/workspace.js';

let ws: TempWorkspace;
let service: MemoryService;
afterEach(async () => {
  await service?.close();
  ws?.cleanup();
});

const onDisk = (p: string): string | null => (fs.existsSync(path.join(ws.root, p)) ? fs.readFileSync(path.join(ws.root, p), 'utf8') : null);

describe('notes', () => {
  it('creates a note with a heading, then refuses to create it again over the person\'s text', async () => {
    ws = createTempWorkspace(SAMPLE_NOTES);
    service = openService(ws);
    const note = await service.invoke('notes.create', { name: 'Tax module', folder: 'projects' });
    expect(note).toMatchObject({ path: 'memory/projects/Tax module.md', created: true });
    expect(onDisk('memory/projects/Tax module.md')).toBe('# Tax module\n\n');
    fs.writeFileSync(path.join(ws.root, 'memory/projects/Tax module.md'), 'Dana owns it.\n');
    await expect(service.invoke('notes.create', { name: 'Tax module.md', folder: 'memory/projects' })).rejects.toMatchObject({ code: 'conflict' });
    expect(onDisk('memory/projects/Tax module.md')).toBe('Dana owns it.\n');
  });

  it('refuses bad names with a sentence saying why', async () => {
    ws = createTempWorkspace(SAMPLE_NOTES);
    service = openService(ws);
    const refused = async (name: string, folder?: string): Promise<string> => {
      const error = (await service.invoke('notes.create', { name, ...(folder ? { folder } : {}) }).catch((e: unknown) => e)) as { code: string; message: string };
      expect(error.code).toBe('invalid-input');
      return error.message;
    };
    expect(await refused('a/b')).toMatch(/cannot name a folder/);
    expect(await refused('..')).toMatch(/starts with a dot/);
    expect(await refused('what?')).toMatch(/"\?", which some systems do not allow/);
    expect(await refused('x'.repeat(300))).toMatch(/300 characters long; .* at most 120/);
    expect(await refused('   ')).toMatch(/needs a name/);
    expect(await refused('ok', '../outside')).toMatch(/folder "..\/outside" cannot be used/);
    const written = fs.readdirSync(path.join(ws.root, 'memory'), { recursive: true }).map(String).filter((p) => p.endsWith('.md'));
    expect(written.sort()).toEqual(Object.keys(SAMPLE_NOTES).filter((p) => p.startsWith('memory/')).map((p) => p.slice(7)).sort());
  });

  it("opens today's daily note, creating it once and never overwriting it", async () => {
    ws = createTempWorkspace(SAMPLE_NOTES);
    service = openService(ws);
    const first = await service.invoke('notes.daily', { date: '2031-01-02' });
    expect(first).toMatchObject({ path: 'memory/2031-01-02.md', created: true });
    fs.appendFileSync(path.join(ws.root, first.path), '- wrote this\n');
    const again = await service.invoke('notes.daily', { date: '2031-01-02' });
    expect(again).toMatchObject({ path: 'memory/2031-01-02.md', created: false, sha256: sha256Hex(onDisk(first.path)!) });
    expect(onDisk(first.path)).toBe('# 2031-01-02\n\n- wrote this\n');
    await expect(service.invoke('notes.daily', { date: '2031-13-45' })).rejects.toMatchObject({ code: 'invalid-input' });
  });

  it('renames and moves a note, refusing to replace another one or to touch MEMORY.md', async () => {
    ws = createTempWorkspace(SAMPLE_NOTES);
    service = openService(ws);
    const text = onDisk('memory/2026-04-05.md');
    const moved = await service.invoke('notes.rename', { path: 'memory/2026-04-05.md', to: 'memory/archive/april.md' });
    expect(moved.path).toBe('memory/archive/april.md');
    expect(onDisk('memory/archive/april.md')).toBe(text);
    expect(onDisk('memory/2026-04-05.md')).toBeNull();

    const other = Object.keys(SAMPLE_NOTES).find((p) => p.startsWith('memory/') && p !== 'memory/2026-04-05.md')!;
    await expect(service.invoke('notes.rename', { path: 'memory/archive/april.md', to: other })).rejects.toMatchObject({ code: 'conflict', message: expect.stringContaining('already exists') });
    expect(onDisk(other)).toBe(SAMPLE_NOTES[other]);
    await expect(service.invoke('notes.rename', { path: 'MEMORY.md', to: 'memory/m.md' })).rejects.toMatchObject({ code: 'forbidden' });
    await expect(service.invoke('notes.rename', { path: 'memory/archive/april.md', to: 'memory/../../etc/x.md' })).rejects.toMatchObject({ code: 'invalid-input' });
    await expect(service.invoke('notes.rename', { path: '/etc/passwd.md', to: 'memory/p.md' })).rejects.toMatchObject({ code: 'forbidden' });
  });

  it('deletes to a trash it can restore from; a changed note is not deleted; restore never overwrites', async () => {
    ws = createTempWorkspace(SAMPLE_NOTES);
    service = openService(ws);
    const notePath = 'memory/2026-04-05.md';
    const text = onDisk(notePath)!;
    await expect(service.invoke('notes.trash', { path: notePath, expectedSha256: 'f'.repeat(64) })).rejects.toMatchObject({ code: 'conflict' });
    expect(onDisk(notePath)).toBe(text);

    const trashed = await service.invoke('notes.trash', { path: notePath, expectedSha256: sha256Hex(text) });
    expect(onDisk(notePath)).toBeNull();
    expect((await service.invoke('notes.trashList', {})).notes).toEqual([trashed]);
    // The trash is a hidden folder: never listed or indexed as a memory file.
    await service.invoke('index.sync', {});
    const listed = (await service.invoke('files.list', {})).files.map((f) => f.path);
    expect(listed.some((p) => p.includes('trash'))).toBe(false);
    expect(listed).not.toContain(notePath);

    fs.writeFileSync(path.join(ws.root, notePath), 'a new note of the same name\n');
    await expect(service.invoke('notes.restore', { id: trashed.id })).rejects.toMatchObject({ code: 'conflict' });
    expect(onDisk(notePath)).toBe('a new note of the same name\n');
    fs.rmSync(path.join(ws.root, notePath));

    expect(await service.invoke('notes.restore', { id: trashed.id })).toEqual({ path: notePath });
    expect(onDisk(notePath)).toBe(text);
    expect((await service.invoke('notes.trashList', {})).notes).toEqual([]);
    await expect(service.invoke('notes.restore', { id: trashed.id })).rejects.toMatchObject({ code: 'not-found' });
    await expect(service.invoke('notes.restore', { id: '../../etc' })).rejects.toMatchObject({ code: 'not-found' });
  });
});
