import { describe, expect, it } from 'vitest';
import { gramQueries, gramTermsOf } from '../src/index/unspacedGrams.js';

/** Terms as a person reads them (marks moved back from the private-use plane they are indexed in). */
const readable = (terms: string | null): string[] | null =>
  terms === null ? null : terms.split(' ').map((t) => t.replace(/[\u{f0000}-\u{fffff}]/gu, (c) => String.fromCodePoint(c.codePointAt(0)! - 0xf0000)));

describe('unspaced-script terms of a chunk', () => {
  it('has none for English text, plain or typographic', () => {
    expect(gramTermsOf('- Postgres was upgraded from 15 to 16.')).toBeNull();
    expect(gramTermsOf('“Café” – naïve résumé, 10 €, emoji 🦀, Ελληνικά, Русский, 한국어')).toBeNull();
    expect(gramTermsOf('')).toBeNull();
  });

  it('indexes a run as its pairs and its last character, and the English word glued to it', () => {
    expect(readable(gramTermsOf('- Kestrelの再処理ジョブ。'))).toEqual(['の再', '再処', '処理', '理ジ', 'ジョ', 'ョブ', 'ブ', 'kestrel']);
    expect(readable(gramTermsOf('京都'))).toEqual(['京都', '都']);
    expect(readable(gramTermsOf('晴'))).toEqual(['晴']);
    // サーバー keeps its long-vowel marks (ー is not a letter of the Katakana script, but belongs to the word).
    expect(readable(gramTermsOf('サーバー'))).toEqual(['サー', 'ーバ', 'バー', 'ー']);
  });

  it('keeps Thai vowel and tone marks inside the pairs', () => {
    expect(readable(gramTermsOf('กินข้าว'))).toEqual(['กิ', 'ิน', 'นข', 'ข้', '้า', 'าว', 'ว']);
    // As the tokenizer sees them: no combining mark is left to split a term.
    expect(/\p{M}/u.test(gramTermsOf('กินข้าว')!)).toBe(false);
  });

  it('finds every letter of the unspaced scripts, whatever the quick check before the script classes', () => {
    const unspaced = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;
    const missed: string[] = [];
    for (let code = 0; code <= 0x3ffff; code++) {
      if (code >= 0xd800 && code <= 0xdfff) continue;
      const char = String.fromCodePoint(code);
      if (/\p{L}/u.test(char) && unspaced.test(char) && gramTermsOf(`${char}${char}`) === null) missed.push(code.toString(16));
    }
    expect(missed).toEqual([]);
  });

  it('folds full-width and half-width forms (NFKC)', () => {
    expect(readable(gramTermsOf('ＡＰＩ key'))).toEqual(['api']);
    expect(readable(gramTermsOf('ｼﾞｮﾌﾞ'))).toEqual(['ジョ', 'ョブ', 'ブ']);
  });
});

describe('unspaced-script queries', () => {
  it('asks one character as a prefix, a short run as the phrase of its pairs, a sentence by its pairs', () => {
    expect(gramQueries('再')).toEqual([{ text: '再', fts: '"再"*', isStopword: false }]);
    expect(gramQueries('再処理')).toEqual([{ text: '再処理', fts: '"再処 処理"', isStopword: false }]);
    const sentence = gramQueries('再処理はいつ失敗した');
    expect(sentence.map((q) => q.text)).toEqual(['再処', '処理', '理は', 'はい', 'いつ', 'つ失', '失敗', '敗し', 'した']);
    // Pairs of hiragana cut from a sentence are mostly particles and endings.
    expect(sentence.filter((q) => q.isStopword).map((q) => q.text)).toEqual(['はい', 'いつ', 'した']);
  });
});
