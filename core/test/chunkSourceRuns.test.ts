import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type Database from 'better-sqlite3';
import type { SourceKind } from '../src/contract/index.js';
import type { MemoryService } from '../src/engine/memoryService.js';
import { openIndexDatabase } from '../src/index/database.js';
import { MIGRATIONS } from '../src/index/migrations/index.js';
import { openSqlite } from '../src/platform/sqliteDriver.js';
import { KeywordSearcher } from '../src/search/keywordSearch.js';
import { rangesOf } from '../src/search/sourceRanges.js';
import { createTempWorkspace, openService, SAMPLE_NOTES, type TempWorkspace } from './helpers/workspace.js';
import { insertChunkRow } from './helpers/chunkRows.js';

let dir: string | undefined;
let db: Database.Database | undefined;
let ws: TempWorkspace | undefined;
let service: MemoryService | undefined;
afterEach(async () => {
  db?.close();
  db = undefined;
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
  dir = undefined;
  await service?.close();
  service = undefined;
  ws?.cleanup();
  ws = undefined;
});

type Run = { first_id: number; last_id: number; source: string };
const SOURCES: SourceKind[] = ['memory', 'dreams', 'sessions'];

function runsOf(d: Database.Database): Run[] {
  return d.prepare('SELECT first_id, last_id, source FROM chunk_source_runs ORDER BY first_id').all() as Run[];
}

/** The runs are true: ordered, apart, every live chunk inside a run of its own source, no run without a live chunk. */
function expectRunsTrue(d: Database.Database): void {
  const runs = runsOf(d);
  const chunks = d.prepare('SELECT id, source FROM chunks ORDER BY id').all() as Array<{ id: number; source: string }>;
  for (let i = 1; i < runs.length; i++) expect(runs[i]!.first_id).toBeGreaterThan(runs[i - 1]!.last_id);
  let r = 0;
  const live = new Set<number>();
  for (const c of chunks) {
    while (r < runs.length && runs[r]!.last_id < c.id) r++;
    const run = runs[r];
    expect(run && run.first_id <= c.id && run.source === c.source, `chunk ${c.id} (${c.source}) in ${JSON.stringify(run)}`).toBe(true);
    live.add(r);
  }
  expect(live.size).toBe(runs.length);
}

