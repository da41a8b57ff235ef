import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { readSessionExcerpt } from '../src/agents/sessionsGet.js';
import { DocumentReader, entriesWithin } from '../src/dreaming/recall/documentLines.js';
import { openIndexDatabase } from '../src/index/database.js';
import { indexedLines, indexedLineWindow } from '../src/index/indexedLines.js';
import { IndexStore } from '../src/index/indexStore.js';
import { chunkTranscriptLines, renderMessages } from '../src/sessions/transcriptDocument.js';
import type { TranscriptMessage } from '../src/sessions/types.js';

let dir: string | undefined;
afterEach(() => {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

const TRANSCRIPT = 'sessions/claude-code/projects/-home-dana-ledger/0b5e2c1a.jsonl';

/** Messages with what makes entries hard to find from a window: bullets with continuations, fenced code, blank lines, a message longer than the window, lines without a time stamp. */
function messages(): TranscriptMessage[] {
  const out: TranscriptMessage[] = [];
  for (let i = 0; i < 120; i++) {
    const timestamp = i % 7 === 3 ? null : `2026-03-02T14:${String(i % 60).padStart(2, '0')}:00Z`;
    const role = i % 2 === 0 ? 'user' : 'assistant';
    let text: string;
    if (i % 5 === 0) text = `Deploy step ${i} for ledgerd.\n- check the Hetzner box ${i}\n  continued with the restic backup ${i}\n- rotate the keys ${i}`;
    else if (i % 5 === 1) text = `Here is the fix ${i}:\n\`\`\`ts\nconst retries = ${i};\n- not an entry, inside code\n\`\`\`\nThat should hold the queue worker ${i}.`;
    else if (i % 5 === 2) text = `Notes ${i}.\n\nA second paragraph about Postgres ${i}.`;
    else if (i === 63) text = Array.from({ length: 700 }, (_, k) => (k % 3 === 0 ? `- long list item ${k}` : `line ${k} of a long log about invoices`)).join('\n');
    else text = `The dentist moved to Thursday ${i}.`;
    out.push({ role, text, origin: role === 'user' ? 'owner' : 'agent', sourceLine: i + 1, timestamp });
  }
  return out;
}

/** A transcript indexed as ingestion indexes it: rendered and chunked in batches, no file on disk. */
function indexTranscript(): { db: Database.Database; lineCount: number } {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'reverie-recall-window-'));
  const { db } = openIndexDatabase(path.join(dir, 'index.sqlite'), { reclaim: false, disableVectorExtension: true });
  const store = new IndexStore(db);
  const all = messages();
  const file = { path: TRANSCRIPT, absPath: '', source: 'sessions' as const, sha256: null, mtimeMs: 1, size: 1, status: 'indexed' as const, reason: null };
  let next = 1;
  db.transaction(() => {
    store.writeFile(file, null);
    for (const batch of [all.slice(0, 50), all.slice(50)]) {
      const lines = renderMessages(batch, next);
      store.appendChunks(file, chunkTranscriptLines(lines, 'interactive'));
      next += lines.length;
    }
    db.prepare("INSERT INTO transcripts (path, tool, session_id, session_kind, original_path, resume_state, stats, lines) VALUES (?, 'claude-code', 's-1', 'interactive', '', 'null', '{}', ?)").run(TRANSCRIPT, next - 1);
    const insert = db.prepare("INSERT INTO transcript_lines (path, line, source_line, role, origin, timestamp) VALUES (?, ?, 1, 'user', 'owner', NULL)");
    for (let line = 1; line < next; line++) insert.run(TRANSCRIPT, line);
  })();
  return { db, lineCount: next - 1 };
}

describe("a transcript's lines and entries around a search result", () => {
  it('reads the same lines from the chunks around them as from the whole transcript', () => {
    const { db, lineCount } = indexTranscript();
    try {
      const whole = indexedLines(db, TRANSCRIPT);
      expect(whole).toHaveLength(lineCount);
      for (const [from, to] of [[1, 1], [1, 40], [37, 90], [250, 1100], [lineCount - 5, lineCount + 50], [lineCount + 1, lineCount + 9]] as const) {
        expect(indexedLineWindow(db, TRANSCRIPT, from, to)).toEqual(whole.slice(from - 1, to));
      }
    } finally {
      db.close();
    }
  });

  it('finds the entries of every chunk as parsing the whole transcript does', () => {
    const { db } = indexTranscript();
    try {
      const reader = new DocumentReader(db, '/nonexistent-workspace');
      const whole = reader.read(TRANSCRIPT)!.entries;
      const chunks = db.prepare('SELECT start_line, end_line FROM chunks WHERE path = ? ORDER BY start_line').all(TRANSCRIPT) as Array<{ start_line: number; end_line: number }>;
      expect(chunks.length).toBeGreaterThan(10);
      let compared = 0;
      for (const c of chunks) {
        for (const [start, end] of [[c.start_line, c.end_line], [c.start_line, c.start_line], [c.end_line, c.end_line]] as const) {
          const around = reader.entriesAround(TRANSCRIPT, start, end);
          expect(around?.map((e) => [e.startLine, e.endLine, e.raw])).toEqual(entriesWithin(whole, start, end).map((e) => [e.startLine, e.endLine, e.raw]));
          compared += around!.length;
        }
      }
      expect(compared).toBeGreaterThan(500);
      expect(reader.entriesAround('sessions/claude-code/none.jsonl', 1, 5)).toBeNull();
    } finally {
      db.close();
    }
  });

  it("gives an agent's excerpt of a session from the lines it asked for", () => {
    const { db } = indexTranscript();
    try {
      const whole = indexedLines(db, TRANSCRIPT);
      const excerpt = readSessionExcerpt(db, 's-1', 300, 25);
      expect(excerpt.lines.map((l) => [l.line, l.text])).toEqual(whole.slice(299, 324).map((text, i) => [300 + i, text]));
    } finally {
      db.close();
    }
  });
});
