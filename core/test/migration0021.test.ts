import { isCompactionPending } from '../src/index/compactAfterUpgrade.js';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { EngineEvent } from '../src/contract/index.js';
import type { MemoryService } from '../src/engine/memoryService.js';
import { packChunkText, unpackChunkText, unpackChunkTexts } from '../src/index/chunkText.js';
import { MIGRATIONS } from '../src/index/migrations/index.js';
import { openSqlite } from '../src/platform/sqliteDriver.js';
import { KeywordSearcher } from '../src/search/keywordSearch.js';
import { createTempWorkspace, openService, SAMPLE_NOTES, type TempWorkspace } from './helpers/workspace.js';
import { toPlainChunkText } from './helpers/plainChunkText.js';

const opened: Array<{ ws: TempWorkspace; service?: MemoryService }> = [];
afterEach(async () => {
  for (const o of opened.splice(0)) {
    await o.service?.close();
    o.ws.cleanup();
  }
});

const NOTES: Record<string, string> = {
  ...SAMPLE_NOTES,
  'memory/2026-05-01.md': '# 2026-05-01\n\n- Kestrelの再処理ジョブが夜中に失敗した。\n- See [[MEMORY]] for the backups.\n',
  'memory/2026-05-02.md': `# 2026-05-02\n\n${Array.from({ length: 120 }, (_, i) => `- Line ${i}: the heron survey of pond ${i % 7} went ${i % 2 ? 'well' : 'badly'}.`).join('\n')}\n`,
};
const QUERIES = ['restic backups atlas', 'flaky test ledgerd', 'heron survey pond', 'timezone', '再処理'];

/** Keyword results with their scores on a connection of its own (hybrid scores also move with the clock). */
function keywordLists(indexPath: string): string[][] {
  const db = openSqlite(indexPath, { readonly: true });
  try {
    const searcher = new KeywordSearcher(db);
    return QUERIES.map((query) => searcher.search({ query, limit: 5, sources: ['memory', 'dreams', 'sessions'] }).map((r) => `${r.path}:${r.startLine} ${r.score} ${r.snippet}`));
  } finally {
    db.close();
  }
}

const hybridLists = async (s: MemoryService) =>
  Promise.all(QUERIES.map(async (query) => (await s.invoke('memory.search', { query, limit: 5, recall: false })).results.map((r) => `${r.path}:${r.startLine} ${r.snippet}`)));

describe('chunk text stored deflated', () => {
  it('reads back every text it packs, alone or many in one inflate', () => {
    const texts = ['', 'a', 'Kestrelの再処理ジョブ 🦅', 'x'.repeat(200_000), '- line one\n- line two\r\n', 'é'.repeat(70)];
    const packed = texts.map(packChunkText);
    expect(packed.map((p) => unpackChunkText(p))).toEqual(texts);
    expect(unpackChunkTexts(packed)).toEqual(texts);
    expect(unpackChunkTexts([])).toEqual([]);
    // Repetitive text shrinks; the stored form is what the index keeps.
    expect(packed[3]!.length).toBeLessThan(2_000);
  });

  it('says a damaged stored text is damaged instead of returning other text', () => {
    const packed = packChunkText('the heron survey of the pond went well');
    expect(() => unpackChunkText(packed.subarray(0, 1))).toThrow(/damaged|unexpected end|invalid/i);
    const wrongLength = Buffer.from(packed);
    wrongLength[0] = wrongLength[0]! + 1;
    expect(() => unpackChunkText(wrongLength)).toThrow(/damaged/);
  });
});

