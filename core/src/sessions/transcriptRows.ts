import type Database from 'better-sqlite3';
import type { SessionKind } from '../contract/index.js';
import { asBuffer } from '../index/indexStore.js';
import type { TranscriptMeta } from './types.js';

/** A transcript's row at the end of a read: who, where, and where the next read starts. */
export interface FinishedTranscript {
  path: string;
  tool: string;
  absPath: string;
  meta: TranscriptMeta;
  resumeJson: string;
  statsJson: string;
  lines: number;
}

/**
 * The transcript tables' statements, prepared once per ingest (every file ran the same five
 * prepares): the `transcripts` row, the line map, and the chunk fix-ups only transcripts need.
 * Callers run them inside the IndexStore's transactions.
 */
export class TranscriptRows {
  private readonly stmts;

  constructor(db: Database.Database) {
    this.stmts = {
      deleteLines: db.prepare<[string]>('DELETE FROM transcript_lines WHERE path = ?'),
      startTranscript: db.prepare<[string, string, string]>(
        `INSERT INTO transcripts (path, tool, session_id, session_kind, original_path, resume_state, stats, lines)
         VALUES (?, ?, '', 'unknown', ?, 'null', '{}', 0)
         ON CONFLICT(path) DO UPDATE SET resume_state = 'null', stats = '{}', lines = 0`,
      ),
      deleteChunksFrom: db.prepare<[string, number]>('DELETE FROM chunks WHERE path = ? AND end_line >= ?'),
      deleteLinesFrom: db.prepare<[string, number]>('DELETE FROM transcript_lines WHERE path = ? AND line >= ?'),
      // A batch's line map in one statement, packed by the reader (see TranscriptBatch). jsonb_each
      // hands each row over as binary JSON, which `->>` reads without parsing the row's text five
      // times (a fifth less CPU on the engine thread for the line map).
      insertLines: db.prepare<[string, Buffer]>(
        `INSERT INTO transcript_lines (path, line, source_line, role, origin, timestamp)
         SELECT ?, value->>0, value->>1, value->>2, value->>3, value->>4 FROM jsonb_each(CAST(? AS TEXT))`,
      ),
      finishTranscript: db.prepare<[string, string, string, SessionKind, string, string | null, string | null, string, string, number]>(
        `INSERT INTO transcripts (path, tool, session_id, session_kind, original_path, cwd, started_at, resume_state, stats, lines)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT(path) DO UPDATE SET session_id = excluded.session_id, session_kind = excluded.session_kind, cwd = excluded.cwd,
           started_at = excluded.started_at, resume_state = excluded.resume_state, stats = excluded.stats, lines = excluded.lines`,
      ),
      fixSessionKinds: db.prepare<[{ kind: SessionKind; path: string }]>('UPDATE chunks SET session_kind = @kind WHERE path = @path AND session_kind IS NOT @kind'),
    };
  }

  /** A read from the start: no line map, and a row saying nothing was read yet. */
  startFresh(path: string, tool: string, absPath: string): void {
    this.stmts.deleteLines.run(path);
    this.stmts.startTranscript.run(path, tool, absPath);
  }

  /** A resumed read: drops the chunks and line map a run that did not finish left from `line` on. */
  dropFrom(path: string, line: number): void {
    this.stmts.deleteChunksFrom.run(path, line);
    this.stmts.deleteLinesFrom.run(path, line);
  }

  insertLines(path: string, linesJson: Uint8Array): void {
    this.stmts.insertLines.run(path, asBuffer(linesJson));
  }

  finish(t: FinishedTranscript): void {
    const { meta } = t;
    this.stmts.finishTranscript.run(t.path, t.tool, meta.sessionId, meta.sessionKind, t.absPath, meta.cwd, meta.startedAt, t.resumeJson, t.statsJson, t.lines);
    // Chunks written before the session kind was known carry the provisional kind: fix them (only
    // those: rewriting every row of a large transcript again cost as much as writing it).
    this.stmts.fixSessionKinds.run({ kind: meta.sessionKind, path: t.path });
  }
}
