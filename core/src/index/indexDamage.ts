/**
 * Is the index itself damaged? Asked only after a read failed with a corruption error: the
 * error alone does not say which file it came from (a status reads the dreaming and agents
 * stores too), and those hold records that must not be "rebuilt" away with the index.
 * The checks read every page, so they never run at open (see docs/ARCHITECTURE.md).
 */
import type Database from 'better-sqlite3';
import { errnoCode } from '../platform/errors.js';
import { isCorruptionError } from '../platform/sqliteSchema.js';

export function indexIsDamaged(db: Database.Database, error: unknown): boolean {
  // Only the index has virtual tables (FTS5, sqlite-vec): their damage is the index's.
  if (error instanceof IndexDamageReport || errnoCode(error) === 'SQLITE_CORRUPT_VTAB') return true;
  if (!db.open) return false;
  try {
    if (db.pragma('quick_check(1)', { simple: true }) !== 'ok') return true;
    // FTS5 blobs are opaque to quick_check: a scribbled segment passes it.
    db.prepare("INSERT INTO chunks_fts(chunks_fts) VALUES ('integrity-check')").run();
    db.prepare("INSERT INTO chunks_grams(chunks_grams) VALUES ('integrity-check')").run();
    return false;
  } catch (checkError) {
    return isCorruptionError(checkError);
  }
}

/**
 * Damage another connection to the index met (a search worker's): trusted as the index's,
 * since those connections read nothing else. Carries the SQLite code, so isCorruptionError
 * sees it.
 */
export class IndexDamageReport extends Error {
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
    this.name = 'IndexDamageReport';
  }
}
