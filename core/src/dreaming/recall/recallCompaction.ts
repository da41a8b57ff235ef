import type Database from 'better-sqlite3';
import { inTimeSlices } from '../../platform/timeSlices.js';
import { daysAgo } from '../../platform/localDay.js';

export const KEEP_RAW_SIGNAL_DAYS = 30;
export const MAX_RAW_SIGNALS = 200_000;
const MAX_AGGREGATE_QUERIES = 32;
const MAX_AGGREGATE_DAYS = 60;
/**
 * Raw rows folded per transaction of `compactRecallSignalsInSlices`: ~4 ms each at the 200k
 * cap. The rows of one id range belong to entries all over the table, so each transaction's
 * commit writes (and checkpoints) index pages in proportion to the rows it folded: the
 * transactions stay this small rather than filling a time budget the commit then overruns.
 */
const FOLD_ROWS_PER_STEP = 250;

/**
 * Keeps the signal table bounded: rows older than 30 days (or beyond 200k rows) are folded
 * into one aggregate per entry (count, score sum, distinct queries and days, capped) and deleted.
 */
export function compactRecallSignals(db: Database.Database, now: number): number {
  pruneUses(db, now);
  const cutoffId = compactionCutoff(db, now);
  if (cutoffId <= 0) return 0;
  const fold = folder(db);
  return db.transaction(() => fold(0, cutoffId))();
}

/**
 * `compactRecallSignals` in small transactions, yielding between them: once the
 * table is at its cap, each compaction folds tens of thousands of rows, too long to hold the
 * engine's thread in one go. Each step folds a range of ids and deletes it in one transaction,
 * so stopping between steps (`shouldStop`) leaves the rest for the next compaction, and the
 * result is the same as folding at once: counts, minima and maxima add up, the capped sets keep
 * the greatest values, the same piece by piece or all together, and score sums differ at most
 * by floating-point rounding (added in another order).
 * Returns the aggregates written (an entry whose rows span several steps counts once per step).
 */
export async function compactRecallSignalsInSlices(
  db: Database.Database,
  now: number,
  options: { shouldStop?: () => boolean } = {},
): Promise<number> {
  pruneUses(db, now);
  const cutoffId = compactionCutoff(db, now);
  if (cutoffId <= 0) return 0;
  const firstId = (db.prepare('SELECT min(id) AS id FROM recall_signals').get() as { id: number | null }).id ?? cutoffId + 1;
  const fold = folder(db);
  let folded = 0;
  await inTimeSlices(
    idRanges(firstId, cutoffId, FOLD_ROWS_PER_STEP),
    (work) => db.transaction(work)(),
    ([from, to]) => {
      folded += fold(from, to);
    },
    { budgetMs: 0, shouldStop: options.shouldStop }, // one range per transaction
  );
  return folded;
}

/** Uses only weigh recent signals: they go when their search's raw rows would (one indexed delete). */
function pruneUses(db: Database.Database, now: number): void {
  db.prepare('DELETE FROM recall_uses WHERE used_at < ?').run(daysAgo(now, KEEP_RAW_SIGNAL_DAYS));
}

/** The newest id to fold: rows older than 30 days, and those beyond the newest 200k. 0 when none. */
function compactionCutoff(db: Database.Database, now: number): number {
  const total = (db.prepare('SELECT count(*) AS n FROM recall_signals').get() as { n: number }).n;
  let cutoffId = (db.prepare('SELECT max(id) AS id FROM recall_signals WHERE recalled_at < ?').get(daysAgo(now, KEEP_RAW_SIGNAL_DAYS)) as { id: number | null }).id ?? 0;
  if (total > MAX_RAW_SIGNALS) {
    const overflow = db.prepare('SELECT id FROM recall_signals ORDER BY id LIMIT 1 OFFSET ?').get(total - MAX_RAW_SIGNALS) as { id: number } | undefined;
    if (overflow) cutoffId = Math.max(cutoffId, overflow.id - 1);
  }
  return cutoffId;
}

/** Folds the raw rows with ids in [from, to] into their entries' aggregates and deletes them; run inside a transaction. */
function folder(db: Database.Database): (from: number, to: number) => number {
  const select = db.prepare(
    `SELECT path, entry_hash, count(*) AS count, sum(score) AS score_sum, json_group_array(DISTINCT query_hash) AS queries,
            json_group_array(DISTINCT day) AS days, min(recalled_at) AS first_at, max(recalled_at) AS last_at
     FROM recall_signals WHERE id BETWEEN ? AND ? GROUP BY path, entry_hash`,
  );
  const read = db.prepare('SELECT * FROM recall_aggregates WHERE path = ? AND entry_hash = ?');
  const write = db.prepare(
    `INSERT OR REPLACE INTO recall_aggregates (path, entry_hash, count, score_sum, query_hashes, days, first_at, last_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const remove = db.prepare('DELETE FROM recall_signals WHERE id BETWEEN ? AND ?');
  return (from, to) => {
    const rows = select.all(from, to) as Array<{ path: string; entry_hash: string; count: number; score_sum: number; queries: string; days: string; first_at: number; last_at: number }>;
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
    remove.run(from, to);
    return rows.length;
  };
}

function* idRanges(first: number, last: number, size: number): Generator<[number, number]> {
  for (let from = first; from <= last; from += size) yield [from, Math.min(last, from + size - 1)];
}

/** Newest kept when capped: recent days and queries matter most to the ranking. */
function union(older: string[], newer: string[], cap: number): string[] {
  const merged = [...new Set([...older, ...newer])].sort();
  return merged.slice(Math.max(0, merged.length - cap));
}