describe('chunk_source_runs (migration 0017)', () => {
  it('stays true through inserts, deletes and ids reused after the newest chunks were deleted', () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'reverie-runs-'));
    db = openIndexDatabase(path.join(dir, 'index.sqlite')).db;
    const d = db;
    const file = d.prepare("INSERT OR IGNORE INTO files (path, abs_path, source, sha256, mtime_ms, size, status, indexed_at) VALUES (?, '', ?, 'x', 0, 0, 'indexed', 0)");
    const chunk = { run: (where: string, source: string, startLine: number, endLine: number, text: string) => insertChunkRow(d, { path: where, source, startLine, endLine, text }) };
    const withId = { run: (id: number, where: string, source: string, text: string) => insertChunkRow(d, { id, path: where, source, startLine: 1, endLine: 1, text }) };
    const dropFile = d.prepare('DELETE FROM chunks WHERE path = ?');
    const dropNewest = d.prepare('DELETE FROM chunks WHERE id IN (SELECT id FROM chunks ORDER BY id DESC LIMIT ?)');
    const dropOne = d.prepare('DELETE FROM chunks WHERE id = (SELECT id FROM chunks ORDER BY id LIMIT 1 OFFSET ?)');
    let x = 12345;
    const next = (n: number): number => {
      x = (x * 1103515245 + 12345) >>> 0;
      return x % n;
    };
    const paths: string[] = [];
    for (let step = 0; step < 600; step++) {
      const what = next(10);
      if (what < 5 || paths.length === 0) {
        // A file written: its chunks one after another.
        const source = SOURCES[next(3)]!;
        const where = `${source}/f${step}.md`;
        file.run(where, source);
        for (let line = 1; line <= 1 + next(6); line++) chunk.run(where, source, line, line, `text ${step} ${line}`);
        paths.push(where);
      } else if (what < 7) {
        // A file re-chunked or removed.
        dropFile.run(paths.splice(next(paths.length), 1)[0]!);
      } else if (what < 8) {
        // The newest chunks go: the next insert reuses their ids, maybe with another source.
        dropNewest.run(1 + next(4));
      } else if (what < 9) {
        dropOne.run(next(Math.max(1, (d.prepare('SELECT count(*) FROM chunks').pluck().get() as number))));
      } else {
        // An id given explicitly inside the range (no writer does this today; the runs must still hold).
        const gap = d.prepare('SELECT a.id + 1 FROM chunks a WHERE NOT EXISTS (SELECT 1 FROM chunks b WHERE b.id = a.id + 1) AND a.id < (SELECT max(id) FROM chunks) LIMIT 1').pluck().get() as number | undefined;
        if (gap !== undefined) {
          const source = SOURCES[next(3)]!;
          const where = `${source}/g${step}.md`;
          file.run(where, source);
          withId.run(gap, where, source, `gap ${step}`);
          paths.push(where);
        }
      }
      expectRunsTrue(d);
    }
    expect(runsOf(d).length).toBeGreaterThan(10);
  });

  it('joins ranges across narrow gaps and past the number asked for, and says which ones hold other sources', () => {
    const runs: Run[] = [
      { first_id: 1, last_id: 10, source: 'memory' },
      { first_id: 11, last_id: 100, source: 'sessions' },
      { first_id: 101, last_id: 110, source: 'memory' },
      { first_id: 111, last_id: 112, source: 'dreams' },
      { first_id: 113, last_id: 120, source: 'memory' },
      { first_id: 121, last_id: 500, source: 'sessions' },
      { first_id: 501, last_id: 505, source: 'memory' },
    ];
    const memory = new Set(['memory']);
    // The two-id gap (111–112, under a twentieth of the ids) is joined: reading two sources costs less than a query of its own.
    expect(rangesOf(runs, memory, 8)).toEqual([
      { lo: 501, hi: 505, mixed: false },
      { lo: 101, hi: 120, mixed: true },
      { lo: 1, hi: 10, mixed: false },
    ]);
    // Two ranges: the widest gap (121–500) stays, the others are joined.
    expect(rangesOf(runs, memory, 2)).toEqual([
      { lo: 501, hi: 505, mixed: false },
      { lo: 1, hi: 120, mixed: true },
    ]);
    expect(rangesOf(runs, new Set(['memory', 'dreams']), 8)).toEqual([
      { lo: 501, hi: 505, mixed: false },
      { lo: 101, hi: 120, mixed: false },
      { lo: 1, hi: 10, mixed: false },
    ]);
    expect(rangesOf(runs, new Set(['dreams']), 1)).toEqual([{ lo: 111, hi: 112, mixed: false }]);
  });

  it('filters nothing for a source that holds no chunk, and filters again as soon as it holds one', () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'reverie-runs-'));
    db = openIndexDatabase(path.join(dir, 'index.sqlite')).db;
    const d = db;
    const file = d.prepare("INSERT OR IGNORE INTO files (path, abs_path, source, sha256, mtime_ms, size, status, indexed_at) VALUES (?, '', ?, 'x', 0, 0, 'indexed', 0)");
    for (let i = 1; i <= 30; i++) {
      file.run(`memory/n${i}.md`, 'memory');
      insertChunkRow(d, { path: `memory/n${i}.md`, source: 'memory', startLine: 1, endLine: 1, text: `restic backup run ${i} on atlas` });
    }
    const searcher = new KeywordSearcher(d);
    const ids = (sources: SourceKind[]): string[] => searcher.search({ query: 'restic atlas', limit: 10, sources }).map((r) => r.id);
    expect(ids(['memory'])).toEqual(ids(['memory', 'sessions', 'dreams']));
    expect(ids(['memory'])).toHaveLength(10);
    expect(ids(['sessions'])).toEqual([]);

    // A transcript arrives: the newest, best-matching chunk; a memory-only search must leave it out at once.
    file.run('sessions/t.jsonl', 'sessions');
    const transcript = `chunk:${insertChunkRow(d, { path: 'sessions/t.jsonl', source: 'sessions', startLine: 1, endLine: 1, text: 'restic atlas restic atlas' })}`;
    searcher.invalidate();
    expect(ids(['memory', 'sessions', 'dreams'])).toContain(transcript);
    expect(ids(['memory'])).not.toContain(transcript);
    expect(ids(['memory'])).toHaveLength(10);
    expect(ids(['sessions'])).toEqual([transcript]);
  });

  it('migrates an index of the previous layout: the runs of the chunks already there, the same results', async () => {
    ws = createTempWorkspace(SAMPLE_NOTES);
    service = openService(ws);
    await service.invoke('index.sync', {});
    const indexPath = service.indexPath;
    await service.close();
    service = undefined;

    // The previous layout (version 15): no runs table, no triggers.
    const old = openSqlite(indexPath);
    const expected = old.prepare('SELECT first_id, last_id, source FROM chunk_source_runs ORDER BY first_id').all();
    old.exec('DROP TRIGGER chunk_source_runs_after_append; DROP TRIGGER chunk_source_runs_after_insert; DROP TRIGGER chunk_source_runs_after_delete; DROP TABLE chunk_source_runs;');
    old.pragma('user_version = 15');
    const queries = ['restic backups atlas', 'timezone', 'postgres upgraded'];
    const filters: SourceKind[][] = [['memory'], ['sessions'], ['memory', 'sessions', 'dreams']];
    const listsOf = (d: Database.Database): string[] => {
      const searcher = new KeywordSearcher(d);
      return queries.flatMap((q) => filters.map((f) => searcher.search({ query: q, limit: 5, sources: f }).map((r) => `${r.id} ${r.score}`).join(',')));
    };
    const before = listsOf(old);
    old.close();

    const reopened = openIndexDatabase(indexPath).db;
    try {
      expect(reopened.pragma('user_version', { simple: true })).toBe(MIGRATIONS.at(-1)!.version);
      expect(runsOf(reopened)).toEqual(expected);
      expect(runsOf(reopened).length).toBeGreaterThan(0);
      expectRunsTrue(reopened);
      expect(listsOf(reopened)).toEqual(before);
    } finally {
      reopened.close();
    }
  });
});
