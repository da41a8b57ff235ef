import { stemmer } from 'stemmer';
import { describe, expect, it } from 'vitest';
import { HashEmbeddingProvider } from '../src/embed/hashProvider.js';
import { isPlainWordBreak } from '../src/embed/wordBreakCharacters.js';
import { WORD_HASH_START, WordTable, wordHashStep, type WordEntry } from '../src/embed/wordTable.js';
import { STOPWORDS } from '../src/platform/text/stopwords.js';

// The hash embedding reads most text by character code straight into its word table; the
// vectors must stay bit for bit those of the plain definition (hash-v1, written out below as it
// was before the scan), on any text.

/** hash-v1 as first written: NFKC (skipped for ASCII), lowercase, Unicode words, counted in a Map. */
function referenceEmbed(text: string, dims = 384): Float32Array {
  const slotOf = (h: number): number => ((h >>> 31) & 1 ? ~(h % dims) : h % dims);
  const fnv1a = (s: string): number => {
    let h = 0x811c9dc5;
    for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
    return h >>> 0;
  };
  const addAt = (v: Float32Array, slot: number, w: number): void => {
    if (slot >= 0) v[slot] = v[slot]! + w;
    else v[~slot] = v[~slot]! - w;
  };
  // eslint-disable-next-line no-control-regex -- ASCII is a range from NUL
  const lower = (/^[\x00-\x7f]*$/.test(text) ? text : text.normalize('NFKC')).toLowerCase();
  const counts = new Map<string, number>();
  for (const [word] of lower.matchAll(/[\p{L}\p{N}]+/gu)) if (!STOPWORDS.has(word)) counts.set(word, (counts.get(word) ?? 0) + 1);
  const vector = new Float32Array(dims);
  for (const [word, count] of counts) {
    const weight = 1 + Math.log(count);
    addAt(vector, slotOf(fnv1a(`w:${/^[a-z]+$/.test(word) ? stemmer(word) : word}`)), weight);
    const padded = `^${word}$`;
    const grams = Math.max(0, padded.length - 2);
    const gramWeight = (0.8 * weight) / Math.sqrt(Math.max(1, grams));
    for (let i = 0; i < grams; i++) addAt(vector, slotOf(fnv1a(`g:${padded.slice(i, i + 3)}`)), gramWeight);
  }
  let sum = 0;
  for (const v of vector) sum += v * v;
  const norm = Math.sqrt(sum);
  if (norm > 0) for (let i = 0; i < dims; i++) vector[i] = vector[i]! / norm;
  return vector;
}

function bits(v: Float32Array): number[] {
  return Array.from(new Uint32Array(v.buffer, v.byteOffset, v.length));
}

const VARIED = [
  '',
  '   \n\t ',
  'Restic backups on the staging box. The STAGING box, again: backups, backups!',
  'Booked dentist with Kai in Lisbon for Friday 2 October — 66 euros… “quoted” ‘single’ • bullet → arrow',
  'non\u00a0breaking\u2009thin\u200bzero width\u00adsoft-hyphen',
  'Café naïve résumé — decomposed cafe\u0301 and precomposed café',
  'Дмитрий встретил Олю в Москве; 東京で会議 2023年5月; ΟΔΟΣ final sigma Σ',
  'fullwidth ＡＢＣ１２３ and ligature ﬁne and ½ ① Ⅻ x² ™ ℃ ¨ ㎏',
  'emoji 😀 between words 👍🏽 and 𝐁𝐨𝐥𝐝 maths and 𐌰𐌱 gothic',
  'lone \ud800 high and \udc00 low surrogates, \udbff\udfff a pair, end \ud83d',
  'İstanbul DİKKAT ß straße',
  'tab\tseparated\rcarriage\r\nlines\u2028line\u2029paragraph',
  'a an the and of 123 4567 x1y2 ABC123def',
  `${'word '.repeat(5000)}${'x'.repeat(20_000)} tail`,
];

