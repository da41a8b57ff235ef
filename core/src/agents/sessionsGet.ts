import type Database from 'better-sqlite3';
import type { OperationOutput, OriginClass, SessionKind, TranscriptTool } from '../contract/index.js';
import { ReverieError } from '../platform/errors.js';
import { indexedLineWindow } from '../index/indexedLines.js';

const MAX_EXCERPT_CHARS = 64_000;

/**
 * A bounded excerpt of an ingested transcript, from its indexed text: user and assistant
 * messages only, already redacted at ingestion, each line with its role and origin.
 */
export function readSessionExcerpt(indexDb: Database.Database, sessionId: string, fromLine: number, count: number): OperationOutput<'sessions.get'> {
  const transcript = indexDb
    .prepare('SELECT path, tool, session_id, session_kind, lines FROM transcripts WHERE session_id = ? OR path = ? ORDER BY path LIMIT 1')
    .get(sessionId, sessionId) as { path: string; tool: TranscriptTool; session_id: string; session_kind: SessionKind; lines: number } | undefined;
  if (!transcript) throw new ReverieError('not-found', `No ingested session "${sessionId}"; sessions come from \`memory.search\` hits with source "sessions".`);
  const meta = indexDb
    .prepare('SELECT line, role, origin, timestamp FROM transcript_lines WHERE path = ? AND line >= ? ORDER BY line LIMIT ?')
    .all(transcript.path, fromLine, count) as Array<{ line: number; role: 'user' | 'assistant'; origin: OriginClass; timestamp: string | null }>;
  // Only the excerpt's lines are rebuilt: a transcript can be gigabytes.
  const text = meta.length > 0 ? indexedLineWindow(indexDb, transcript.path, fromLine, meta[meta.length - 1]!.line) : [];
  const lines: OperationOutput<'sessions.get'>['lines'] = [];
  let chars = 0;
  for (const m of meta) {
    const line = text[m.line - fromLine] ?? '';
    if (chars + line.length > MAX_EXCERPT_CHARS) break;
    chars += line.length;
    lines.push({ line: m.line, role: m.role, origin: m.origin, timestamp: m.timestamp, text: line });
  }
  return {
    sessionId: transcript.session_id,
    tool: transcript.tool,
    sessionKind: transcript.session_kind,
    path: transcript.path,
    from: fromLine,
    totalLines: transcript.lines,
    lines,
  };
}
