import fs from 'node:fs';
import path from 'node:path';
import type Database from 'better-sqlite3';
import { openSqlite } from './sqliteDriver.js';
import { useWalMode } from './walMode.js';
import { isCorruptionError, migrate, moveDatabaseAside, NewerSchemaError, type Migration } from './sqliteSchema.js';
import { processLogger } from './log/processLog.js';

const log = processLogger('platform');

/**
 * Opens one of the small stores that live beside the index (dreaming, agents): WAL, its own
 * numbered migrations, private file modes. An unreadable store is moved aside (kept for
 * recovery) and a fresh one started, with a notice saying what that means for the person.
 */
export function openSideDatabase(file: string, migrations: readonly Migration[], describeLoss: (file: string, movedTo: string, why: string) => string): { db: Database.Database; notice: string | null } {
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  try {
    return { db: openAndMigrate(file, migrations), notice: null };
  } catch (error) {
    if (!isCorruptionError(error) && !(error instanceof NewerSchemaError)) throw error;
    const movedTo = moveDatabaseAside(file);
    return { db: openAndMigrate(file, migrations), notice: describeLoss(file, movedTo, (error as Error).message) };
  }
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
