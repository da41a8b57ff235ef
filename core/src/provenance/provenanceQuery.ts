import type Database from 'better-sqlite3';
import { ReverieError } from '../platform/errors.js';
import { parseId } from '../platform/ids.js';
import { lineHash } from './lineHash.js';
import { leastTrusted, type OriginClass, type ProvenanceChain, type SessionKind, type SourceKind, type TranscriptTool } from '../contract/index.js';

const MAX_TEXT = 4_000;
const MAX_LINES = 200;

interface ChunkRow {
  id: number;
  path: string;
  source: SourceKind;
  start_line: number;
  end_line: number;
  text: string;
  origin: OriginClass;
  session_kind: SessionKind | null;
  observed_at: string | null;
}

export interface ProvenanceTarget {
  path: string;
  startLine: number;
  endLine: number;
}

/** Parses `chunk:<n>`, `path:line` or `path:start-end` (paths may contain colons; the last one splits). */
export function parseProvenanceRef(db: Database.Database, ref: string): ProvenanceTarget {
  const chunkId = parseId('chunk', ref);
  if (chunkId !== null) {
    const row = db.prepare('SELECT path, start_line, end_line FROM chunks WHERE id = ?').get(Number(chunkId)) as
      | { path: string; start_line: number; end_line: number }
      | undefined;
    if (!row) throw new ReverieError('not-found', `No indexed chunk ${ref}; it may have changed since the search. Search again.`);
    return { path: row.path, startLine: row.start_line, endLine: row.end_line };
  }
  const m = /^(.*):(\d+)(?:-(\d+))?$/.exec(ref);
  if (!m) throw new ReverieError('invalid-input', `"${ref}" is not a reference: use chunk:<n>, <path>:<line> or <path>:<start>-<end>.`);
  const startLine = Number(m[2]);
  const endLine = m[3] === undefined ? startLine : Number(m[3]);
  if (startLine < 1 || endLine < startLine) throw new ReverieError('invalid-input', `Line range ${m[2]}-${m[3] ?? m[2]} is not valid (lines are 1-based).`);
  return { path: m[1]!, startLine, endLine: Math.min(endLine, startLine + MAX_LINES - 1) };
}

/**
 * The whole chain for some lines: which file, which origin class per line and why (Reverie's own
 * writes are recorded per line), and for transcript text the session and the JSONL source lines.
 */
/** The kinds the index stored for the entries overlapping a range (undefined while the file's are still to be derived): read by the index layer, handed in by the engine. */
export type StoredKindsReader = (db: Database.Database, path: string, startLine: number, endLine: number) => ProvenanceChain['entryKinds'];

export function getProvenance(db: Database.Database, target: ProvenanceTarget, storedKinds?: StoredKindsReader): ProvenanceChain {
  const chunks = db
    .prepare(
      `SELECT id, path, source, start_line, end_line, chunk_text(text) AS text, origin, session_kind, observed_at FROM chunks
       WHERE path = ? AND end_line >= ? AND start_line <= ? ORDER BY start_line`,
    )
    .all(target.path, target.startLine, target.endLine) as ChunkRow[];
  if (chunks.length === 0) {
    throw new ReverieError('not-found', `${target.path}:${target.startLine} is not in the index (not indexed, forgotten, or past the end of the file).`);
  }
  const lines = linesOf(chunks, target);
  const first = chunks[0]!;
  const chain: ProvenanceChain = {
    path: target.path,
    startLine: target.startLine,
    endLine: Math.min(target.endLine, Math.max(...chunks.map((c) => c.end_line))),
    source: first.source,
    origin: leastTrusted(chunks.map((c) => c.origin)),
    sessionKind: first.session_kind,
    observedAt: first.observed_at,
    text: [...lines.values()].join('\n').slice(0, MAX_TEXT),
    lines: [],
    transcript: null,
  };

  if (first.source === 'sessions') {
    const t = db.prepare('SELECT tool, session_id, session_kind, original_path, cwd, started_at FROM transcripts WHERE path = ?').get(target.path) as
      | { tool: TranscriptTool; session_id: string; session_kind: SessionKind; original_path: string; cwd: string | null; started_at: string | null }
      | undefined;
    if (t) {
      const mapped = db
        .prepare('SELECT line, source_line, role, origin, timestamp FROM transcript_lines WHERE path = ? AND line BETWEEN ? AND ? ORDER BY line')
        .all(target.path, chain.startLine, chain.endLine) as Array<{ line: number; source_line: number; role: 'user' | 'assistant'; origin: OriginClass; timestamp: string | null }>;
      chain.transcript = {
        tool: t.tool,
        sessionId: t.session_id,
        sessionKind: t.session_kind,
        originalPath: t.original_path,
        cwd: t.cwd,
        startedAt: t.started_at,
        lines: mapped.map((r) => ({ line: r.line, sourceLine: r.source_line, role: r.role, origin: r.origin, timestamp: r.timestamp })),
      };
      if (mapped.length > 0) chain.origin = leastTrusted(mapped.map((r) => r.origin));
    }
    return chain;
  }

  const written = db.prepare('SELECT line_hash, origin, via, actor, detail, written_at FROM line_provenance WHERE path = ?').all(target.path) as Array<{
    line_hash: string;
    origin: OriginClass;
    via: 'agent' | 'import' | 'dreaming';
    actor: string | null;
    detail: string | null;
    written_at: string;
  }>;
  const byHash = new Map(written.map((w) => [w.line_hash, w]));
  for (const [line, text] of lines) {
    const w = byHash.get(lineHash(text));
    chain.lines.push({
      line,
      origin: w?.origin ?? 'owner',
      writtenBy: w ? { via: w.via, actor: w.actor, writtenAt: w.written_at, detail: w.detail } : null,
    });
  }
  if (chain.lines.length > 0) chain.origin = leastTrusted(chain.lines.map((l) => l.origin));
  const entryKinds = first.source === 'memory' ? storedKinds?.(db, target.path, chain.startLine, chain.endLine) : undefined;
  if (entryKinds) chain.entryKinds = entryKinds;
  return chain;
}

/** The text of each line in the target range, from the (overlapping) chunks that hold it. */
function linesOf(chunks: ChunkRow[], target: ProvenanceTarget): Map<number, string> {
  const lines = new Map<number, string>();
  for (const c of chunks) {
    c.text.split('\n').forEach((text, i) => {
      const line = c.start_line + i;
      if (line >= target.startLine && line <= target.endLine && !lines.has(line)) lines.set(line, text);
    });
  }
  return new Map([...lines].sort((a, b) => a[0] - b[0]));
}
