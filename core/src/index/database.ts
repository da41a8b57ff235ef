import fs from 'node:fs';
import path from 'node:path';
import type Database from 'better-sqlite3';
import { openSqlite } from '../platform/sqliteDriver.js';
import { isCorruptionError, migrate, moveDatabaseAside, NewerSchemaError } from '../platform/sqliteSchema.js';
import { useWalMode } from '../platform/walMode.js';
import { registerChunkText } from './chunkText.js';
import { MIGRATIONS } from './migrations/index.js';
import { DEFAULT_RECLAIM, describeReclaim, reclaimFreePages, type ReclaimThresholds } from './reclaimSpace.js';
import { loadVectorExtension, type VectorBackend } from './vectorStore.js';

export interface OpenedIndex {
  db: Database.Database;
  /** Set when an unusable index was moved aside: tell the person. */
  notice: string | null;
  /** The file found was moved aside: this one is new and empty until a sync. */
  movedAside: boolean;
  vectorBackend: VectorBackend;
  vectorProblem: string | null;
}

export interface OpenIndexOptions {
  readonly?: boolean;
  /** Do not load sqlite-vec (tests of the fallback, or a person's choice). */
  disableVectorExtension?: boolean;
  /** When free pages are worth giving back to the disk (see reclaimSpace.ts); false never compacts. */
  reclaim?: ReclaimThresholds | false;
  /** A long migration of an existing index (0021 rewrites every chunk) says how far it has got. */
  onMigrationProgress?: (done: number, total: number) => void;
}

/**
 * Opens (creating if needed) the derived index. A corrupted or unreadable index is moved
 * aside and rebuilt: it holds nothing that is not in the Markdown.
 */
export function openIndexDatabase(file: string, options: OpenIndexOptions = {}): OpenedIndex {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const open = (): OpenedIndex => {
    let vector: { backend: VectorBackend; problem: string | null } = { backend: 'scan', problem: null };
    // sqlite-vec is loaded before migrations and before any statement is prepared: triggers on
    // chunks, and migrations that drop old generations, touch vec0 tables.
    const db = openAndMigrate(file, options.readonly ?? false, (d) => {
      vector = loadVectorExtension(d, options.disableVectorExtension ?? false);
    }, options.onMigrationProgress);
    return { db, notice: null, movedAside: false, vectorBackend: vector.backend, vectorProblem: vector.problem };
  };
  let opened: OpenedIndex;
  try {
    opened = open();
  } catch (error) {
    if (!isCorruptionError(error) && !(error instanceof NewerSchemaError)) throw error;
    const movedTo = moveDatabaseAside(file);
    const why = error instanceof NewerSchemaError ? error.message : `corrupted (${(error as Error).message})`;
    const notice = `The index ${file} was ${why}. It was moved to ${movedTo} and is being rebuilt from your Markdown files; nothing you wrote was lost.`;
    return { ...open(), notice, movedAside: true };
  }
  if (opened.vectorBackend === 'scan' && usesVectorExtension(opened.db)) {
    // Tables built with sqlite-vec cannot even be read without it; the index is derived, so rebuild.
    opened.db.close();
    const movedTo = moveDatabaseAside(file);
    return {
      ...open(),
      movedAside: true,
      notice: `${opened.vectorProblem ?? 'sqlite-vec is unavailable'}; the index ${file} used it, so it was moved to ${movedTo} and is being rebuilt with exact vector scans. Keyword search is unaffected.`,
    };
  }
  if (!options.readonly && options.reclaim !== false) {
    // Once, after an upgrade dropped most of the index (migration 0005): before anything else uses it.
    const reclaimed = describeReclaim(reclaimFreePages(opened.db, file, options.reclaim ?? DEFAULT_RECLAIM), file);
    if (reclaimed) opened.notice = reclaimed;
  }
  return opened;
}

/**
 * Opens an existing index to read it as it is (a one-shot search without a host): read-only, so
 * nothing is created, migrated, switched to WAL or compacted. Returns why it cannot be read so
 * (missing, written by another schema version, damaged, its vectors unreadable here, its first
 * sync cut short) instead:
 * the caller then opens it the usual way, which creates, migrates or rebuilds it.
 */
export function openIndexForReading(file: string, options: { disableVectorExtension?: boolean } = {}): OpenedIndex | { unreadable: string } {
  if (!fs.existsSync(file)) return { unreadable: `there is no index at ${file} yet` };
  let db: Database.Database | null = null;
  try {
    db = openSqlite(file, { readonly: true, fileMustExist: true, timeout: 10_000 });
    // Chunk text is stored deflated: what reads it back in SQL (a transcript's lines for a recall) calls chunk_text().
    registerChunkText(db);
    const vector = loadVectorExtension(db, options.disableVectorExtension ?? false);
    const version = db.pragma('user_version', { simple: true }) as number;
    const latest = MIGRATIONS[MIGRATIONS.length - 1]!.version;
    if (version !== latest) throw new Error(`the index has schema ${version}, this version writes ${latest}`);
    if (vector.backend === 'scan' && usesVectorExtension(db)) throw new Error(vector.problem ?? 'sqlite-vec is unavailable');
    // Set when a sync's pass over the files ends: without it the first index was cut short (killed) and holds only part of them.
    if (db.prepare("SELECT 1 FROM meta WHERE key = 'last_sync_at'").get() === undefined) throw new Error('the index was never synced to the end');
    db.pragma('cache_size = -32000');
    return { db, notice: null, movedAside: false, vectorBackend: vector.backend, vectorProblem: vector.problem };
  } catch (error) {
    db?.close();
    return { unreadable: (error as Error).message };
  }
}

function usesVectorExtension(db: Database.Database): boolean {
  return (db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE sql LIKE '%USING vec0%'").get() as { n: number }).n > 0;
}

/**
 * Pages of a new index file. Chunk rows (about 1.3 KB of text each) fill 4 KB pages only two or
 * three at a time, leaving a fifth of the chunks' pages empty; 8 KB pages hold five or six and
 * waste a tenth as much (2.2 MB less at 2,000 notes, 5 % of the file). An existing file keeps
 * its size: a WAL-mode database cannot change it, not even in a VACUUM.
 */
export const INDEX_PAGE_SIZE = 8192;

/** Sets the page size while the file is still empty (SQLite fixes it when it writes the first page). */
function useNewIndexPageSize(db: Database.Database): void {
  if ((db.pragma('page_count', { simple: true }) as number) === 0) db.pragma(`page_size = ${INDEX_PAGE_SIZE}`);
}

function openAndMigrate(
  file: string, readonly: boolean, beforeMigrate: (db: Database.Database) => void, onProgress: (done: number, total: number) => void = () => {},
): Database.Database {
  const db = openSqlite(file, { fileMustExist: readonly, timeout: 10_000 });
  try {
    registerChunkText(db);
    beforeMigrate(db);
    if (!readonly) useNewIndexPageSize(db);
    useWalMode(db);
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    db.pragma('temp_store = MEMORY');
    db.pragma('cache_size = -32000');
    // Touch the schema so a file that is not a database fails here, not later.
    db.prepare('SELECT count(*) FROM sqlite_master').get();
    migrate(db, MIGRATIONS, (_migration, done, total) => onProgress(done, total));
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}

