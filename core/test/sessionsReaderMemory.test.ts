import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openIndexDatabase } from '../src/index/database.js';
import { IndexStore } from '../src/index/indexStore.js';
import { ingestTranscripts } from '../src/sessions/ingestTranscripts.js';

/*
 * Bounded memory without a 2 GB file (that case is in `npm run bench -- --only scale
 * --transcript-file MB`): the reader thread gets a low heap ceiling, and a transcript of long
 * messages whose text (in memory, two bytes a character) outweighs that ceiling must still be
 * read whole. A reader that held a batch of 2,000 such messages, or the file, hits its ceiling:
 * the file fails, or V8 aborts the test process (nodejs/node#47224); either way the test fails.
 */
const MB = 1024 * 1024;
const SESSION_ID = 'feedbeef-0000-4000-8000-000000000001';
// Long assistant messages (a pasted log, a long answer): 48 KB of text each.
const MESSAGE_CHARS = 48 * 1024;
const READER_HEAP_MB = 64;

let base: string;
afterEach(() => fs.rmSync(base, { recursive: true, force: true }));

/** Writes `turns` turns streaming (never the whole file in memory); the last assistant message holds `lastWord`. */
function writeLongMessages(file: string, turns: number, lastWord: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const fd = fs.openSync(file, 'w');
  const filler = 'the reconciliation job compares ledger rows against the bank export and flags drift; '.repeat(Math.ceil(MESSAGE_CHARS / 86)).slice(0, MESSAGE_CHARS);
  try {
    for (let n = 0; n < turns; n++) {
      const common = { isSidechain: false, userType: 'external', cwd: '/home/dana/src/ledgerd', sessionId: SESSION_ID, timestamp: new Date(Date.UTC(2026, 2, 1) + n * 1000).toISOString() };
      const reply = `${n === turns - 1 ? lastWord : `turn${n}`} ${filler}`;
      fs.writeSync(fd, JSON.stringify({ ...common, type: 'user', uuid: `u${n}`, message: { role: 'user', content: `Question ${n}?` } }) + '\n');
      fs.writeSync(fd, JSON.stringify({ ...common, type: 'assistant', uuid: `a${n}`, message: { role: 'assistant', content: [{ type: 'text', text: reply }] } }) + '\n');
    }
  } finally {
    fs.closeSync(fd);
  }
  const old = new Date(Date.UTC(2026, 0, 1));
  fs.utimesSync(file, old, old);
}

describe('transcript readers under a low memory ceiling', () => {
  it(`ingest a transcript whose text outweighs the ${READER_HEAP_MB} MB reader heap, in batches cut by size`, async () => {
    base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'reverie-reader-memory-')));
    const home = path.join(base, 'claude-home');
    const turns = 700;
    writeLongMessages(path.join(home, 'projects', '-home-dana-src-ledgerd', `${SESSION_ID}.jsonl`), turns, 'quokkaledger');
    const size = fs.statSync(path.join(home, 'projects', '-home-dana-src-ledgerd', `${SESSION_ID}.jsonl`)).size;
    expect(size * 2).toBeGreaterThan(READER_HEAP_MB * MB);

    const { db } = openIndexDatabase(path.join(base, 'index.sqlite'), { reclaim: false });
    try {
      const store = new IndexStore(db);
      const report = await ingestTranscripts(db, store, { 'claude-code': home }, { maxBytes: 1024 * MB, readers: 1, readerHeapMb: READER_HEAP_MB });
      expect(report.problems).toEqual([]);
      expect(report).toMatchObject({ added: 1, failed: 0, messages: turns * 2 });
      // The last message was written, and found by keyword.
      expect(db.prepare("SELECT count(*) FROM chunks_fts WHERE chunks_fts MATCH 'quokkaledger'").pluck().get()).toBe(1);
    } finally {
      db.close();
    }
  }, 120_000);
});
