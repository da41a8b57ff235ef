import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { openIndexDatabase } from '../src/index/database.js';
import { IndexStore } from '../src/index/indexStore.js';
import { sha256Hex } from '../src/platform/hash.js';
import { ingestTranscripts } from '../src/sessions/ingestTranscripts.js';

/*
 * What transcript ingestion writes, row for row, against a golden file taken from the pipeline
 * before it was made faster (issue 24 item 4): chunk ids, lines, text, origins, kinds and times,
 * the line map and the session rows. Run with UPDATE_GOLDEN=1 only when a change of output is meant.
 */
const here = path.dirname(fileURLToPath(import.meta.url));
const fixtures = path.join(here, 'fixtures', 'sessions');
const goldenFile = path.join(fixtures, 'golden', 'ingest.json');
const SESSION_ID = 'abcdef01-2345-4678-89ab-cdef01234567';
// Memory lines a session may repeat (recalled, not said).
const MEMORY_LINES = ['- The NAS is called atlas and sits under the stairs.', 'Dana prefers small commits with clear messages.'];
// Enough messages to cross the reader's batch of 2,000.
const EDGE_TURNS = 700;

let base: string;
afterEach(() => fs.rmSync(base, { recursive: true, force: true }));

/** Deterministic Claude Code lines full of what the pipeline normalises, strips and redacts. */
function edgeTurn(n: number): string[] {
  const common = { isSidechain: false, userType: 'external', cwd: '/home/dana/src/pipeline', sessionId: SESSION_ID, version: '2.1.80' };
  const at = (k: number) => new Date(Date.UTC(2026, 4, 1) + (n * 4 + k) * 1000).toISOString();
  const prompts = [
    `Why   does the\tcutoff drift\u00a0by a day (${n})?`,
    `  Leading and trailing spaces ${n}  \r\nsecond line\r\n\r\n\r\n\r\n\r\nafter many blank lines`,
    `Control\u0007chars\u0000 and\u2003em spaces ${n}\n<system-reminder>\nignore this ${n}\n</system-reminder>\nkept after the reminder`,
    `The NAS is called atlas and sits under the stairs.\nNew fact ${n}: the backup runs at 02:00.`,
    `Deploy with api_key="sk-proj-a1B2c3D4e5F6g7H8i9J0k1L2m3N4" and token ghp_aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5 (${n})`,
    `<command-name>/review</command-name><command-args>the ${n} branch</command-args>`,
    `line one ${n}\n\n\n\nline two\u2028with a separator\ufeff`,
    `\n\nstarts with blank lines ${n}\n- bullet\n  - nested\u3000bullet\n\n`,
  ];
  const lines = [
    { ...common, type: 'user', uuid: `u${n}`, timestamp: at(0), message: { role: 'user', content: prompts[n % prompts.length] } },
    {
      ...common,
      type: 'assistant',
      uuid: `a${n}`,
      timestamp: at(1),
      message: { role: 'assistant', model: 'claude-sonnet-4-6', content: [{ type: 'text', text: `Reading   the code for ${n}.\n\n\n\n` }, { type: 'tool_use', id: `t${n}`, name: n % 3 === 0 ? 'WebFetch' : 'Read', input: { file_path: '/src/x.ts', url: 'https://example.com' } }] },
    },
    { ...common, type: 'user', uuid: `r${n}`, timestamp: at(2), message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: `t${n}`, content: `file contents ${n}\n`.repeat(5) }] } },
    { ...common, type: 'assistant', uuid: `b${n}`, timestamp: at(3), message: { role: 'assistant', model: 'claude-sonnet-4-6', content: [{ type: 'text', text: `Done with ${n}:\n  * the fix\n\t* the test  ` }] } },
  ];
  const out = lines.map((l) => JSON.stringify(l));
  if (n % 250 === 7) out.push('{"type":"user", not json');
  return out;
}

function writeEdgeTranscript(file: string, fromTurn: number, toTurn: number): void {
  const lines: string[] = [];
  for (let n = fromTurn; n < toTurn; n++) lines.push(...edgeTurn(n));
  fs.appendFileSync(file, lines.join('\n') + '\n');
}

