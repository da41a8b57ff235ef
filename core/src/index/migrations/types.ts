import type Database from 'better-sqlite3';

/** One schema step. Shipped migrations are never edited: add the next number instead. */
export interface Migration {
  version: number;
  name: string;
  up(db: Database.Database): void;
}
