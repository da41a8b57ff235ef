import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { isCorruptionError, migrate, moveIndexAside, NewerSchemaError } from '../index/database.js';
import { DREAM_MIGRATIONS } from './migrations/index.js';

export interface OpenedDreamDatabase {
  db: Database.Database;
  notice: string | null;
}

/** `<data-dir>/dreaming/<workspace id>.sqlite`: dreaming's store, beside (not inside) the derived index. */
export function dreamDatabasePath(dataDir: string, workspaceId: string): string {
  return path.join(dataDir, 'dreaming', `${workspaceId}.sqlite`);
}

export function openDreamDatabase(file: string): OpenedDreamDatabase {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  try {
    return { db: openAndMigrate(file), notice: null };
  } catch (error) {
    if (!isCorruptionError(error) && !(error instanceof NewerSchemaError)) throw error;
    // Losing dream history is bad; refusing to start is worse. Keep the damaged file for recovery.
    const movedTo = moveIndexAside(file);
    return {
      db: openAndMigrate(file),
      notice: `The dreaming store ${file} could not be read (${(error as Error).message}); it was moved to ${movedTo} and a new one was started. Your Markdown, MEMORY.md pre-images and DREAMS.md are untouched.`,
    };
  }
}

function openAndMigrate(file: string): Database.Database {
  const db = new Database(file, { timeout: 10_000 });
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.prepare('SELECT count(*) FROM sqlite_master').get();
    migrate(db, DREAM_MIGRATIONS);
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}