describe('the hash embedding', () => {
  it('gives the vectors of the plain definition on varied and bad text', () => {
    const provider = new HashEmbeddingProvider();
    for (const text of VARIED) {
      const want = bits(referenceEmbed(text));
      expect(bits(provider.embedSync(text)), JSON.stringify(text.slice(0, 60))).toEqual(want);
      expect(bits(provider.embedSyncGenerally(text)), JSON.stringify(text.slice(0, 60))).toEqual(want);
    }
  });

  it('gives them on random mixtures of ASCII, breaks, letters, marks and surrogates', () => {
    const pieces = ['a', 'B', 'z', '7', ' ', '.', '-', "'", '\n', 'the', 'Word', '—', '–', '“', '”', '’', '…', '•', '\u00a0', 'é', 'e\u0301', '\u0301', 'Σ', 'ς', 'я', '東', '１', 'ﬁ', '²', '™', '😀', '\ud800', '\udfff', 'İ', 'ß'];
    let seed = 42;
    const next = (n: number): number => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return (seed >>> 8) % n;
    };
    const provider = new HashEmbeddingProvider(64);
    for (let t = 0; t < 2000; t++) {
      let text = '';
      const length = next(40);
      // Mostly ASCII with a few others, as notes are; some texts all sorts.
      const wide = t % 4 === 0 ? pieces.length : 9;
      for (let i = 0; i < length; i++) text += pieces[next(10) < 8 ? next(wide) : next(pieces.length)];
      expect(bits(provider.embedSync(text)), JSON.stringify(text)).toEqual(bits(referenceEmbed(text, 64)));
    }
  });

  it('reads every character it takes for a plain break as one in any ASCII company', () => {
    const provider = new HashEmbeddingProvider(32);
    let breaks = 0;
    for (let code = 0x80; code < 0x10000; code++) {
      if (!isPlainWordBreak(code)) continue;
      breaks++;
      const c = String.fromCharCode(code);
      const text = `ab${c}Cd${c}${c}e ${c}`;
      expect(bits(provider.embedSync(text)), code.toString(16)).toEqual(bits(referenceEmbed(text, 32)));
    }
    // Two or three of them side by side, drawn from all of them.
    const all = Array.from({ length: 0x10000 - 0x80 }, (_, i) => i + 0x80).filter(isPlainWordBreak);
    let seed = 9;
    const pick = (): string => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return String.fromCharCode(all[(seed >>> 4) % all.length]!);
    };
    for (let i = 0; i < 20_000; i++) {
      const text = `x${pick()}${pick()}y${pick()}${pick()}${pick()}z`;
      expect(bits(provider.embedSync(text)), JSON.stringify(text)).toEqual(bits(referenceEmbed(text, 32)));
    }
    // Dashes, quotes, symbols and spaces are many; letters, digits, marks and surrogates are none of them.
    expect(breaks).toBeGreaterThan(1000);
    for (const c of 'éяΣ東１ﬁ²™\u0301\ud800\udc00') expect(isPlainWordBreak(c.charCodeAt(0)), c).toBe(false);
    for (const c of '—–“”‘’…•\u00a0→') expect(isPlainWordBreak(c.charCodeAt(0)), c).toBe(true);
  });
});

describe('the word table', () => {
  const entry = (word: string, hash: number): WordEntry => ({ hash, word, stopword: word === 'the', wordSlot: 0, grams: new Int32Array(0), gramsRoot: 1, seenIn: 0, count: 0 });
  const hashOf = (word: string): number => [...word].reduce((h, c) => wordHashStep(h, c.charCodeAt(0)), WORD_HASH_START);
  const counted = (table: WordTable): string[] => table.counted.map((e) => `${e.word}×${e.count}`);

  it('counts a text’s words in order of first appearance, stopwords left out, case folded', () => {
    const table = new WordTable(100, entry);
    table.beginText();
    const text = 'Beta the alpha BETA beta';
    for (const [start, end] of [[0, 4], [5, 8], [9, 14], [15, 19], [20, 24]] as const) {
      table.countAsciiWord(text, start, end, hashOf(text.slice(start, end).toLowerCase()));
    }
    table.countWord('alpha');
    expect(counted(table)).toEqual(['beta×3', 'alpha×2']);
    table.beginText();
    table.countWord('beta');
    expect(counted(table)).toEqual(['beta×1']);
  });

  it('tells apart words whose hashes collide, and keeps them as the table grows', () => {
    const made: string[] = [];
    const table = new WordTable(100_000, (word, hash) => (made.push(word), entry(word, hash)));
    table.beginText();
    // Every word given the same hash: found by its characters, not its hash.
    const words = Array.from({ length: 3000 }, (_, i) => `w${i}`);
    for (const w of words) table.countAsciiWord(w, 0, w.length, 7);
    for (const w of words) table.countAsciiWord(w.toUpperCase(), 0, w.length, 7);
    expect(made).toHaveLength(3000);
    expect(table.counted.every((e) => e.count === 2)).toBe(true);
  });

  it('forgets its words when full, only between texts', () => {
    const made: string[] = [];
    const table = new WordTable(2, (word, hash) => (made.push(word), entry(word, hash)));
    table.beginText();
    for (const w of ['a', 'b', 'c', 'a']) table.countWord(w);
    expect(counted(table)).toEqual(['a×2', 'b×1', 'c×1']);
    table.beginText();
    table.countWord('a');
    expect(made).toEqual(['a', 'b', 'c', 'a']);
  });
});
