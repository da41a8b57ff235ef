import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type Database from 'better-sqlite3';
import { openIndexDatabase } from '../src/index/database.js';
import type { SourceKind } from '../src/contract/index.js';
import { KeywordSearcher } from '../src/search/keywordSearch.js';
import { rangesOf } from '../src/search/sourceRanges.js';
import { insertChunkRow } from './helpers/chunkRows.js';

let dir: string | undefined;
let db: Database.Database | undefined;
afterEach(() => {
  db?.close();
  db = undefined;
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

const ALL: SourceKind[] = ['memory', 'dreams', 'sessions'];

/** An index of one-line chunks, in id order: `rows[i]` is chunk i+1's source and text. */
function indexOf(rows: ReadonlyArray<{ source: SourceKind; text: string }>): KeywordSearcher {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'reverie-filter-'));
  db = openIndexDatabase(path.join(dir, 'index.sqlite')).db;
  const file = db.prepare("INSERT INTO files (path, abs_path, source, sha256, mtime_ms, size, status, indexed_at) VALUES (?, '', ?, 'x', 0, 0, 'indexed', 0)");
  const chunk = { run: (where: string, source: string, text: string) => insertChunkRow(db!, { path: where, source, startLine: 1, endLine: 1, text }) };
  db.transaction(() => {
    rows.forEach(({ source, text }, i) => {
      const where = `${source}/n${i}.md`;
      file.run(where, source);
      chunk.run(where, source, text);
    });
  })();
  return new KeywordSearcher(db);
}

/** A small deterministic generator, so the corpus is the same on every run. */
function wordsOf(seed: number, vocabulary: readonly string[], count: number): string {
  let x = seed * 2654435761;
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    out.push(vocabulary[x % vocabulary.length]!);
  }
  return out.join(' ');
}

const VOCABULARY = ['canary', 'rollout', 'harbour', 'kestrel', 'deploy', 'postgres', 'review', 'budget', 'travel', 'garden', 'invoice', 'backup', 'laptop', 'meeting', 'cluster'];

