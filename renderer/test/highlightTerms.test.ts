import { describe, expect, it } from 'vitest';
import { highlightTerms, queryStems } from '../src/views/highlight/highlightTerms.js';

const marked = (text: string, query: string): string[] =>
  highlightTerms(text, query)
    .filter((p) => p.isMatch)
    .map((p) => p.text);

describe('highlightTerms', () => {
  it('marks whole words of the query, case-insensitively', () => {
    expect(marked('Postgres upgrade: the POSTGRES cluster', 'postgres')).toEqual(['Postgres', 'POSTGRES']);
  });

  it('marks inflected forms the engine matches by stem', () => {
    expect(marked('We upgraded; upgrades are dull', 'upgrading')).toEqual(['upgraded', 'upgrades']);
    expect(marked('She decided about the backups.', 'decide about backup')).toEqual(['decided', 'backups']);
  });

  it('never marks stop words, nor a query word inside a longer word', () => {
    expect(marked('This island is where the islands meet', 'what is the island')).toEqual(['island', 'islands']);
    expect(marked('Is it islands?', 'is')).toEqual([]);
    expect(queryStems('what is the')).toEqual(new Set());
    expect(marked('reheron heron', 'heron')).toEqual(['heron']);
    expect(marked('postgresql and postgres', 'post')).toEqual([]);
  });

  it('marks words of other scripts whole, and accents as search folds them', () => {
    expect(marked('Café in Zürich, 東京', 'cafe zurich 東京')).toEqual(['Café', 'Zürich', '東京']);
  });

  it('keeps the text intact, including line breaks and regex characters', () => {
    const text = 'a (b)\n* c.d [e]';
    expect(
      highlightTerms(text, '(b) c.d')
        .map((p) => p.text)
        .join(''),
    ).toBe(text);
  });
});

describe('highlightTerms in scripts written without spaces', () => {
  it('marks a searched run wherever it is inside a longer one, as search finds it', () => {
    expect(marked('Kestrelの再処理ジョブが失敗した', '再処理')).toEqual(['再処理']);
    expect(marked('我们决定把数据库迁移到新的服务器上', '数据库 服务器')).toEqual(['数据库', '服务器']);
    expect(marked('วันนี้เรากินข้าวที่ร้าน', 'ข้าว')).toEqual(['ข้าว']);
    expect(marked('Kestrelの再処理 and kestrel', 'kestrel 再処理')).toEqual(['Kestrel', '再処理', 'kestrel']);
    expect(marked('Reactのコンポーネント', 'react')).toEqual(['React']);
    // Half-width katakana typed is searched as full-width (NFKC).
    expect(marked('ジョブの設定', 'ｼﾞｮﾌﾞ')).toEqual(['ジョブ']);
    expect(marked('ｼﾞｮﾌﾞの設定', 'ジョブ')).toEqual(['ｼﾞｮﾌﾞ']);
    expect(marked('東京 and 大阪', '東京大阪')).toEqual([]);
  });
});
