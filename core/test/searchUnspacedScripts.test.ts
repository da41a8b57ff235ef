import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MemoryService } from '../src/engine/memoryService.js';
import { KeywordSearcher, snippetForms } from '../src/search/keywordSearch.js';
import { buildSnippet } from '../src/search/snippet.js';
import { openSqlite } from '../src/platform/sqliteDriver.js';
import { createTempWorkspace, openService, SAMPLE_NOTES, type TempWorkspace } from './helpers/workspace.js';

/** Notes in scripts written without spaces, beside English ones (issue 18: other languages and scripts). */
const NOTES: Record<string, string> = {
  ...SAMPLE_NOTES,
  'memory/2026-05-01.md': '# 2026-05-01\n\n- Kestrelの再処理ジョブが夜中に失敗した。\n- 明日の会議は延期。\n',
  'memory/2026-05-02.md': '# 2026-05-02\n\n- 処理速度を改善した。\n- 東京 and 大阪 offices both closed.\n',
  'memory/2026-05-03.md': '# 2026-05-03\n\n- 我们决定把数据库迁移到新的服务器上。\n- 周五发布新版本。\n',
  'memory/2026-05-04.md': '# 2026-05-04\n\n- วันนี้เรากินข้าวที่ร้านอาหารญี่ปุ่น\n- เสื้อสีขาวซักแล้ว\n',
  'memory/2026-05-05.md': '# 2026-05-05\n\n- ＡＰＩキーを更新した（全角）。\n- ｼﾞｮﾌﾞの設定は半角カナで書いた。\n',
  'memory/2026-05-06.md': '# 2026-05-06\n\n- The API key for the Kestrel dashboard lives in the vault.\n- 東京大阪間の新幹線は速い。\n',
  'memory/2026-05-07.md': '# 2026-05-07\n\n- 今日は晴れ。\n- 旅行の計画を立てた、行き先は京都。\n',
};

let ws: TempWorkspace;
let service: MemoryService;
let db: ReturnType<typeof openSqlite>;
let keyword: KeywordSearcher;

beforeAll(async () => {
  ws = createTempWorkspace(NOTES);
  service = openService(ws);
  await service.invoke('index.sync', {});
  db = openSqlite(service.indexPath, { readonly: true });
  keyword = new KeywordSearcher(db);
});
afterAll(async () => {
  db.close();
  await service.close();
  ws.cleanup();
});

const ALL = ['memory', 'dreams', 'sessions'] as const;
/** Keyword search alone (no vectors): what the words find. */
const keywordPaths = (query: string): string[] => keyword.search({ query, limit: 10, sources: ALL }).map((r) => r.path);
/** The line a query's snippet picks in a note's text when it may not widen (1-based), and that line. */
function matchedLine(query: string, path: string): string {
  const terms = keyword.plan(query).terms.map((t) => ({ forms: snippetForms(t), weight: t.isStopword ? 0.05 : t.weight }));
  const snippet = buildSnippet(NOTES[path]!, 1, terms, { contextChars: 0 });
  expect(snippet.matchedWeight).toBeGreaterThan(0);
  expect(snippet.startLine).toBe(snippet.endLine);
  return snippet.text;
}
const search = async (query: string) => (await service.invoke('memory.search', { query, limit: 10, recall: false })).results;

