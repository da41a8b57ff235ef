/**
 * SQLite files Reverie owns (the index and the stores beside it): numbered migrations, and
 * what happens to a file that is damaged or newer than this version.
 */
import fs from 'node:fs';
import type Database from 'better-sqlite3';
import { ReverieError, errnoCode } from './errors.js';

/** One schema step. Shipped migrations are never edited: add the next number instead. */
export interface Migration {
  version: number;
  name: string;
  /**
   * Runs with foreign keys off (SQLite's way to rebuild a table that others reference: with
   * them on, dropping the old table deletes the children's rows). The keys are checked before
   * the migration commits, and a violation rolls it back.
   */
  withoutForeignKeys?: boolean;
  /** `progress`: a long migration says how far it has got (done of total, in its own units). */
  up(db: Database.Database, progress?: MigrationProgress): void;
}

/** How far a migration has got: `done` of `total` (its own units: rows, chunks). */
export type MigrationProgress = (done: number, total: number) => void;


const CORRUPTION_CODES = new Set(['SQLITE_CORRUPT', 'SQLITE_NOTADB', 'SQLITE_CORRUPT_VTAB', 'SQLITE_CORRUPT_INDEX']);

export function isCorruptionError(error: unknown): boolean {
  const code = errnoCode(error);
  return code !== undefined && (CORRUPTION_CODES.has(code) || code.startsWith('SQLITE_CORRUPT'));
}

export class NewerSchemaError extends Error {}

export function migrate(db: Database.Database, migrations: readonly Migration[], progress: (migration: Migration, done: number, total: number) => void = () => {}): void {
  const current = db.pragma('user_version', { simple: true }) as number;
  const latest = migrations[migrations.length - 1]!.version;
  if (current > latest) {
    throw new NewerSchemaError(`created by a newer version of Reverie (schema ${current}, this version knows ${latest})`);
  }
  for (const migration of migrations) {
    if (migration.version <= current) continue;
    // Outside a transaction: SQLite ignores the switch inside one.
    const keysWereOn = migration.withoutForeignKeys === true && (db.pragma('foreign_keys', { simple: true }) as number) === 1;
    if (keysWereOn) db.pragma('foreign_keys = OFF');
    try {
      // BEGIN IMMEDIATE: two processes opening a fresh index at once must not both migrate.
      db.transaction(() => {
        const now = db.pragma('user_version', { simple: true }) as number;
        if (now >= migration.version) return;
        migration.up(db, (done, total) => progress(migration, done, total));
        if (keysWereOn && (db.pragma('foreign_key_check') as unknown[]).length > 0) {
          throw new Error(`migration ${migration.version} (${migration.name}) left rows whose foreign keys point at nothing`);
        }
        db.pragma(`user_version = ${migration.version}`);
      }).immediate();
    } finally {
      if (keysWereOn) db.pragma('foreign_keys = ON');
    }
  }
}

/** Renames a damaged database (and its WAL files) out of the way; returns the new name. */
export function moveDatabaseAside(file: string): string {
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const target = `${file}.corrupt-${stamp}`;
  for (const suffix of ['', '-wal', '-shm']) {
    try {
      fs.renameSync(file + suffix, target + suffix);
    } catch (error) {
      if (errnoCode(error) !== 'ENOENT') {
        throw new ReverieError('internal', `Could not move the damaged database ${file + suffix} aside: ${(error as Error).message}`);
      }
    }
  }
  return target;
}
