import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { openIndexDatabase } from '../src/index/database.js';
import { IndexStore } from '../src/index/indexStore.js';
import { ingestTranscripts } from '../src/sessions/ingestTranscripts.js';
import { collectTranscript, isTranscriptSkipped } from '../src/sessions/readTranscript.js';
import { chunkTranscriptLines, renderMessages } from '../src/sessions/transcriptDocument.js';

/*
 * Transcript batches reach the index packed (index/packedChunks.ts): chunks and line map as JSON,
 * one INSERT … SELECT FROM json_each per table and batch. Row for row, that must be what writing
 * each chunk and line on its own wrote: the same ids, bytes of text, keyword terms (FTS5 and the
 * unspaced-script grams) and line map, for text with every kind of character JSON escapes.
 */
const SESSION_ID = 'c0ffee00-1111-4222-8333-444455556666';
const CWD = '/home/dana/src/ledgerd';

let base: string;
afterEach(() => fs.rmSync(base, { recursive: true, force: true }));

/** Prompts and replies full of what JSON escapes or SQLite could read differently. */
const TEXTS = [
  'Why does the statement cutoff drift — by a day — in “Europe/Berlin”?',
  'Kestrelの再処理ジョブは毎晩２時に走ります。サーバーの移行は来週です。',
  'กินข้าวหรือยัง ตอนนี้ระบบสำรองข้อมูลทำงานอยู่',
  'Quotes "inside", a back\\slash, a tab\tand a path C:\\Users\\dana\\notes.md',
  'A lone surrogate \ud800 from a cut emoji, and a whole one 🦀 after it',
  'Line one\nline two with ＡＰＩ full-width\n\nparagraph after a blank line',
  'Control \u0007 chars and\u00a0no-break spaces, 10 € and naïve résumé',
  'NUL-free but \u2028 a line separator and \ufeff a BOM',
];

function writeSession(file: string, turns: number): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const lines: string[] = [];
  for (let n = 0; n < turns; n++) {
    const at = (k: number) => new Date(Date.UTC(2026, 2, 1) + (n * 3 + k) * 1000).toISOString();
    const common = { sessionId: SESSION_ID, cwd: CWD, isSidechain: false, userType: 'external' };
    lines.push(JSON.stringify({ ...common, type: 'user', uuid: `u${n}`, timestamp: at(0), message: { role: 'user', content: `${TEXTS[n % TEXTS.length]} (${n})` } }));
    lines.push(
      JSON.stringify({
        ...common,
        type: 'assistant',
        uuid: `a${n}`,
        timestamp: at(1),
        message: { role: 'assistant', model: 'claude-sonnet-4-6', content: [{ type: 'text', text: `${TEXTS[(n + 3) % TEXTS.length]}\n${'Reply text. '.repeat(n % 40)}` }] },
      }),
    );
  }
  fs.writeFileSync(file, lines.join('\n') + '\n');
  const old = new Date(Date.UTC(2026, 0, 1));
  fs.utimesSync(file, old, old);
}

function openIndex(name: string): { db: Database.Database; store: IndexStore } {
  const { db } = openIndexDatabase(path.join(base, name, 'index.sqlite'), { reclaim: false });
  return { db, store: new IndexStore(db) };
}

/** Every stored row a keyword search or a citation reads, in a stable order; each term with the chunk id and offset it was indexed at. */
function rowsOf(db: Database.Database) {
  db.exec("CREATE VIRTUAL TABLE IF NOT EXISTS temp.fts_terms USING fts5vocab(main, 'chunks_fts', 'instance')");
  db.exec("CREATE VIRTUAL TABLE IF NOT EXISTS temp.gram_terms USING fts5vocab(main, 'chunks_grams', 'instance')");
  return {
    chunks: db.prepare('SELECT id, path, source, start_line, end_line, hex(text) AS text, origin, session_kind, observed_at FROM chunks ORDER BY id').all(),
    terms: db.prepare('SELECT term, doc, offset FROM temp.fts_terms ORDER BY term, doc, offset').raw().all(),
    grams: db.prepare('SELECT term, doc, offset FROM temp.gram_terms ORDER BY term, doc, offset').raw().all(),
    lines: db.prepare('SELECT line, source_line, role, origin, timestamp FROM transcript_lines ORDER BY line').all(),
  };
}

describe('packed transcript batches', () => {
  it('store the same chunk rows, ids, text bytes, keyword terms, grams and line map as row-by-row writes', async () => {
    base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'reverie-packed-rows-')));
    const home = path.join(base, 'claude-home');
    // Under one batch of 2,000 messages, so the reference below chunks it in one piece as the reader does.
    const turns = 600;
    const file = path.join(home, 'projects', '-home-dana-src-ledgerd', `${SESSION_ID}.jsonl`);
    writeSession(file, turns);

    const packed = openIndex('packed');
    const reference = openIndex('reference');
    try {
      const report = await ingestTranscripts(packed.db, packed.store, { 'claude-code': home }, { maxBytes: 64 * 1024 * 1024, readers: 1 });
      expect(report).toMatchObject({ added: 1, failed: 0, messages: turns * 2 });

      // The reference: the same messages rendered and chunked here, each chunk and line written on its own.
      const { messages, outcome } = await collectTranscript(file, { format: 'claude-code-jsonl', final: true });
      if (isTranscriptSkipped(outcome)) throw new Error(`skipped: ${outcome.skipped}`);
      const lines = renderMessages(messages, 1);
      const chunks = chunkTranscriptLines(lines, outcome.meta.sessionKind);
      const indexedPath = `sessions/claude-code/projects/-home-dana-src-ledgerd/${SESSION_ID}.jsonl`;
      const row = { path: indexedPath, absPath: file, source: 'sessions' as const, sha256: null, mtimeMs: 0, size: 0, status: 'indexed' as const, reason: null };
      reference.store.transaction(() => {
        reference.store.writeFile(row, null);
        reference.db.prepare(`INSERT INTO transcripts (path, tool, session_id, session_kind, original_path, resume_state, stats, lines) VALUES (?, 'claude-code', '', 'unknown', ?, 'null', '{}', 0)`).run(indexedPath, file);
        const insertLine = reference.db.prepare('INSERT INTO transcript_lines (path, line, source_line, role, origin, timestamp) VALUES (?, ?, ?, ?, ?, ?)');
        for (const l of lines) insertLine.run(indexedPath, l.line, l.sourceLine, l.role, l.origin, l.timestamp);
        reference.store.appendChunks(row, chunks);
      });

      const actual = rowsOf(packed.db);
      const expected = rowsOf(reference.db);
      expect(actual.chunks.length).toBeGreaterThan(20);
      // The Japanese and Thai turns have grams; the rest have none.
      expect(actual.grams.length).toBeGreaterThan(20);
      expect(actual.chunks).toEqual(expected.chunks);
      expect(actual.terms).toEqual(expected.terms);
      expect(actual.grams).toEqual(expected.grams);
      expect(actual.lines).toEqual(expected.lines);
      // The keyword index agrees with the stored text, term for term.
      packed.db.prepare("INSERT INTO chunks_fts(chunks_fts, rank) VALUES ('integrity-check', 1)").run();
    } finally {
      packed.db.close();
      reference.db.close();
    }
  }, 60_000);
});
