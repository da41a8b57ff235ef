import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { sha256Hex } from '../src/platform/hash.js';
import { DocumentReader, entriesWithin } from '../src/dreaming/recall/documentLines.js';
import { entriesAnsweringQuery, queryStems } from '../src/dreaming/recall/queryMatch.js';
import { openIndexDatabase } from '../src/index/database.js';
import { IndexStore } from '../src/index/indexStore.js';
import * as queryTerms from '../src/search/queryTerms.js';
import { parseMarkdownEntries, type MarkdownEntry } from '../src/workspace/markdownEntries.js';

// The real extractQueryTerms (queries) and contentStems (entries), counted: the cache must make stemming an entry a once-per-parse cost.
vi.mock('../src/search/queryTerms.js', async (importOriginal) => {
  const actual = await importOriginal<typeof queryTerms>();
  return { ...actual, extractQueryTerms: vi.fn(actual.extractQueryTerms), contentStems: vi.fn(actual.contentStems) };
});
const extractQueryTerms = vi.mocked(queryTerms.extractQueryTerms);
const contentStems = vi.mocked(queryTerms.contentStems);

/** entriesAnsweringQuery as it was before the cache: every entry stemmed on every call. */
function uncachedAnswering<T extends { body: string }>(query: string, entries: readonly T[]): T[] {
  const wanted = new Set(extractQueryTerms(query).filter((t) => !t.isStopword).flatMap((t) => [t.stem, ...t.variants]));
  if (wanted.size === 0 || entries.length <= 1) return [...entries];
  const shared = entries.map((e) => [...new Set(extractQueryTerms(e.body).filter((t) => !t.isStopword).map((t) => t.stem))].filter((stem) => wanted.has(stem)).length);
  const best = Math.max(...shared);
  return best > 0 ? entries.filter((_, i) => shared[i] === best) : [...entries];
}

const NOTE = [
  '# 2026-11-27',
  '',
  '## Work',
  '- Moved the production deploy target from fly.io to a Hetzner box named ledgerd-prod-2.',
  '- Invoice fonts are still missing glyphs; painted over it with a fallback.',
  '  Continued: the children of the invoice template inherit the font.',
  '- Bought a new keyboard for the café desk.',
  'Plain paragraph line about the staging database on port 5433.',
  '<!-- importance: 8 -->',
  '- Naïve retry loop in the queue worker; the worker buys time with exponential backoff.',
  '',
  '```',
  '- not an entry: fenced code',
  '```',
  '- The a an the of.',
  '- Tokyo 東京 trip: 新幹線 tickets.',
  '- Painting the garden fence on Sunday with Marek.',
].join('\n');

const QUERIES = [
  'production deploy',
  'what did I buy',
  'child',
  'paint',
  'invoice font',
  'cafe',
  'naive retry',
  'the of a',
  '東京',
  'staging port 5433',
  'worker',
  'nothing matches zebra',
  '',
  'Marek garden painting',
];

beforeEach(() => {
  extractQueryTerms.mockClear();
  contentStems.mockClear();
});

describe('entriesAnsweringQuery with the entry stem cache', () => {
  it('picks the same entries as stemming every entry each time, for every window of a note', () => {
    const entries = parseMarkdownEntries(NOTE);
    const fresh = () => parseMarkdownEntries(NOTE); // uncached copies of the same entries
    let compared = 0;
    for (const query of QUERIES) {
      const wanted = queryStems(query);
      for (let start = 0; start < entries.length; start++) {
        for (let end = start; end <= entries.length; end++) {
          const window = entries.slice(start, end);
          const expected = uncachedAnswering(query, fresh().slice(start, end)).map((e) => e.startLine);
          expect(entriesAnsweringQuery(query, window).map((e) => e.startLine)).toEqual(expected);
          expect(entriesAnsweringQuery(wanted, window).map((e) => e.startLine)).toEqual(expected);
          compared++;
        }
      }
    }
    expect(compared).toBeGreaterThan(500);
    // Spot checks, so the comparison is not between two equally wrong answers.
    const lines = (q: string) => entriesAnsweringQuery(q, entries).map((e) => e.startLine);
    expect(lines('what did I buy')).toEqual([7, 10]); // bought, buys
    expect(lines('paint')).toEqual([5, 17]); // painted, painting
    expect(lines('child')).toEqual([5]); // children on the continuation line
    expect(lines('nothing matches zebra')).toEqual(entries.map((e) => e.startLine)); // found by meaning: all credited
  });

  it('stems each entry once per parse and the query once per search, not once per result', () => {
    const entries = parseMarkdownEntries(NOTE);
    const wanted = queryStems('invoice font');
    expect(extractQueryTerms).toHaveBeenCalledTimes(1);
    for (let round = 0; round < 5; round++) {
      entriesAnsweringQuery(wanted, entries);
      entriesAnsweringQuery(wanted, entries.slice(1, 4));
    }
    expect(contentStems).toHaveBeenCalledTimes(entries.length);
    entriesAnsweringQuery(queryStems('production deploy'), entries);
    expect(extractQueryTerms).toHaveBeenCalledTimes(2);
    expect(contentStems).toHaveBeenCalledTimes(entries.length);
    // A new parse is new entries: stemmed again (the cache holds nothing the reader dropped).
    entriesAnsweringQuery(wanted, parseMarkdownEntries(NOTE));
    expect(contentStems).toHaveBeenCalledTimes(2 * entries.length);
  });
});

