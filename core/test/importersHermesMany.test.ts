import type Database from 'better-sqlite3';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MemoryService } from '../src/engine/memoryService.js';
import { resolveExistingWorkspace } from '../src/workspace/resolveWorkspace.js';
import { makeImportSandbox, type ImportSandbox } from './fixtures/import-sources/sandbox.js';

// The 2 MB (35k entries) figure is timed by hand with the built engine; this checks the structure.
const ENTRIES = 3_000;
const PLACES = ['Berlin', 'Lisbon', 'Osaka', 'Quito'];

let box: ImportSandbox;
let service: MemoryService | undefined;
afterEach(async () => {
  await service?.close();
  service = undefined;
  box?.cleanup();
});

describe('a Hermes file of many short § entries', () => {
  it('is indexed one chunk per entry, with one graph entry per § entry (never one per separator) pointing at its chunk', async () => {
    box = makeImportSandbox();
    const memories = path.join(box.dir, 'many-hermes', 'memories');
    fs.mkdirSync(memories, { recursive: true });
    const entries = Array.from({ length: ENTRIES }, (_, i) => `Note ${i}: the user met Dana in ${PLACES[i % PLACES.length]} about ticket ${i}.`);
    fs.writeFileSync(path.join(memories, 'MEMORY.md'), entries.join('\n§\n') + '\n');
    service = new MemoryService({ dataDir: box.dataDir, workspace: resolveExistingWorkspace(box.workspace) });
    await service.invoke('import.apply', { sources: [{ tool: 'hermes', home: path.dirname(memories) }] });
    await service.invoke('index.sync', { force: false });

    const db = (service as unknown as { db: Database.Database }).db;
    const file = "memory/imports/hermes/default/MEMORY.md";
    const chunks = db.prepare('SELECT id, start_line, end_line FROM chunks WHERE path = ? ORDER BY start_line').all(file) as Array<{ id: number; start_line: number; end_line: number }>;
    expect(chunks).toHaveLength(ENTRIES);
    const graphEntries = db.prepare('SELECT start_line, end_line, chunk_id FROM graph_entries WHERE path_id = (SELECT id FROM graph_paths WHERE path = ?) ORDER BY start_line').all(file) as Array<{ start_line: number; chunk_id: number | null }>;
    expect(graphEntries).toHaveLength(ENTRIES);
    // Entry n sits on line 2n + 1 (a `§` line between each); its chunk is the one holding that line.
    const chunkById = new Map(chunks.map((c) => [c.id, c]));
    for (const [n, entry] of graphEntries.entries()) {
      expect(entry.start_line).toBe(2 * n + 1);
      const chunk = chunkById.get(entry.chunk_id!)!;
      expect(chunk.start_line <= entry.start_line && chunk.end_line >= entry.start_line).toBe(true);
    }
    const { results } = await service.invoke('memory.search', { query: 'ticket 2999', sources: ['memory'] });
    expect(results[0]?.snippet).toContain('ticket 2999');
  }, 120_000);
});

describe('empty Hermes § entries', () => {
  it('index no blank chunk and show no blank snippet, even in a profile whose MEMORY.md holds only separators', async () => {
    box = makeImportSandbox();
    const home = path.join(box.dir, 'blank-hermes');
    fs.mkdirSync(path.join(home, 'memories'), { recursive: true });
    fs.writeFileSync(path.join(home, 'memories', 'MEMORY.md'), '§\n   \n§\nThe kettle descaler lives under the sink.\n§\n\t\n§\n§\nThe kettle is a 2019 model.\n§\n  \n');
    fs.writeFileSync(path.join(home, 'memories', 'USER.md'), '§\n \n§\n\n§\n');
    service = new MemoryService({ dataDir: box.dataDir, workspace: resolveExistingWorkspace(box.workspace) });
    await service.invoke('import.apply', { sources: [{ tool: 'hermes', home }] });
    await service.invoke('index.sync', { force: false });

    const db = (service as unknown as { db: Database.Database }).db;
    const chunks = db.prepare("SELECT path, chunk_text(text) AS text FROM chunks WHERE path LIKE 'memory/imports/hermes/%'").all() as Array<{ path: string; text: string }>;
    expect(chunks.length).toBe(2);
    for (const c of chunks) expect(c.text).toMatch(/kettle/);
    const { results } = await service.invoke('memory.search', { query: 'kettle sink model', sources: ['memory'], limit: 20 });
    const imported = results.filter((r) => r.path.startsWith('memory/imports/'));
    expect(imported.length).toBeGreaterThan(0);
    for (const r of imported) expect(r.snippet.replace(/[§\s]/g, '')).not.toBe('');
  }, 60_000);
});
