import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type Database from 'better-sqlite3';
import { openSqlite } from '../src/platform/sqliteDriver.js';
import { openIndexDatabase } from '../src/index/database.js';
import { KeywordSearcher } from '../src/search/keywordSearch.js';
import { insertChunkRow } from './helpers/chunkRows.js';

const open: Database.Database[] = [];
let dir: string | undefined;
afterEach(() => {
  for (const db of open.splice(0)) db.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

/** A writer (as the engine) and a read-only reader (as a search worker) on the same index. */
function writerAndReader(): { add(text: string): void; reader: KeywordSearcher; writer: KeywordSearcher } {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'reverie-kwcache-'));
  const file = path.join(dir, 'index.sqlite');
  const writer = openIndexDatabase(file).db;
  const readerDb = openSqlite(file, { readonly: true, fileMustExist: true });
  open.push(readerDb, writer);
  const insertFile = writer.prepare("INSERT INTO files (path, abs_path, source, sha256, mtime_ms, size, status, indexed_at) VALUES (?, '', 'memory', 'x', 0, 0, 'indexed', 0)");
  const insertChunk = { run: (where: string, text: string) => insertChunkRow(writer, { path: where, source: 'memory', startLine: 1, endLine: 1, text }) };
  let n = 0;
  const add = (text: string): void => {
    const p = `memory/n${n++}.md`;
    insertFile.run(p);
    insertChunk.run(p, text);
  };
  for (let i = 0; i < 50; i++) add(`deploy notes ${i}`);
  return { add, reader: new KeywordSearcher(readerDb), writer: new KeywordSearcher(writer) };
}

const search = (s: KeywordSearcher, query: string) => s.search({ query, limit: 10, sources: ['memory'] });

describe('keyword caches while another connection writes', () => {
  it('finds a word the moment it is indexed, even while the cached totals are kept', () => {
    const { add, reader } = writerAndReader();
    expect(search(reader, 'kestrel')).toHaveLength(0);
    const generation = reader.indexGeneration;
    add('the kestrel migration plan');
    // Totals are re-read at most once a second while someone else writes…
    expect(reader.indexGeneration).toBe(generation);
    // …but a word that was not in the index is looked up again, never cached as absent.
    expect(search(reader, 'kestrel').map((r) => r.snippet)).toEqual(['the kestrel migration plan']);
    expect(search(reader, 'kestr').map((r) => r.snippet)).toEqual(['the kestrel migration plan']); // still being typed
  });

  it('finds a word its own connection just indexed, without being told (as the engine thread searches mid-sync)', () => {
    const { add, writer } = writerAndReader();
    // Looked up twice: the second answer comes from the cache of words in no chunk.
    expect(search(writer, 'osprey')).toHaveLength(0);
    expect(search(writer, 'osprey')).toHaveLength(0);
    add('the osprey rollout');
    expect(search(writer, 'osprey').map((r) => r.snippet)).toEqual(['the osprey rollout']);
    expect(search(writer, 'ospr').map((r) => r.snippet)).toEqual(['the osprey rollout']);
  });

  it('keeps a word in no chunk absent, and its irregular forms, until the index changes', () => {
    const { add, reader } = writerAndReader();
    expect(reader.plan('bought kestrel').match).toBeNull();
    expect(reader.plan('bought kestrel').match).toBeNull();
    add('we buy a kestrel');
    const planned = reader.plan('bought kestrel');
    expect(planned.match).toContain('"kestrel"');
    expect(planned.terms.find((t) => t.word === 'bought')!.variants).toEqual(['buy']);
  });

  it('refreshes at once when told the index changed, and on its own a second after another connection wrote', async () => {
    const { add, reader } = writerAndReader();
    const first = reader.indexGeneration;
    add('one more deploy note');
    expect(reader.indexGeneration).toBe(first);
    reader.invalidate();
    const second = reader.indexGeneration;
    expect(second).toBeGreaterThan(first);
    expect(reader.plan('deploy').terms[0]!.df).toBe(51);

    add('another deploy note');
    expect(reader.plan('deploy').terms[0]!.df).toBe(51); // a second-old weight ranks the same
    await new Promise((r) => setTimeout(r, 1_050));
    expect(reader.indexGeneration).toBeGreaterThan(second);
    expect(reader.plan('deploy').terms[0]!.df).toBe(52);
  });

  it('does not refresh without a change', async () => {
    const { reader } = writerAndReader();
    const first = reader.indexGeneration;
    await new Promise((r) => setTimeout(r, 1_050));
    expect(reader.indexGeneration).toBe(first);
  });
});
