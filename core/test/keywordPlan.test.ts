import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type Database from 'better-sqlite3';
import { openIndexDatabase } from '../src/index/database.js';
import type { SourceKind } from '../src/contract/index.js';
import { KeywordSearcher, ranksInBm25 } from '../src/search/keywordSearch.js';
import { insertChunkRow } from './helpers/chunkRows.js';

let dir: string | undefined;
let db: Database.Database | undefined;
afterEach(() => {
  db?.close();
  db = undefined;
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

/** An index of `n` one-line chunks; `line(i)` is chunk i's text, `source(i)` its source. */
function indexOf(n: number, line: (i: number) => string, source: (i: number) => SourceKind = () => 'memory'): KeywordSearcher {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'reverie-plan-'));
  db = openIndexDatabase(path.join(dir, 'index.sqlite')).db;
  const file = db.prepare("INSERT INTO files (path, abs_path, source, sha256, mtime_ms, size, status, indexed_at) VALUES (?, '', ?, 'x', 0, 0, 'indexed', 0)");
  const chunk = { run: (where: string, source: string, text: string) => insertChunkRow(db!, { path: where, source, startLine: 1, endLine: 1, text }) };
  db.transaction(() => {
    for (let i = 0; i < n; i++) {
      file.run(`memory/n${i}.md`, source(i));
      chunk.run(`memory/n${i}.md`, source(i), line(i));
    }
  })();
  return new KeywordSearcher(db);
}

describe('keyword query plan', () => {
  it('fills the page from the wanted sources when another source takes the top rows, in rank order with ties by chunk', () => {
    // 300 diary chunks say "canary" three times (they rank first); 25 memory chunks say it once.
    const searcher = indexOf(
      325,
      (i) => (i < 300 ? `canary canary canary diary ${i}` : `the canary rollout note ${i}`),
      (i) => (i < 300 ? 'dreams' : 'memory'),
    );
    const plan = searcher.plan('canary');
    const memoryOnly = searcher.rankedHits(plan, 10, new Set<SourceKind>(['memory', 'sessions']));
    expect(memoryOnly.map((h) => h.source)).toEqual(Array(10).fill('memory'));
    // Equal texts rank equally: the lower chunk id first, whatever the page size.
    expect(memoryOnly.map((h) => h.id)).toEqual([...memoryOnly.map((h) => h.id)].sort((a, b) => a - b));
    expect(searcher.rankedHits(plan, 30, new Set<SourceKind>(['memory'])).map((h) => h.id)).toEqual(Array.from({ length: 25 }, (_, i) => 301 + i));
    const everything = searcher.rankedHits(plan, 10, new Set<SourceKind>(['memory', 'dreams', 'sessions']));
    expect(everything).toHaveLength(10);
    expect(everything.every((h) => h.source === 'dreams')).toBe(true);
  });

  it("knows which words FTS5's BM25 weighs at all (idf above zero: in fewer than half the chunks)", () => {
    expect(ranksInBm25(10, 1000)).toBe(true);
    expect(ranksInBm25(499, 1000)).toBe(true);
    expect(ranksInBm25(500, 1000)).toBe(false);
    expect(ranksInBm25(900, 1000)).toBe(false);
  });

  it('leaves words in most chunks out of the selection when they would only add thousands of zero-weight rows', () => {
    // "rollout" is in every chunk, "kestrel" in 40, "harbour" in 300.
    const searcher = indexOf(3_000, (i) => `rollout notes ${i % 75 === 0 ? 'kestrel' : ''} ${i % 10 === 0 ? 'harbour' : ''}`);
    const plan = searcher.plan('kestrel harbour rollout');
    expect(plan.match).toBe('"kestrel" OR "harbour"');
    expect(plan.postings).toBe(340);
    // The word still counts for the snippet and passage focus.
    expect(plan.terms.find((t) => t.word === 'rollout')).toMatchObject({ df: 3_000, selects: true });
    const hits = searcher.rankedHits(plan, 40, new Set(['memory']));
    expect(hits.length).toBeGreaterThan(0);
    expect(searcher.texts.read(hits.slice(0, 40)).every((h) => h.text.includes('kestrel'))).toBe(true);
  });

  it('still widens a thin candidate list with such words while that stays cheap, and uses them when nothing else matches', () => {
    const small = indexOf(200, (i) => `rollout notes ${i === 7 ? 'kestrel' : ''}`);
    expect(small.plan('kestrel rollout').match).toBe('"kestrel" OR "rollout"');
    expect(small.plan('rollout').match).toBe('"rollout"');
  });
});
