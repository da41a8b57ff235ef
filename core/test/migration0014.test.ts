import fs from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import type { MemoryService } from '../src/engine/memoryService.js';
import { MIGRATIONS } from '../src/index/migrations/index.js';
import { openSqlite } from '../src/platform/sqliteDriver.js';
import { KeywordSearcher } from '../src/search/keywordSearch.js';
import { createTempWorkspace, openService, SAMPLE_NOTES, type TempWorkspace } from './helpers/workspace.js';
import { toPlainChunkText } from './helpers/plainChunkText.js';

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
  'memory/2026-05-01.md': '# 2026-05-01\n\n- Kestrelの再処理ジョブが夜中に失敗した。\n',
  'memory/2026-05-03.md': '# 2026-05-03\n\n- 我们决定把数据库迁移到新的服务器上。\n',
};

/** The index as version 13 left it: no `chunks_grams`, its trigger or its vocabulary. */
function toPreviousLayout(indexPath: string): void {
  const db = openSqlite(indexPath);
  toPlainChunkText(db);
  db.exec(`
    DROP TRIGGER chunks_grams_after_delete;
    DROP TABLE chunks_grams_vocab;
    DROP TABLE chunks_grams;
  `);
  db.pragma('user_version = 13');
  db.close();
}

const paths = async (s: MemoryService, query: string) =>
  (await s.invoke('memory.search', { query, limit: 5, recall: false })).results.map((r) => `${r.path}:${r.startLine}`);

/** Keyword results with their scores, on a connection of its own (hybrid scores also move with the clock). */
function keywordLists(indexPath: string, queries: readonly string[]): string[][] {
  const db = openSqlite(indexPath, { readonly: true });
  try {
    const searcher = new KeywordSearcher(db);
    return queries.map((query) => searcher.search({ query, limit: 5, sources: ['memory', 'dreams', 'sessions'] }).map((r) => `${r.path}:${r.startLine} ${r.score}`));
  } finally {
    db.close();
  }
}

describe('migration 0014: unspaced-script runs in a side table', () => {
  it('migrates an index of the previous layout in place: English results unchanged, Japanese and Chinese runs found before any sync', async () => {
    ws = createTempWorkspace(NOTES);
    service = openService(ws);
    await service.invoke('index.sync', {});
    const english = ['restic backups atlas', 'renew the TLS certificate', 'Piranesi', 'kestrel'];
    const indexPath = service.indexPath;
    const before = keywordLists(indexPath, english);
    const hybridBefore = await Promise.all(english.map((q) => paths(service!, q)));
    await service.close();
    service = undefined;

    toPreviousLayout(indexPath);
    const old = openSqlite(indexPath, { readonly: true });
    // The old layout's main index has the run as one token only: 再処理 is in no chunk.
    expect(old.prepare("SELECT count(*) FROM chunks_fts WHERE chunks_fts MATCH '\"再処理\"'").pluck().get()).toBe(0);
    const chunksBefore = old.prepare('SELECT count(*) FROM chunks').pluck().get();
    old.close();

    service = openService(ws);
    expect((await paths(service, '再処理'))[0]).toMatch(/^memory\/2026-05-01\.md:/);
    expect((await paths(service, '数据库'))[0]).toMatch(/^memory\/2026-05-03\.md:/);
    expect(keywordLists(indexPath, english)).toEqual(before);
    expect(await Promise.all(english.map((q) => paths(service!, q)))).toEqual(hybridBefore);
    const reader = openSqlite(indexPath, { readonly: true });
    expect(reader.pragma('user_version', { simple: true })).toBe(MIGRATIONS.at(-1)!.version);
    // Nothing was re-chunked: same chunks, and only the two notes with such text got a row.
    expect(reader.prepare('SELECT count(*) FROM chunks').pluck().get()).toBe(chunksBefore);
    expect(reader.prepare("SELECT doc FROM chunks_grams_vocab WHERE term = '処理'").pluck().get()).toBe(1);
    reader.close();

    // A sync finds nothing to change, and a removed note takes its row along (the delete trigger).
    const report = await service.invoke('index.sync', {});
    expect(report.updated + report.added).toBe(0);
    fs.rmSync(`${ws.root}/memory/2026-05-01.md`);
    await service.invoke('index.sync', {});
    expect(await paths(service, '再処理')).toEqual([]);
    const after = openSqlite(indexPath, { readonly: true });
    expect(after.prepare("SELECT count(*) FROM chunks_grams_vocab WHERE term = '処理'").pluck().get()).toBe(0);
    expect(after.prepare("SELECT doc FROM chunks_grams_vocab WHERE term = '数据'").pluck().get()).toBe(1);
    after.close();
  });
});