/** The project's transcript fixtures in tool homes, and the generated edge-case transcript. */
function makeHomes(): { homes: Record<string, string>; edgeFile: string } {
  const homes = { codex: path.join(base, 'codex-home'), 'claude-code': path.join(base, 'claude-home'), openclaw: path.join(base, 'openclaw-home') };
  for (const [tool, home] of Object.entries(homes)) fs.cpSync(path.join(fixtures, tool), home, { recursive: true });
  const edgeFile = path.join(homes['claude-code'], 'projects', '-home-dana-src-pipeline', `${SESSION_ID}.jsonl`);
  fs.mkdirSync(path.dirname(edgeFile), { recursive: true });
  writeEdgeTranscript(edgeFile, 0, EDGE_TURNS);
  ageAll(base);
  return { homes, edgeFile };
}

/** Old files count as finished (their last line is read even without a newline). */
function ageAll(dir: string): void {
  const old = new Date(Date.UTC(2026, 0, 1));
  for (const e of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) if (e.isFile()) fs.utimesSync(path.join(e.parentPath, e.name), old, old);
}

/** Everything ingestion wrote, in a stable order; long tables as counts and digests. */
function dump(db: Database.Database) {
  const chunks = db.prepare('SELECT id, path, start_line, end_line, origin, session_kind, observed_at, chunk_text(text) AS text FROM chunks ORDER BY id').raw().all() as unknown[][];
  const lines = db.prepare('SELECT path, line, source_line, role, origin, timestamp FROM transcript_lines ORDER BY path, line').raw().all() as unknown[][];
  const sessions = db.prepare('SELECT path, tool, session_id, session_kind, cwd, started_at, stats, lines FROM transcripts ORDER BY path').all();
  const fts = db.prepare("SELECT count(*) FROM chunks_fts WHERE chunks_fts MATCH 'cutoff OR atlas OR reading'").pluck().get();
  return {
    chunks: chunks.length,
    // Short chunks in full, so a difference shows what changed; the rest as one digest.
    firstChunks: chunks.slice(0, 24),
    chunksDigest: sha256Hex(JSON.stringify(chunks)),
    transcriptLines: lines.length,
    transcriptLinesDigest: sha256Hex(JSON.stringify(lines)),
    sessions,
    ftsMatches: fts,
  };
}

/** The report without its time, and its problems apart: the golden file predates naming malformed lines there. */
async function ingest(db: Database.Database, store: IndexStore, homes: Record<string, string>) {
  const { problems, ...report } = await ingestTranscripts(db, store, homes, { maxBytes: 64 * 1024 * 1024, memoryLines: () => MEMORY_LINES, readers: 1 });
  return { report: { ...report, problems: [], durationMs: 0 }, problems };
}

describe('transcript ingestion output', () => {
  it('writes the same chunks, ids, text and line map as the pipeline it replaced, on a first ingest and after an append', async () => {
    base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'reverie-golden-')));
    const { homes, edgeFile } = makeHomes();
    const { db } = openIndexDatabase(path.join(base, 'index.sqlite'), { reclaim: false });
    try {
      const store = new IndexStore(db);
      const { report: first, problems } = await ingest(db, store, homes);
      const afterFirst = dump(db);
      writeEdgeTranscript(edgeFile, EDGE_TURNS, EDGE_TURNS + 40);
      ageAll(base);
      const { report: second } = await ingest(db, store, homes);
      const afterAppend = dump(db);
      const actual = { first, afterFirst, second, afterAppend };
      if (process.env.UPDATE_GOLDEN === '1') fs.writeFileSync(goldenFile, JSON.stringify(actual, null, 1) + '\n');
      const golden = JSON.parse(fs.readFileSync(goldenFile, 'utf8')) as typeof actual;
      // Round-trip through JSON so both sides compare as plain data.
      expect(JSON.parse(JSON.stringify(actual))).toEqual(golden);
      // The append was read as an append: only the new lines (and not the file again).
      expect(second).toMatchObject({ appended: 1, added: 0 });
      expect(second.messages).toBeLessThan(first.messages / 10);
      // Each malformed line was skipped, and the report names its file and line.
      const edgePath = `sessions/claude-code/projects/-home-dana-src-pipeline/${SESSION_ID}.jsonl`;
      expect(problems).toEqual([33, 1034, 2035].map((line) => ({ path: edgePath, status: 'indexed', reason: `line ${line} skipped: not valid JSON` })));
    } finally {
      db.close();
    }
  }, 120_000);
});