describe('source filters inside the keyword ranking', () => {
  it('returns the same rows, in the same order, as ranking every source and keeping the wanted ones', () => {
    // Transcripts outnumber notes 8 to 1 and share their words, so they crowd the top rows.
    const rows = Array.from({ length: 1_800 }, (_, i) => ({
      source: (i % 9 === 0 ? 'memory' : i % 97 === 0 ? 'dreams' : 'sessions') as SourceKind,
      text: wordsOf(i + 1, VOCABULARY, 6 + (i % 11)),
    }));
    const searcher = indexOf(rows);
    const filters: SourceKind[][] = [['memory'], ['sessions'], ['dreams'], ['memory', 'sessions'], ['memory', 'dreams'], ['dreams', 'sessions']];
    let compared = 0;
    for (const query of ['canary rollout', 'kestrel', 'harbour postgres backup', 'garden invoice', 'laptop meeting cluster review']) {
      const plan = searcher.plan(query);
      // Post-filtering with every matching row ranked: the reference the filtered ranking must equal.
      const everyRow = searcher.rankedHits(plan, 100_000, new Set(ALL));
      expect(everyRow.length).toBeGreaterThan(30);
      for (const filter of filters) {
        for (const limit of [1, 10, 30]) {
          const expected = everyRow.filter((h) => filter.includes(h.source)).slice(0, limit);
          const got = searcher.rankedHits(plan, limit, new Set(filter));
          expect(got.map((h) => [h.id, h.rank])).toEqual(expected.map((h) => [h.id, h.rank]));
          compared++;
        }
      }
    }
    expect(compared).toBe(5 * 6 * 3);
  });

  it('ranks the newest matches of the wanted source when a query matches more rows than the rank budget', () => {
    // 300 notes written first, then 13,000 newer transcript chunks with the same word: ranking
    // only the newest matches of every source used to leave the notes out entirely.
    const rows = [
      ...Array.from({ length: 300 }, (_, i) => ({ source: 'memory' as SourceKind, text: `canary note ${i}` })),
      ...Array.from({ length: 13_000 }, (_, i) => ({ source: 'sessions' as SourceKind, text: `canary transcript line ${i}` })),
    ];
    const searcher = indexOf(rows);
    const plan = searcher.plan('canary');
    expect(plan.postings).toBeGreaterThan(12_000);
    const memory = searcher.rankedHits(plan, 10, new Set<SourceKind>(['memory']));
    expect(memory).toHaveLength(10);
    expect(memory.every((h) => h.source === 'memory')).toBe(true);
    const sessions = searcher.rankedHits(plan, 10, new Set<SourceKind>(['sessions']));
    expect(sessions.every((h) => h.source === 'sessions')).toBe(true);
  }, 60_000);

  it('puts the rank budget at the same row when the wanted source lies in several id ranges', () => {
    // Transcripts in three batches between notes: the budget's floor falls inside the oldest batch.
    const batch = (n: number, from: number) => Array.from({ length: n }, (_, i) => ({ source: 'sessions' as SourceKind, text: `canary transcript ${i % 7 === 0 ? 'canary' : 'line'} ${from + i}` }));
    const notes = (n: number) => Array.from({ length: n }, (_, i) => ({ source: 'memory' as SourceKind, text: `canary note ${i % 5 === 0 ? 'canary canary' : ''}` }));
    // The notes between them are wide enough (a twentieth of the ids) for each batch to be a range of its own.
    const rows = [...batch(6_000, 0), ...notes(1_000), ...batch(4_000, 6_000), ...notes(1_000), ...batch(3_000, 10_000)];
    const searcher = indexOf(rows);
    const plan = searcher.plan('canary');
    expect(plan.postings).toBeGreaterThan(12_000);
    const filters: SourceKind[][] = [['sessions'], ['memory'], ['sessions', 'dreams']];
    const listed = (s: KeywordSearcher) => filters.map((f) => s.rankedHits(plan, 30, new Set(f)).map((h) => [h.id, h.rank]));
    const withRuns = listed(searcher);
    // The budget leaves the oldest transcripts out: no row below the 12,001st newest match.
    expect(Math.min(...withRuns[0]!.map(([id]) => id!))).toBeGreaterThanOrEqual(1_000);
    expect(rangesOf(db!.prepare('SELECT first_id, last_id, source FROM chunk_source_runs ORDER BY first_id').all() as never, new Set(['sessions']), 8)).toHaveLength(3);
    db!.exec('DROP TRIGGER chunk_source_runs_after_insert');
    expect(listed(new KeywordSearcher(db!))).toEqual(withRuns);
  }, 60_000);

  it('a memory-filtered search finds the memory line when 1,000 transcript chunks outrank it, and never returns a transcript', () => {
    // The note is written between two batches of transcripts (three runs), as a day of agent work does.
    const transcripts = (from: number) => Array.from({ length: 500 }, (_, i) => ({ source: 'sessions' as SourceKind, text: `kestrel kestrel kestrel rollout ${from + i}` }));
    const rows = [...transcripts(0), { source: 'memory' as SourceKind, text: 'The kestrel rollout plan lives in the ops folder, next to the garden invoices.' }, ...transcripts(500)];
    const searcher = indexOf(rows);
    const plan = searcher.plan('kestrel rollout');
    const everyRow = searcher.rankedHits(plan, 100_000, new Set(ALL));
    // The transcripts outrank the note in an unfiltered ranking.
    expect(everyRow.findIndex((h) => h.source === 'memory')).toBeGreaterThanOrEqual(1_000);
    const memory = searcher.rankedHits(plan, 10, new Set<SourceKind>(['memory']));
    expect(memory.map((h) => h.id)).toEqual([501]);
    const results = searcher.search({ query: 'kestrel rollout', limit: 10, sources: ['memory'] });
    expect(results.map((r) => r.source)).toEqual(['memory']);
    expect(results[0]!.snippet).toContain('kestrel rollout plan');
  });

  it('gives the same rows when the runs table cannot be trusted (its trigger dropped) and the source of each match is read instead', () => {
    const rows = Array.from({ length: 1_200 }, (_, i) => ({
      source: (Math.floor(i / 40) % 3 === 0 ? 'memory' : Math.floor(i / 40) % 7 === 0 ? 'dreams' : 'sessions') as SourceKind,
      text: wordsOf(i + 7, VOCABULARY, 5 + (i % 9)),
    }));
    const searcher = indexOf(rows);
    const filters: SourceKind[][] = [['memory'], ['sessions'], ['dreams'], ['memory', 'dreams']];
    const queries = ['canary rollout', 'harbour postgres backup', 'laptop meeting cluster review'];
    const listed = (s: KeywordSearcher) => queries.flatMap((q) => filters.map((f) => s.rankedHits(s.plan(q), 30, new Set(f)).map((h) => [h.id, h.rank])));
    const withRuns = listed(searcher);
    db!.exec('DROP TRIGGER chunk_source_runs_after_delete');
    const withoutRuns = listed(new KeywordSearcher(db!));
    expect(withoutRuns).toEqual(withRuns);
    expect(withRuns.flat().length).toBeGreaterThan(100);
  });

  it('finds a note written after the searcher last read the runs, whichever connection wrote it', () => {
    const rows = [...Array.from({ length: 50 }, (_, i) => ({ source: 'sessions' as SourceKind, text: `heron transcript ${i}` }))];
    const searcher = indexOf(rows);
    const memoryOnly = new Set<SourceKind>(['memory']);
    expect(searcher.rankedHits(searcher.plan('heron'), 10, memoryOnly)).toEqual([]);
    const file = "INSERT INTO files (path, abs_path, source, sha256, mtime_ms, size, status, indexed_at) VALUES (?, '', 'memory', 'x', 0, 0, 'indexed', 0)";

    // This connection writes a note: a new run after the transcripts.
    db!.prepare(file).run('memory/a.md');
    insertChunkRow(db!, { path: 'memory/a.md', source: 'memory', startLine: 1, endLine: 1, text: 'heron note from this connection' });
    expect(searcher.rankedHits(searcher.plan('heron'), 10, memoryOnly).map((h) => h.path)).toEqual(['memory/a.md']);
    // Another connection writes a transcript, then a note.
    const other = openIndexDatabase(path.join(dir!, 'index.sqlite')).db;
    try {
      other.prepare("INSERT INTO files (path, abs_path, source, sha256, mtime_ms, size, status, indexed_at) VALUES ('sessions/t.md', '', 'sessions', 'x', 0, 0, 'indexed', 0)").run();
      insertChunkRow(other, { path: 'sessions/t.md', source: 'sessions', startLine: 1, endLine: 1, text: 'heron transcript again' });
      other.prepare(file).run('memory/b.md');
      insertChunkRow(other, { path: 'memory/b.md', source: 'memory', startLine: 1, endLine: 1, text: 'heron note from another connection' });
    } finally {
      other.close();
    }
    expect(searcher.rankedHits(searcher.plan('heron'), 10, memoryOnly).map((h) => h.path).sort()).toEqual(['memory/a.md', 'memory/b.md']);
  });
});
