import type Database from 'better-sqlite3';
import type { GraphFilters } from '../contract/index.js';
import { Cooccurrence } from './cooccurrence.js';
import { evidenceCondition } from './graphFilters.js';

/**
 * Where a query reads mentioned_with tallies (graph_cooccurrence's columns: subject_id,
 * object_id, tool, origin, entries, undated, first_observed) from.
 */
export interface PairTallies {
  table: string;
  /** Whether `entries` counts exactly the entries the query's filters keep (else: every entry of a kept tally). */
  countsKeptEntries: boolean;
}

export const STORED_TALLIES: PairTallies = { table: 'graph_cooccurrence', countsKeptEntries: false };
const DERIVED_TABLE = 'temp.graph_pair_tallies';

/** The last derivation, reused while nothing was written (by this connection or another) and the filters are the same. */
const derivedFor = new WeakMap<Database.Database, string>();

/**
 * The stored tallies, unless they cannot answer: while pairs are recounted (graph_state
 * 'cooccurrence' = 'rebuild', after a first, forced or large update) they are missing or partial;
 * and a tally cannot say how many of its entries were observed by a `validAt` day (asked for
 * with `exactCounts`). Then tallies are derived from the mentions of the entries the filters
 * keep (about a recount's reading: ~1 s per 100k entries), into a temp table of this connection.
 */
export function pairTallies(db: Database.Database, filters: GraphFilters | undefined, options: { exactCounts?: boolean } = {}): PairTallies {
  const recounting = Cooccurrence.rebuildPending(db);
  if (!recounting && !(options.exactCounts && filters?.validAt)) return STORED_TALLIES;
  // What the derived table depends on: the filters, and writes by other connections and by this one.
  const stamp = (): string => JSON.stringify([filters ?? null, db.pragma('data_version', { simple: true }), db.prepare('SELECT total_changes()').pluck().get()]);
  if (derivedFor.get(db) !== stamp()) {
    deriveTallies(db, filters);
    // Derivation writes to the temp table, which counts as changes of this connection.
    derivedFor.set(db, stamp());
  }
  return { table: DERIVED_TABLE, countsKeptEntries: true };
}

function deriveTallies(db: Database.Database, filters: GraphFilters | undefined): void {
  const kept = evidenceCondition(filters);
  db.exec(`CREATE TEMP TABLE IF NOT EXISTS graph_pair_tallies (
    subject_id INTEGER NOT NULL, object_id INTEGER NOT NULL, tool TEXT NOT NULL, origin TEXT NOT NULL,
    entries INTEGER NOT NULL, undated INTEGER NOT NULL, first_observed TEXT,
    PRIMARY KEY (subject_id, object_id, tool, origin)
  ) WITHOUT ROWID`);
  db.transaction(() => {
    db.exec(`DELETE FROM ${DERIVED_TABLE}`);
    // The recount's own query (Cooccurrence.rebuildSteps), over the kept entries only.
    db.prepare(
      `INSERT INTO ${DERIVED_TABLE} (subject_id, object_id, tool, origin, entries, undated, first_observed)
       SELECT x.entity_id, y.entity_id, g.tool, g.origin, count(*), sum(g.observed IS NULL), min(g.observed)
       FROM graph_entries g
       JOIN graph_mentions x ON x.entry_id = g.id AND x.cooccurs = 1
       JOIN graph_mentions y ON y.entry_id = g.id AND y.cooccurs = 1 AND y.entity_id > x.entity_id
       WHERE ${kept.sql}
       GROUP BY x.entity_id, y.entity_id, g.tool, g.origin`,
    ).run(...kept.params);
  })();
}