describe('search in scripts written without spaces', () => {
  it('finds a Japanese word inside a longer run, with the original line as the snippet', async () => {
    expect(keywordPaths('再処理')).toEqual(['memory/2026-05-01.md']);
    const [top] = await search('再処理');
    expect(top?.path).toBe('memory/2026-05-01.md');
    expect(top!.snippet).toContain('Kestrelの再処理ジョブが夜中に失敗した。');
    expect(matchedLine('再処理', 'memory/2026-05-01.md')).toBe('- Kestrelの再処理ジョブが夜中に失敗した。');
    expect(matchedLine('会議', 'memory/2026-05-01.md')).toBe('- 明日の会議は延期。');
    // A run is matched exactly: 処理 alone is in both notes, 再処理 in one.
    expect(keywordPaths('処理').sort()).toEqual(['memory/2026-05-01.md', 'memory/2026-05-02.md']);
  });

  it('finds a query of one character, inside a run and at its end', () => {
    expect(keywordPaths('再')).toEqual(['memory/2026-05-01.md']);
    // 都 only ends a run (京都。): the run's last character is indexed on its own.
    expect(keywordPaths('都')).toEqual(['memory/2026-05-07.md']);
    expect(keywordPaths('晴')).toEqual(['memory/2026-05-07.md']);
  });

  it('matches a short run exactly, not its characters scattered over the note', () => {
    // 東京 and 大阪 apart (2026-05-02) are not 東京大阪 (2026-05-06).
    expect(keywordPaths('東京大阪')).toEqual(['memory/2026-05-06.md']);
    expect(keywordPaths('東京').sort()).toEqual(['memory/2026-05-02.md', 'memory/2026-05-06.md']);
  });

  it('finds Chinese words, and ranks the note a whole Chinese question is about first', () => {
    expect(keywordPaths('数据库')).toEqual(['memory/2026-05-03.md']);
    expect(keywordPaths('服务器')).toEqual(['memory/2026-05-03.md']);
    // A sentence nobody wrote as such: searched by its pairs of characters.
    expect(keywordPaths('数据库迁移到哪个服务器了')[0]).toBe('memory/2026-05-03.md');
  });

  it('finds Thai words and keeps their vowel and tone marks apart (ข้าว rice is not ขาว white)', () => {
    expect(keywordPaths('ข้าว')).toEqual(['memory/2026-05-04.md']);
    expect(keywordPaths('ร้านอาหาร')).toEqual(['memory/2026-05-04.md']);
    const rice = keyword.search({ query: 'ข้าว', limit: 10, sources: ALL })[0]!;
    expect(rice.snippet).toContain('กินข้าว');
    const white = keyword.search({ query: 'สีขาว', limit: 10, sources: ALL });
    expect(white.map((r) => r.path)).toEqual(['memory/2026-05-04.md']);
    expect(white[0]!.snippet).toContain('เสื้อสีขาว');
    expect(matchedLine('สีขาว', 'memory/2026-05-04.md')).toBe('- เสื้อสีขาวซักแล้ว');
    expect(matchedLine('ข้าว', 'memory/2026-05-04.md')).toBe('- วันนี้เรากินข้าวที่ร้านอาหารญี่ปุ่น');
  });

  it('finds an English word written against Japanese text, and mixed queries rank the note with both first', async () => {
    expect(keywordPaths('kestrel')).toContain('memory/2026-05-01.md');
    expect(keywordPaths('kestrel')).toContain('memory/2026-05-06.md');
    expect(keywordPaths('Kestrel 再処理')[0]).toBe('memory/2026-05-01.md');
    expect(keywordPaths('Kestrelの再処理')[0]).toBe('memory/2026-05-01.md');
    expect((await search('Kestrel 再処理'))[0]?.path).toBe('memory/2026-05-01.md');
  });

  it('folds full-width and half-width forms (NFKC) on both sides', async () => {
    // Full-width ＡＰＩ in the note, API typed; API in the note, ＡＰＩ typed.
    expect(keywordPaths('API')).toEqual(expect.arrayContaining(['memory/2026-05-05.md', 'memory/2026-05-06.md']));
    expect(keywordPaths('ＡＰＩ')).toEqual(expect.arrayContaining(['memory/2026-05-05.md', 'memory/2026-05-06.md']));
    const fullWidth = keyword.search({ query: 'api', limit: 10, sources: ALL }).find((r) => r.path === 'memory/2026-05-05.md')!;
    expect(fullWidth.snippet).toContain('ＡＰＩキー');
    expect(matchedLine('api', 'memory/2026-05-05.md')).toBe('- ＡＰＩキーを更新した（全角）。');
    // Half-width katakana ｼﾞｮﾌﾞ is ジョブ.
    expect(keywordPaths('ジョブ').sort()).toEqual(['memory/2026-05-01.md', 'memory/2026-05-05.md']);
    expect(keywordPaths('ｼﾞｮﾌﾞ').sort()).toEqual(['memory/2026-05-01.md', 'memory/2026-05-05.md']);
    // The snippet points at the line as the note wrote it.
    expect(matchedLine('ジョブの設定', 'memory/2026-05-05.md')).toBe('- ｼﾞｮﾌﾞの設定は半角カナで書いた。');
    expect((await search('ＡＰＩキー'))[0]?.path).toBe('memory/2026-05-05.md');
  });

  it('keeps English search and odd input working beside them', async () => {
    expect(keywordPaths('restic hetzner')[0]).toBe('MEMORY.md');
    for (const q of ['。', '「」', 'ー', '再"処理', '"再処理*', '再処理 OR NEAR(', '東'.repeat(5000), '😀再😀', 'ｰ', '\u0e48', 'ก\u0e48\u0e48\u0e48']) {
      expect(Array.isArray(keyword.search({ query: q, limit: 10, sources: ALL }))).toBe(true);
      expect(Array.isArray(await search(q.slice(0, 2000)))).toBe(true);
    }
  });
});

describe('search workers and unspaced scripts', () => {
  it("find the first Japanese note indexed after they started (their cache of an empty side table is dropped by the engine's write)", async () => {
    const english = createTempWorkspace(SAMPLE_NOTES);
    const hosted = openService(english);
    try {
      await hosted.invoke('index.sync', {});
      await hosted.startHosting({ kind: 'daemon', url: null });
      expect(await hosted.search.whenWorkersReady()).toBe(true);
      const before = hosted.search.workers()!;
      expect((await hosted.invoke('memory.search', { query: '再処理 restic', recall: false })).results[0]?.path).toBe('MEMORY.md');
      english.write('memory/2026-05-01.md', NOTES['memory/2026-05-01.md']!);
      await hosted.invoke('index.sync', {});
      const found = (await hosted.invoke('memory.search', { query: '再処理', recall: false })).results;
      expect(found[0]?.path).toBe('memory/2026-05-01.md');
      expect(found[0]?.snippet).toContain('再処理ジョブ');
      const after = hosted.search.workers()!;
      expect(after.answered - before.answered).toBe(2);
    } finally {
      await hosted.close();
      english.cleanup();
    }
  }, 60_000);
});
