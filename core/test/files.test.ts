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

const read = (p: string) => service.invoke('files.read', { path: p });
const write = (p: string, text: string, expectedSha256: string | null) => service.invoke('files.write', { path: p, text, expectedSha256 });

describe('memory files', () => {
  it('reads a file with its hash and saves an edit atomically', async () => {
    ws = createTempWorkspace(SAMPLE_NOTES);
    service = openService(ws);
    const snap = await read('memory/2026-04-05.md');
    expect(snap.sha256).toBe(sha256Hex(SAMPLE_NOTES['memory/2026-04-05.md']!));
    const edited = snap.text + '- Added from the editor.\n';
    const saved = await write('memory/2026-04-05.md', edited, snap.sha256);
    expect(fs.readFileSync(path.join(ws.root, 'memory/2026-04-05.md'), 'utf8')).toBe(edited);
    expect(saved.sha256).toBe(sha256Hex(edited));
    // No temp files left behind.
    expect(fs.readdirSync(path.join(ws.root, 'memory')).filter((n) => n.endsWith('.tmp'))).toEqual([]);
  });

  it('refuses to overwrite a file that changed on disk since it was opened, and loses nothing', async () => {
    ws = createTempWorkspace(SAMPLE_NOTES);
    service = openService(ws);
    const snap = await read('memory/2026-04-05.md');
    const onDisk = snap.text + '- Written by another program.\n';
    ws.write('memory/2026-04-05.md', onDisk);
    await expect(write('memory/2026-04-05.md', 'my edit', snap.sha256)).rejects.toMatchObject({
      code: 'conflict',
      message: expect.stringContaining('memory/2026-04-05.md changed on disk'),
    });
    expect(fs.readFileSync(path.join(ws.root, 'memory/2026-04-05.md'), 'utf8')).toBe(onDisk);
    ws.remove('memory/2026-04-05.md');
    await expect(write('memory/2026-04-05.md', 'my edit', snap.sha256)).rejects.toMatchObject({ code: 'conflict' });
    expect(fs.existsSync(path.join(ws.root, 'memory/2026-04-05.md'))).toBe(false);
  });

  it('keeps a pre-image when MEMORY.md or USER.md is rewritten', async () => {
    ws = createTempWorkspace(SAMPLE_NOTES);
    service = openService(ws);
    const snap = await read('MEMORY.md');
    await write('MEMORY.md', '# Memory\n\n- rewritten\n', snap.sha256);
    const preImageDir = path.join(ws.dataDir, 'backups', 'pre-images', service.workspace.id);
    const [preImage] = fs.readdirSync(preImageDir);
    expect(preImage).toMatch(/-MEMORY\.md$/);
    expect(fs.readFileSync(path.join(preImageDir, preImage!), 'utf8')).toBe(SAMPLE_NOTES['MEMORY.md']);
  });

  it('creates new notes only where memory lives and only when absent', async () => {
    ws = createTempWorkspace(SAMPLE_NOTES);
    service = openService(ws);
    await write('memory/new/idea.md', '# Idea\n', null);
    expect(fs.readFileSync(path.join(ws.root, 'memory/new/idea.md'), 'utf8')).toBe('# Idea\n');
    await expect(write('memory/new/idea.md', 'again', null)).rejects.toMatchObject({ code: 'conflict' });
  });

  it('refuses paths outside memory: traversal, absolute paths, other files, hidden folders, symlinks', async () => {
    ws = createTempWorkspace(SAMPLE_NOTES);
    fs.writeFileSync(path.join(path.dirname(ws.root), 'outside.md'), 'secret');
    fs.symlinkSync(path.join(path.dirname(ws.root), 'outside.md'), path.join(ws.root, 'memory', 'link.md'));
    service = openService(ws);
    for (const bad of ['../outside.md', 'memory/../../outside.md', '/etc/passwd.md', 'notes.md', 'memory/.git/x.md', 'memory/link.md', 'memory/a.txt']) {
      await expect(read(bad), bad).rejects.toMatchObject({ code: 'forbidden' });
    }
    await expect(write('memory/link.md', 'overwrite', null)).rejects.toMatchObject({ code: 'forbidden' });
    expect(fs.readFileSync(path.join(path.dirname(ws.root), 'outside.md'), 'utf8')).toBe('secret');
  });
});
