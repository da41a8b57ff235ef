import type Database from 'better-sqlite3';
import type { OriginClass } from '../contract/index.js';
import { lineHash } from '../provenance/lineHash.js';
import { leastTrusted } from '../contract/index.js';
import type { EntryProvenance } from './types.js';

interface ProvenanceStatements {
  written: Database.Statement;
  chunks: Database.Statement;
}

const statementsByDb = new WeakMap<Database.Database, ProvenanceStatements>();

/** Prepared once per database: a first extraction reads thousands of files' provenance. */
function statementsOf(db: Database.Database): ProvenanceStatements {
  let statements = statementsByDb.get(db);
  if (!statements) {
    statements = {
      written: db.prepare('SELECT line_hash, origin, via, actor FROM line_provenance WHERE path = ?'),
      chunks: db.prepare('SELECT id, start_line, end_line FROM chunks WHERE path = ? ORDER BY start_line'),
    };
    statementsByDb.set(db, statements);
  }
  return statements;
}

/**
 * Origin class, dream run and chunk of a file's entries, from the columns code wrote
 * (line_provenance, chunks), never from the text. One instance per file.
 */
export class FileProvenance {
  private readonly written: Map<string, { origin: OriginClass; via: string; actor: string | null }> | null;
  private readonly chunks: Array<{ id: number; start_line: number; end_line: number }>;
  /** The file's lines, split only when code wrote some of them (most files have no line_provenance rows). */
  private lines: readonly string[] | null = null;

  constructor(
    db: Database.Database,
    path: string,
    private readonly text: string,
  ) {
    const statements = statementsOf(db);
    const rows = statements.written.all(path) as Array<{ line_hash: string; origin: OriginClass; via: string; actor: string | null }>;
    this.written = rows.length === 0 ? null : new Map(rows.map((r) => [r.line_hash, r]));
    this.chunks = statements.chunks.all(path) as typeof this.chunks;
  }

  of(startLine: number, endLine: number): EntryProvenance {
    let origin: OriginClass = 'owner';
    let dreamRun: string | null = null;
    if (this.written) {
      this.lines ??= this.text.split(/\r?\n/);
      const classes: OriginClass[] = [];
      for (let n = startLine; n <= endLine; n++) {
        const line = this.lines[n - 1] ?? '';
        if (line.trim() === '') continue;
        const row = this.written.get(lineHash(line));
        classes.push(row?.origin ?? 'owner');
        if (row?.via === 'dreaming' && row.actor && !dreamRun) dreamRun = row.actor;
      }
      origin = leastTrusted(classes, 'owner');
    }
    return { origin, dreamRun, chunkId: this.chunkAt(startLine)?.id ?? null };
  }

  /**
   * The first chunk (by start line) holding `line`. A file's chunks follow one another, so their
   * end lines grow with their start lines: a binary search, not a scan per entry (a Hermes file
   * of 30k one-line entries has 30k chunks). Chunks out of that order fall back to the scan.
   */
  private chunkAt(line: number): { id: number; start_line: number; end_line: number } | undefined {
    let lo = 0;
    let hi = this.chunks.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.chunks[mid]!.end_line < line) lo = mid + 1;
      else hi = mid;
    }
    const found = this.chunks[lo];
    if (found && found.start_line <= line) return found;
    return this.chunks.find((c) => c.start_line <= line && c.end_line >= line);
  }
}
