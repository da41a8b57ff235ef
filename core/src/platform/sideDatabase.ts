import fs from 'node:fs';
import path from 'node:path';
import type Database from 'better-sqlite3';
import { openSqlite } from './sqliteDriver.js';
import { useWalMode } from './walMode.js';
import { errnoCode, ReverieError } from './errors.js';
import { isCorruptionError, migrate, moveDatabaseAside, NewerSchemaError, type Migration } from './sqliteSchema.js';
import { processLogger } from './log/processLog.js';

const log = processLogger('platform');

export interface SideDatabase {
  db: Database.Database;
  /** Set when the file found could not be opened and a fresh one was started. */
  notice: string | null;
  /**
   * After a corruption error: when this store is the damaged one, the error to show instead
   * (naming the file and what to do); null when it is sound. Its records cannot be rebuilt,
   * so the file stays where it is; the first call saves a copy of it as it is now.
   */
  explainDamage(error: unknown): ReverieError | null;
}

/** What a store's damage message is made of. */
export interface SideDatabaseMessages {
  /** The file could not be opened at all: it was moved aside and a fresh one started. */
  lost(file: string, movedTo: string, why: string): string;
  /** Pages inside an open store are damaged: it stays, a copy was saved. */
  damaged(file: string, copiedTo: string, why: string): string;
}

/**
 * Opens one of the small stores that live beside the index (dreaming, agents): WAL, its own
 * numbered migrations, private file modes. A store that cannot be opened is moved aside (kept
 * for recovery) and a fresh one started, with a notice saying what that means for the person;
 * damage found later, inside a table, is an error that names the file (see explainDamage).
 */
export function openSideDatabase(file: string, migrations: readonly Migration[], messages: SideDatabaseMessages): SideDatabase {
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  let opened: { db: Database.Database; notice: string | null };
  try {
    opened = { db: openAndMigrate(file, migrations), notice: null };
  } catch (error) {
    if (!isCorruptionError(error) && !(error instanceof NewerSchemaError)) throw error;
    const movedTo = moveDatabaseAside(file);
    opened = { db: openAndMigrate(file, migrations), notice: messages.lost(file, movedTo, (error as Error).message) };
  }
  let explained: ReverieError | null = null;
  const explainDamage = (error: unknown): ReverieError | null => {
    if (!isCorruptionError(error)) return null;
    if (!explained && isDamaged(opened.db)) {
      explained = new ReverieError('damaged', messages.damaged(file, copyAside(file), (error as Error).message), { cause: error });
    }
    return explained;
  };
  return { ...opened, explainDamage };
}

/** Reads every page (the stores are small): asked only after a corruption error. */
function isDamaged(db: Database.Database): boolean {
  if (!db.open) return false;
  try {
    return db.pragma('quick_check(1)', { simple: true }) !== 'ok';
  } catch (error) {
    return isCorruptionError(error);
  }
}

/** A copy of the damaged store (and its WAL) as it is now, before anything writes to it again; returns its name. */
function copyAside(file: string): string {
  const target = `${file}.damaged-${new Date().toISOString().replace(/[:.]/g, '-')}`;
  for (const suffix of ['', '-wal']) {
    try {
      fs.copyFileSync(file + suffix, target + suffix);
    } catch (error) {
      if (errnoCode(error) !== 'ENOENT') log.warn('A damaged store could not be copied', { file: file + suffix, error });
    }
  }
  return target;
}

function openAndMigrate(file: string, migrations: readonly Migration[]): Database.Database {
  const db = openSqlite(file, { timeout: 10_000 });
  try {
    useWalMode(db);
    db.pragma('synchronous = NORMAL');
    db.prepare('SELECT count(*) FROM sqlite_master').get();
    migrate(db, migrations);
    try {
      fs.chmodSync(file, 0o600);
    } catch (error) {
      // Best effort: the folder is private anyway.
      log.debug('A database file could not be made private', { file, error });
    }
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}
