import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openIndexDatabase } from '../src/index/database.js';
import { IndexStore } from '../src/index/indexStore.js';
import { FILES_QUEUED_AHEAD, ingestTranscripts } from '../src/sessions/ingestTranscripts.js';
import { TranscriptReaderPool } from '../src/sessions/transcriptReaderPool.js';

/*
 * A reader starts its next file only if the engine thread handed it over already. The files
 * handed over run FILES_QUEUED_AHEAD beyond the readers, so while this thread writes one file's
 * batch the reader has the next ones queued (a small file behind a large one no longer waits for
 * the large one's writes), and with one reader the files are still written in the order read.
 */
let base: string;
afterEach(() => {
  vi.restoreAllMocks();
  fs.rmSync(base, { recursive: true, force: true });
});

function writeSession(file: string, word: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const id = path.basename(file, '.jsonl');
  const entry = (type: 'user' | 'assistant', n: number, text: string) =>
    JSON.stringify({ type, sessionId: id, cwd: '/home/dana/src/ledgerd', timestamp: new Date(Date.UTC(2026, 2, 1) + n * 1000).toISOString(), message: { role: type, content: text } });
  fs.writeFileSync(file, [entry('user', 0, `Where does the ${word} job run?`), entry('assistant', 1, `The ${word} job runs nightly at two.`)].join('\n') + '\n');
}

describe('files handed to the transcript readers', () => {
  it('queue two files beyond the reader while a batch is written, and are written in the order read', async () => {
    base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'reverie-queued-files-')));
    const home = path.join(base, 'claude-home');
    const project = path.join(home, 'projects', '-home-dana-src-ledgerd');
    const words = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot'];
    words.forEach((w, i) => writeSession(path.join(project, `feedface-0000-4000-8000-00000000000${i + 1}.jsonl`), w));

    // Reads requested when each batch is written, and the files in the order their batches were written.
    let requested = 0;
    const requestedAtWrite: number[] = [];
    const written: string[] = [];
    const read = TranscriptReaderPool.prototype.read;
    vi.spyOn(TranscriptReaderPool.prototype, 'read').mockImplementation(function (this: TranscriptReaderPool, job, onBatch) {
      requested++;
      return read.call(this, job, (batch) => {
        requestedAtWrite.push(requested);
        written.push(path.basename(job.absPath));
        onBatch(batch);
      });
    });

    const { db } = openIndexDatabase(path.join(base, 'index.sqlite'), { reclaim: false });
    try {
      const store = new IndexStore(db);
      const report = await ingestTranscripts(db, store, { 'claude-code': home }, { maxBytes: 64 * 1024 * 1024, readers: 1, quietMs: 0 });
      expect(report).toMatchObject({ added: words.length, failed: 0 });
      // The first batch is written with the reader's next two files already handed over, and so are the others while files remain.
      expect(requestedAtWrite[0]).toBe(3);
      expect(Math.min(...requestedAtWrite.slice(0, words.length - FILES_QUEUED_AHEAD))).toBeGreaterThanOrEqual(3);
      expect(written).toEqual(words.map((_, i) => `feedface-0000-4000-8000-00000000000${i + 1}.jsonl`));
      // Chunk ids follow the same order.
      const paths = db.prepare("SELECT path FROM chunks WHERE source = 'sessions' ORDER BY id").pluck().all() as string[];
      expect([...new Set(paths.map((p) => path.basename(p)))]).toEqual(written);
    } finally {
      db.close();
    }
  }, 60_000);
});
