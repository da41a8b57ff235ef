import fs from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import type { MemoryService } from '../src/engine/memoryService.js';
import { HashEmbeddingProvider } from '../src/embed/hashProvider.js';
import { classifyFileEntries, ENTRY_KINDS_VERSION } from '../src/index/entryKinds.js';
import { EntryKindsTable } from '../src/index/entryKindsTable.js';
import { openIndexDatabase } from '../src/index/database.js';
import { floatsToBlob } from '../src/index/vectorBlob.js';
import { sha256Hex } from '../src/platform/hash.js';
import { openSqlite } from '../src/platform/sqliteDriver.js';
import { createTempWorkspace, openService, SAMPLE_NOTES, type TempWorkspace } from './helpers/workspace.js';
import { unpackChunkText } from '../src/index/chunkText.js';

let ws: TempWorkspace | undefined;
let service: MemoryService | undefined;
afterEach(async () => {
  await service?.close();
  service = undefined;
  ws?.cleanup();
  ws = undefined;
});

const NOTES: Record<string, string> = {
  ...SAMPLE_NOTES,
  'memory/2026-10-20.md': '# 2026-10-20\n\n- The staging box is ares.internal.\n- [ ] renew the TLS certificate\n- Why does the nightly job spike?\n- Priya is on holiday Nov 2–6.\n',
};

/** The index as version 11 left it: one entry_kinds row per entry (hex hash, kind and cue as text), hash floats stored. */
function toPreviousLayout(indexPath: string, root: string): number {
  const db = openSqlite(indexPath);
  const files = db.prepare("SELECT path, abs_path FROM files WHERE source = 'memory'").all() as Array<{ path: string; abs_path: string }>;
  db.exec(`
    DROP TABLE entry_kinds;
    DROP TABLE entry_kind_cues;
    CREATE TABLE entry_kinds (
      path TEXT NOT NULL REFERENCES files(path) ON DELETE CASCADE, start_line INTEGER NOT NULL CHECK (start_line >= 1),
      end_line INTEGER NOT NULL CHECK (end_line >= start_line), text_hash TEXT NOT NULL, kind TEXT NOT NULL, valid_until TEXT,
      cue TEXT NOT NULL, PRIMARY KEY (path, start_line)) STRICT, WITHOUT ROWID;
  `);
  const insert = db.prepare('INSERT INTO entry_kinds (path, start_line, end_line, text_hash, kind, valid_until, cue) VALUES (?, ?, ?, ?, ?, ?, ?)');
  let rows = 0;
  for (const f of files) {
    expect(f.abs_path.startsWith(root)).toBe(true);
    for (const k of classifyFileEntries(f.path, fs.readFileSync(f.abs_path, 'utf8'))) {
      insert.run(f.path, k.startLine, k.endLine, k.textHash, k.kind, k.validUntil, k.cue);
      rows++;
    }
  }
  // Chunks kept a 64-hex hash of their text.
  db.exec("ALTER TABLE chunks ADD COLUMN hash TEXT NOT NULL DEFAULT ''");
  const putHash = db.prepare('UPDATE chunks SET hash = ? WHERE id = ?');
  for (const c of db.prepare('SELECT id, text FROM chunks').all() as Array<{ id: number; text: Buffer }>) putHash.run(sha256Hex(unpackChunkText(c.text)), c.id);
  const [vectors] = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name GLOB 'vectors_*'").pluck().all() as string[];
  const hash = new HashEmbeddingProvider();
  const put = db.prepare(`UPDATE ${vectors} SET vector = ? WHERE chunk_id = ?`);
  for (const c of db.prepare('SELECT id, text FROM chunks').all() as Array<{ id: number; text: Buffer }>) put.run(floatsToBlob(hash.embedSync(unpackChunkText(c.text))), c.id);
  expect(db.prepare(`SELECT min(length(vector)) FROM ${vectors}`).pluck().get()).toBeGreaterThan(0);
  db.pragma('user_version = 11');
  db.close();
  return rows;
}

const searchLists = async (s: MemoryService, queries: string[]) =>
  Promise.all(queries.map(async (query) => (await s.invoke('memory.search', { query, limit: 5 })).results.map((r) => `${r.path}:${r.startLine} ${r.score.toFixed(6)}`)));

describe('migration 0012: entry kinds one row per file, chunks without their text hash', () => {
  it('migrates an index of the previous layout in place: search keeps working, the next sync stores the kinds again without re-chunking', async () => {
    ws = createTempWorkspace(NOTES);
    service = openService(ws);
    await service.invoke('index.sync', {});
    const queries = ['restic backups atlas', 'renew the TLS certificate', 'Piranesi', 'nightly job spike'];
    const before = await searchLists(service, queries);
    const indexPath = service.indexPath;
    const reader = openSqlite(indexPath, { readonly: true });
    const kindsBefore = new EntryKindsTable(reader).of('memory/2026-10-20.md');
    reader.close();
    expect(kindsBefore.map((k) => k.kind)).toEqual(['fact', 'task', 'question', 'time-bounded']);
    await service.close();
    service = undefined;

    const oldRows = toPreviousLayout(indexPath, ws.root);
    expect(oldRows).toBeGreaterThan(10);

    // Opening migrates: the old rows are gone, the chunks and vectors stay, the kinds are due again.
    const opened = openIndexDatabase(indexPath, { reclaim: false });
    const db = opened.db;
    expect(db.pragma('user_version', { simple: true })).toBeGreaterThanOrEqual(12);
    expect(db.prepare("SELECT sql FROM sqlite_master WHERE name = 'entry_kinds'").pluck().get()).toMatch(/entries\s+BLOB/);
    expect(db.prepare('SELECT count(*) FROM entry_kinds').pluck().get()).toBe(0);
    expect(db.prepare("SELECT name FROM pragma_table_info('chunks')").pluck().all()).not.toContain('hash');
    expect(db.prepare("SELECT value FROM meta WHERE key = 'entry_kinds'").pluck().get()).toBeUndefined();
    const chunkIds = db.prepare('SELECT id FROM chunks ORDER BY id').pluck().all();
    expect(chunkIds.length).toBeGreaterThan(0);
    const [vectorsTable] = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name GLOB 'vectors_*'").pluck().all() as string[];
    expect(db.prepare(`SELECT count(*) AS n, sum(length(vector)) AS bytes FROM ${vectorsTable}`).get()).toEqual({ n: chunkIds.length, bytes: 0 });
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    db.close();

    service = openService(ws);
    // Search before the sync: the same results (stored floats and recomputed ones agree).
    expect(await searchLists(service, queries)).toEqual(before);
    await service.invoke('index.sync', {});
    expect(await searchLists(service, queries)).toEqual(before);
    const after = openSqlite(indexPath, { readonly: true });
    expect(new EntryKindsTable(after).of('memory/2026-10-20.md')).toEqual(kindsBefore);
    expect(after.prepare("SELECT value FROM meta WHERE key = 'entry_kinds'").pluck().get()).toBe(ENTRY_KINDS_VERSION);
    expect(after.prepare('SELECT id FROM chunks ORDER BY id').pluck().all()).toEqual(chunkIds);
    after.close();
  });
});