describe('contentStems', () => {
  it("gives the stems of extractQueryTerms' content words, in order, without their variants", () => {
    const long = Array.from({ length: 700 }, (_, i) => `word${i % 300}x the`).join(' '); // past both caps: 512 words, 256 terms
    const texts = [...QUERIES, NOTE, long, "Priya's smart watch bought children's toys", 'ＡＰＩ naïve café Kestrelの東京', ''];
    for (const text of texts) {
      const expected = extractQueryTerms(text).filter((t) => !t.isStopword).map((t) => t.stem);
      expect(contentStems(text), text.slice(0, 40)).toEqual(expected);
    }
    expect(contentStems('Bought the painted fences')).toEqual(['bought', 'paint', 'fenc']);
  });
});

describe('entriesWithin', () => {
  it('finds the same entries as scanning them all, for any line range', () => {
    const entries = parseMarkdownEntries(NOTE);
    const total = NOTE.split('\n').length;
    for (let start = 1; start <= total + 2; start++) {
      for (let end = start; end <= total + 3; end++) {
        expect(entriesWithin(entries, start, end)).toEqual(entries.filter((e) => e.endLine >= start && e.startLine <= end));
      }
    }
    expect(entriesWithin([] as MarkdownEntry[], 1, 5)).toEqual([]);
  });
});

describe('DocumentReader cache', () => {
  let base: string;
  let root: string;
  let store: IndexStore;
  let close: () => void;

  beforeEach(() => {
    base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'reverie-recall-reader-')));
    root = path.join(base, 'workspace');
    const db = openIndexDatabase(path.join(base, 'data', 'index.sqlite'), { disableVectorExtension: true }).db;
    store = new IndexStore(db);
    close = () => db.close();
  });
  afterEach(() => {
    close();
    fs.rmSync(base, { recursive: true, force: true });
  });

  /** A note of exactly `chars` characters, on disk and in the index. */
  function note(rel: string, chars: number, word = 'entry'): string {
    const line = `- ${word} ${rel}`;
    let text = `# ${rel}\n`;
    while (text.length + line.length + 1 <= chars) text += `${line}\n`;
    text = text.padEnd(chars, 'x');
    const abs = path.join(root, rel);
    fs.mkdirSync(path.dirname(abs), { recursive: true });
    fs.writeFileSync(abs, text);
    const stat = fs.statSync(abs);
    store.writeFileRowOnly({ path: rel, absPath: abs, source: 'memory', sha256: sha256Hex(text), mtimeMs: stat.mtimeMs, size: stat.size, status: 'indexed', reason: null });
    return text;
  }

  it('is bounded by characters of text, evicting the least recently used notes', () => {
    for (const n of ['a', 'b', 'c', 'd']) note(`memory/${n}.md`, 1000);
    const reader = new DocumentReader(store.db, root, 2500);
    const a = reader.read('memory/a.md');
    const b = reader.read('memory/b.md');
    expect(reader.cachedChars).toBe(2000);
    expect(reader.read('memory/a.md')).toBe(a); // kept: the same parse; a is now the most recently used
    reader.read('memory/c.md'); // 3000 > 2500: b, the least recently used, goes
    expect(reader.cachedChars).toBe(2000);
    expect(reader.read('memory/a.md')).toBe(a);
    const b2 = reader.read('memory/b.md'); // read again (c goes)
    expect(b2).not.toBe(b);
    expect(b2).toEqual(b);
    expect(reader.read('memory/a.md')).toBe(a);
    expect(reader.read('memory/b.md')).toBe(b2);
    expect(reader.cachedChars).toBeLessThanOrEqual(2500);
  });

  it('does not keep a note larger than the whole budget, nor evict the others for it', () => {
    note('memory/small.md', 500);
    note('memory/huge.md', 5000);
    const reader = new DocumentReader(store.db, root, 2500);
    const small = reader.read('memory/small.md');
    const huge = reader.read('memory/huge.md');
    expect(huge?.entries.length).toBeGreaterThan(100);
    expect(reader.read('memory/huge.md')).not.toBe(huge);
    expect(reader.read('memory/small.md')).toBe(small);
    expect(reader.cachedChars).toBe(500);
  });

  it('re-reads a note when the index says it changed (size, mtime, hash), and only then', () => {
    const first = note('memory/n.md', 800, 'before');
    const reader = new DocumentReader(store.db, root, 10_000);
    const doc = reader.read('memory/n.md');
    expect(doc?.lines.join('\n')).toBe(first);
    // Rewritten on disk, not yet re-indexed: the index is what says a note changed.
    fs.writeFileSync(path.join(root, 'memory/n.md'), 'changed');
    expect(reader.read('memory/n.md')).toBe(doc);
    const second = note('memory/n.md', 800, 'after!'); // same size, new hash and mtime in the index
    const reread = reader.read('memory/n.md');
    expect(reread).not.toBe(doc);
    expect(reread?.lines.join('\n')).toBe(second);
    expect(reader.cachedChars).toBe(800);
    expect(reader.read('memory/missing.md')).toBeNull();
  });
});
