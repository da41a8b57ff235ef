import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { MemoryService } from '../src/engine/memoryService.js';
import { resolveExistingWorkspace } from '../src/workspace/resolveWorkspace.js';
import { createTempWorkspace, type TempWorkspace } from './helpers/workspace.js';

const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures', 'sessions', 'claude-code');
const SESSION = 'projects/-home-dana-src-ledgerd/7c0f3a52-1b2d-4e5f-8a9b-0c1d2e3f4a5b.jsonl';

let ws: TempWorkspace | undefined;
let service: MemoryService | undefined;
afterEach(async () => {
  await service?.close();
  ws?.cleanup();
  service = ws = undefined;
});

/** What the index holds, counted through a connection of its own. */
function counted(s: MemoryService): { files: number; chunks: number } {
  const db = new Database(s.indexPath, { readonly: true });
  try {
    return { files: db.prepare('SELECT count(*) FROM files').pluck().get() as number, chunks: db.prepare('SELECT count(*) FROM chunks').pluck().get() as number };
  } finally {
    db.close();
  }
}

describe("a sync's file and chunk counts with transcripts", () => {
  it('stay right when the transcripts are unchanged, grown or gone', async () => {
    ws = createTempWorkspace({ 'MEMORY.md': '# Memory\n\n- The NAS is called atlas.\n', 'memory/2026-03-05.md': '- Backfill of currencies started.\n' });
    const home = path.join(ws.root, '..', 'claude-home');
    fs.cpSync(fixtures, home, { recursive: true });
    service = new MemoryService({ dataDir: ws.dataDir, workspace: resolveExistingWorkspace(ws.root) });
    const first = await service.invoke('sessions.ingest', { homes: { 'claude-code': home } });
    expect(first.added).toBeGreaterThan(0);

    const noop = await service.invoke('index.sync', { force: false, until: 'search' });
    expect(noop.sessions).toMatchObject({ added: 0, appended: 0, removed: 0 });
    expect({ files: noop.files, chunks: noop.chunks }).toEqual(counted(service));

    // The session goes on (a quiet minute later, so its last line is complete): only its new lines are read.
    const file = path.join(home, SESSION);
    const last = JSON.parse(fs.readFileSync(file, 'utf8').trim().split('\n').at(-1)!) as Record<string, unknown>;
    const next = { ...last, type: 'user', uuid: 'u-grown', parentUuid: last.uuid ?? null, timestamp: '2026-03-05T11:00:00.000Z', message: { role: 'user', content: 'Also backfill the archived invoices from 2019 with the same rates.' } };
    fs.appendFileSync(file, `${JSON.stringify(next)}\n`);
    const grown = await service.invoke('index.sync', { force: false, until: 'search' });
    expect(grown.sessions?.appended).toBe(1);
    expect({ files: grown.files, chunks: grown.chunks }).toEqual(counted(service));
    expect(grown.chunks).toBeGreaterThan(noop.chunks);

    fs.rmSync(file);
    const gone = await service.invoke('index.sync', { force: false, until: 'search' });
    expect(gone.sessions?.removed).toBe(1);
    expect({ files: gone.files, chunks: gone.chunks }).toEqual(counted(service));
    expect(gone.chunks).toBeLessThan(grown.chunks);
  }, 60_000);
});
