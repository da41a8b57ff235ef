import type Database from 'better-sqlite3';

/**
 * Reads the index's write stamp: it changes whenever this connection (total_changes) or another
 * one (data_version) has written. Exact and one cheap read, so callers may ask on every search
 * to know whether what they keep from the index still holds.
 */
export function writeStampReader(db: Database.Database): () => string {
  const read = db.prepare<[], { own: number; other: number }>('SELECT total_changes() AS own, data_version AS other FROM pragma_data_version');
  return () => {
    const { own, other } = read.get()!;
    return `${own}:${other}`;
  };
}
