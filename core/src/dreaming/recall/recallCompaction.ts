import type Database from 'better-sqlite3';
import { daysAgo } from '../localDay.js';

export const KEEP_RAW_SIGNAL_DAYS = 30;
export const MAX_RAW_SIGNALS = 200_000;
const MAX_AGGREGATE_QUERIES = 32;
const MAX_AGGREGATE_DAYS = 60;

/**
 * Keeps the signal table bounded: rows older than 30 days (or beyond 200k rows) are folded
 * into one aggregate per entry (count, score sum, distinct queries and days, capped) and deleted.
 */
export function compactRecallSignals(db: Database.Database, now: number): number {
  const total = (db.prepare('SELECT count(*) AS n FROM recall_signals').get() as { n: number }).n;
  let cutoffId = (db.prepare('SELECT max(id) AS id FROM recall_signals WHERE recalled_at < ?').get(daysAgo(now, KEEP_RAW_SIGNAL_DAYS)) as { id: number | null }).id ?? 0;
  if (total > MAX_RAW_SIGNALS) {
    const overflow = db.prepare('SELECT id FROM recall_signals ORDER BY id LIMIT 1 OFFSET ?').get(total - MAX_RAW_SIGNALS) as { id: number } | undefined;
    if (overflow) cutoffId = Math.max(cutoffId, overflow.id - 1);
  }
  if (cutoffId <= 0) return 0;
  const rows = db
    .prepare(
      `SELECT path, entry_hash, count(*) AS count, sum(score) AS score_sum, json_group_array(DISTINCT query_hash) AS queries,
              json_group_array(DISTINCT day) AS days, min(recalled_at) AS first_at, max(recalled_at) AS last_at
       FROM recall_signals WHERE id <= ? GROUP BY path, entry_hash`,
    )
    .all(cutoffId) as Array<{ path: string; entry_hash: string; count: number; score_sum: number; queries: string; days: string; first_at: number; last_at: number }>;
  const read = db.prepare('SELECT * FROM recall_aggregates WHERE path = ? AND entry_hash = ?');
  const write = db.prepare(
    `INSERT OR REPLACE INTO recall_aggregates (path, entry_hash, count, score_sum, query_hashes, days, first_at, last_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  db.transaction(() => {
    for (const row of rows) {
      const prior = read.get(row.path, row.entry_hash) as
        | { count: number; score_sum: number; query_hashes: string; days: string; first_at: number; last_at: number }
        | undefined;
      const queries = union(prior ? (JSON.parse(prior.query_hashes) as string[]) : [], JSON.parse(row.queries) as string[], MAX_AGGREGATE_QUERIES);
      const days = union(prior ? (JSON.parse(prior.days) as string[]) : [], JSON.parse(row.days) as string[], MAX_AGGREGATE_DAYS);
      write.run(
        row.path,
        row.entry_hash,
        row.count + (prior?.count ?? 0),
        row.score_sum + (prior?.score_sum ?? 0),
        JSON.stringify(queries),
        JSON.stringify(days),
        Math.min(row.first_at, prior?.first_at ?? Infinity),
        Math.max(row.last_at, prior?.last_at ?? 0),
      );
    }
    db.prepare('DELETE FROM recall_signals WHERE id <= ?').run(cutoffId);
  })();
  return rows.length;
}

/** Newest kept when capped: recent days and queries matter most to the ranking. */
function union(older: string[], newer: string[], cap: number): string[] {
  const merged = [...new Set([...older, ...newer])].sort();
  return merged.slice(Math.max(0, merged.length - cap));
}
