import type Database from 'better-sqlite3';

const RETRY_MS = 20;
const GIVE_UP_MS = 10_000;

/**
 * Switches a connection to WAL. Two processes opening a new database at once (two hosts
 * starting, a CLI command beside the app) race for the switch, and SQLite answers the loser
 * "database is locked" at once, without waiting through the busy timeout: retry briefly, so
 * the loser opens the database instead of failing with an internal error.
 */
export function useWalMode(db: Database.Database): void {
  const until = Date.now() + GIVE_UP_MS;
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (;;) {
    try {
      db.pragma('journal_mode = WAL');
      return;
    } catch (error) {
      const code = (error as { code?: string }).code;
      if ((code !== 'SQLITE_BUSY' && code !== 'SQLITE_LOCKED') || Date.now() >= until) throw error;
      // Opening is synchronous: wait without spinning the CPU.
      Atomics.wait(pause, 0, 0, RETRY_MS);
    }
  }
}
