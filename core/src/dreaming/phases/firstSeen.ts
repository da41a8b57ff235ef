import type Database from 'better-sqlite3';
import { CURATED_FILES } from '../../workspace/layout.js';
import type { DocumentReader } from '../recall/documentLines.js';
import { inTimeSlices } from '../../platform/timeSlices.js';
import { entryHash } from '../recall/entryKeys.js';

/**
 * Notes when each entry of the workspace's notes first appeared ("written", for the
 * lookback windows), whatever date the note's file name carries. Only files whose mtime
 * moved since the last sweep are read; a new entry is dated by its file's mtime. In short
 * transactions with turns of the event loop between them: a first sweep reads every note.
 */
export async function updateFirstSeen(dreamDb: Database.Database, indexDb: Database.Database, reader: DocumentReader, now: number): Promise<number> {
  const files = indexDb.prepare("SELECT path, mtime_ms FROM files WHERE source = 'memory' AND status = 'indexed'").all() as Array<{ path: string; mtime_ms: number }>;
  const scanned = new Map(
    (dreamDb.prepare('SELECT path, mtime_ms FROM scanned_files').all() as Array<{ path: string; mtime_ms: number }>).map((r) => [r.path, r.mtime_ms]),
  );
  const insert = dreamDb.prepare('INSERT OR IGNORE INTO entry_first_seen (path, entry_hash, first_seen_at) VALUES (?, ?, ?)');
  const mark = dreamDb.prepare('INSERT OR REPLACE INTO scanned_files (path, mtime_ms) VALUES (?, ?)');
  let added = 0;
  const changed = files.filter((file) => !CURATED_FILES.has(file.path) && scanned.get(file.path) !== file.mtime_ms);
  await inTimeSlices(
    changed,
    (work) => dreamDb.transaction(work)(),
    (file) => {
      const doc = reader.read(file.path);
      if (!doc) return;
      const seenAt = Math.min(Math.round(file.mtime_ms), now);
      for (const entry of doc.entries) {
        const hash = entryHash(entry.raw);
        if (hash) added += insert.run(file.path, hash, seenAt).changes;
      }
      mark.run(file.path, file.mtime_ms);
    },
  );
  return added;
}
