import type Database from 'better-sqlite3';
import { lineHash } from './lineHash.js';
import type { OriginClass } from '../contract/index.js';

export interface WriteProvenance {
  origin: OriginClass;
  via: 'agent' | 'import' | 'dreaming';
  /** Agent name, importer, or dream run id. */
  actor: string | null;
  detail?: string | null;
}

/**
 * Records the class of lines Reverie itself writes into a workspace file (agent notes,
 * imports, dreaming), keyed by path and normalised line hash. On re-index those lines keep
 * this class; every other line of the file is the person's.
 */
export function recordWrittenLines(db: Database.Database, path: string, lines: readonly string[], provenance: WriteProvenance): void {
  const insert = db.prepare(
    `INSERT INTO line_provenance (path, line_hash, origin, via, actor, detail, written_at) VALUES (?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT(path, line_hash) DO UPDATE SET origin = excluded.origin, via = excluded.via, actor = excluded.actor,
       detail = excluded.detail, written_at = excluded.written_at`,
  );
  const now = new Date().toISOString();
  // One row per distinct line: a Hermes file repeats its `§` separator once per entry.
  const hashes = new Set<string>();
  for (const line of new Set(lines)) if (line.trim().length > 0) hashes.add(lineHash(line));
  db.transaction(() => {
    // In key order: the rows go into the (path, line_hash) tree as appends, not random inserts.
    for (const hash of [...hashes].sort()) insert.run(path, hash, provenance.origin, provenance.via, provenance.actor, provenance.detail ?? null, now);
  }).immediate();
}