describe('migration 0021: chunk text deflated, FTS5 contentless', () => {
  it('migrates an index of the previous layout in place: the same results before any sync, and writes afterwards keep it whole', async () => {
    const ws = createTempWorkspace(NOTES);
    const entry: { ws: TempWorkspace; service?: MemoryService } = { ws, service: openService(ws) };
    opened.push(entry);
    await entry.service!.invoke('index.sync', {});
    const indexPath = entry.service!.indexPath;
    const keywordBefore = keywordLists(indexPath);
    const hybridBefore = await hybridLists(entry.service!);
    expect(keywordBefore.every((list) => list.length > 0)).toBe(true);
    await entry.service!.close();
    entry.service = undefined;

    // The previous layout (version 20): text as TEXT, FTS5 reading it from `chunks`.
    const old = openSqlite(indexPath);
    toPlainChunkText(old);
    old.pragma('user_version = 20');
    const chunksBefore = old.prepare('SELECT id, path, start_line, end_line, text FROM chunks ORDER BY id').all() as Array<{ id: number; path: string; start_line: number; end_line: number; text: string }>;
    const runsBefore = old.prepare('SELECT * FROM chunk_source_runs ORDER BY first_id').all();
    expect(old.prepare("SELECT sql FROM sqlite_master WHERE name = 'chunks_fts'").pluck().get()).toMatch(/content = 'chunks'/);
    old.close();

    // Opening migrates: same ids and text (now deflated), FTS5 contentless, the other triggers kept.
    const events: EngineEvent[] = [];
    entry.service = openService(ws, { onEvent: (e) => events.push(e) });
    // It said how far it had got, from none of the chunks to all of them (the window and the CLI show it).
    const migrating = events.flatMap((e) => (e.type === 'index-progress' && e.phase === 'migrate' ? [[e.done, e.total]] : []));
    expect(migrating).toEqual([[0, chunksBefore.length], [chunksBefore.length, chunksBefore.length]]);
    const db = openSqlite(indexPath, { readonly: true });
    try {
      expect(db.pragma('user_version', { simple: true })).toBe(MIGRATIONS.at(-1)!.version);
      expect(db.prepare("SELECT type FROM pragma_table_info('chunks') WHERE name = 'text'").pluck().get()).toBe('BLOB');
      expect(db.prepare("SELECT sql FROM sqlite_master WHERE name = 'chunks_fts'").pluck().get()).toMatch(/content = '',\s*contentless_delete = 1/);
      const after = db.prepare('SELECT id, path, start_line, end_line, text, wiki_links FROM chunks ORDER BY id').all() as Array<{ id: number; path: string; start_line: number; end_line: number; text: Buffer; wiki_links: number }>;
      expect(after.map((r) => ({ id: r.id, path: r.path, start_line: r.start_line, end_line: r.end_line, text: unpackChunkText(r.text) }))).toEqual(chunksBefore);
      expect(after.filter((r) => r.wiki_links === 1).map((r) => r.path)).toEqual(['memory/2026-05-01.md']);
      expect(db.prepare('SELECT * FROM chunk_source_runs ORDER BY first_id').all()).toEqual(runsBefore);
      const triggers = db.prepare("SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'chunks' ORDER BY name").pluck().all();
      expect(triggers).toEqual(expect.arrayContaining(['chunk_source_runs_after_append', 'chunk_source_runs_after_delete', 'chunk_source_runs_after_insert', 'chunks_after_delete', 'chunks_grams_after_delete']));
      expect(triggers).not.toContain('chunks_after_insert');
      expect(db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'chunks'").pluck().all()).toContain('chunks_by_path');
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
      // The old text's pages are free inside the file: they go back to the disk after the next sync.
      expect(isCompactionPending(db)).toBe(true);
    } finally {
      db.close();
    }
    // Search before any sync: the same results.
    expect(keywordLists(indexPath)).toEqual(keywordBefore);
    expect(await hybridLists(entry.service)).toEqual(hybridBefore);

    // Edits and a deletion after the migration: the index equals a fresh one of the same notes.
    fs.writeFileSync(path.join(ws.root, 'memory/2026-05-02.md'), '# 2026-05-02\n\n- The heron survey moved to the north pond.\n');
    fs.rmSync(path.join(ws.root, 'memory/2026-04-01.md'));
    await entry.service.invoke('index.sync', {});
    const writer = openSqlite(indexPath);
    try {
      writer.exec("INSERT INTO chunks_fts (chunks_fts) VALUES ('integrity-check')");
      // Every chunk's keyword row is there and no deleted chunk's is.
      expect(writer.prepare('SELECT count(*) FROM chunks_fts_docsize').pluck().get()).toBe(writer.prepare('SELECT count(*) FROM chunks').pluck().get());
    } finally {
      writer.close();
    }
    const migratedLists = keywordLists(indexPath);
    const fresh = createTempWorkspace(Object.fromEntries(Object.entries(NOTES).filter(([p]) => p !== 'memory/2026-04-01.md').map(([p, t]) => [p, p === 'memory/2026-05-02.md' ? '# 2026-05-02\n\n- The heron survey moved to the north pond.\n' : t])));
    const freshEntry: { ws: TempWorkspace; service?: MemoryService } = { ws: fresh, service: openService(fresh) };
    opened.push(freshEntry);
    await freshEntry.service!.invoke('index.sync', {});
    const freshLists = keywordLists(freshEntry.service!.indexPath).map((list) => list.map((r) => r.replace(/ [-\d.e]+ /, ' ')));
    // Scores may differ in the last digits (FTS5 totals kept through deletes), paths, lines and snippets may not.
    expect(migratedLists.map((list) => list.map((r) => r.replace(/ [-\d.e]+ /, ' ')))).toEqual(freshLists);
    expect(migratedLists[2]![0]).toMatch(/^memory\/2026-05-02\.md:/);
  });

  it('leaves an index already in this layout as it is when it is migrated again from an older recorded version', async () => {
    const ws = createTempWorkspace(NOTES);
    const entry: { ws: TempWorkspace; service?: MemoryService } = { ws, service: openService(ws) };
    opened.push(entry);
    await entry.service!.invoke('index.sync', {});
    const indexPath = entry.service!.indexPath;
    const before = keywordLists(indexPath);
    await entry.service!.close();
    entry.service = undefined;
    const db = openSqlite(indexPath);
    db.pragma('user_version = 20');
    db.close();
    entry.service = openService(ws);
    expect(keywordLists(indexPath)).toEqual(before);
  });
});
