/**
 * Lone pairs: two entities named together in one entry only. They are not stored (a claim,
 * two index rows and a tally each were most of the graph's bytes, see cooccurrence.ts
 * STORED_PAIR_MIN_ENTRIES); queries read them from the mentions of the entities they ask
 * about, bounded by those entities' mentions. A pair without a stored claim is lone by
 * definition here, so while pairs are recounted (a rebuild) the not yet stored ones are
 * read the same way, with all their kept entries.
 */
import type Database from 'better-sqlite3';
import type { GraphFilters } from '../contract/index.js';
import { evidenceCondition, hasEvidenceFilter, tallyCondition } from './graphFilters.js';
import type { PairTallies } from './pairTallies.js';
import { MENTIONED_WITH } from './types.js';

/** Entity ids stay below this (2^26): a lone pair's id packs both into one safe integer. */
const ENTITY_ID_LIMIT = 2 ** 26;

/** A lone pair's claim id: negative (stored claims are positive), packing its two entity ids (a < b). */
export function lonePairClaimId(a: number, b: number): number {
  const [low, high] = a < b ? [a, b] : [b, a];
  return -(low * ENTITY_ID_LIMIT + high);
}

/** The two entity ids (smaller first) of a lone pair's claim id, or null for a stored claim's id. */
export function lonePairEnds(id: number): [number, number] | null {
  if (id >= 0) return null;
  const packed = -id;
  return [Math.floor(packed / ENTITY_ID_LIMIT), packed % ENTITY_ID_LIMIT];
}

/** Whether two entities can be packed into a lone pair id (a sanity bound on ids parsed from text). */
export function fitsLonePairId(a: number, b: number): boolean {
  return Number.isSafeInteger(a) && Number.isSafeInteger(b) && a > 0 && b > 0 && a !== b && a < ENTITY_ID_LIMIT && b < ENTITY_ID_LIMIT;
}

/** A lone pair seen from one of its entities: the other one and its kept entries. */
export interface LonePartner {
  entity: number;
  other: number;
  entries: number;
}

/** The entries a filter keeps, joined only when there is a filter (the join doubles the cost of a read). */
function keptEntries(filters: GraphFilters | undefined): { join: string; sql: string; params: unknown[] } {
  if (!hasEvidenceFilter(filters)) return { join: '', sql: '1', params: [] };
  const kept = evidenceCondition(filters, 'g');
  return { join: 'JOIN graph_entries g ON g.id = x.entry_id', ...kept };
}

/** SQL: no stored mentioned_with claim joins `a` and `b` (the identity index answers it). */
const NOT_STORED = (a: string, b: string) =>
  `NOT EXISTS (SELECT 1 FROM graph_claims c WHERE c.subject_id = min(${a}, ${b}) AND c.predicate = '${MENTIONED_WITH}' AND ifnull(c.object_id, 0) = max(${a}, ${b}) AND ifnull(c.literal_key, '') = '')`;

/**
 * The lone pairs of each of `ids` (one row per entity and partner; a pair inside `ids` comes
 * twice, once from each side), over the entries the filters keep. Reads each entity's
 * mentions and the names of those entries: about a millisecond per 1,000 mentions.
 */
export function lonePartners(db: Database.Database, ids: readonly number[], filters: GraphFilters | undefined): LonePartner[] {
  if (ids.length === 0) return [];
  const kept = keptEntries(filters);
  return db
    .prepare(
      `SELECT x.entity_id AS entity, y.entity_id AS other, count(*) AS entries
       FROM graph_mentions x
       JOIN graph_mentions y ON y.entry_id = x.entry_id AND y.cooccurs = 1 AND y.entity_id != x.entity_id
       ${kept.join}
       WHERE x.entity_id IN (SELECT value FROM json_each(?)) AND x.cooccurs = 1 AND ${kept.sql}
       GROUP BY x.entity_id, y.entity_id
       HAVING ${NOT_STORED('x.entity_id', 'y.entity_id')}`,
    )
    .all(JSON.stringify([...new Set(ids)]), ...kept.params) as LonePartner[];
}

/** Every lone pair (entity < other) over the kept entries: a pass over all mentions (about 0.2 s per 200k). */
export function allLonePairs(db: Database.Database, filters: GraphFilters | undefined): LonePartner[] {
  const kept = keptEntries(filters);
  return db
    .prepare(
      `SELECT x.entity_id AS entity, y.entity_id AS other, count(*) AS entries
       FROM graph_mentions x
       JOIN graph_mentions y ON y.entry_id = x.entry_id AND y.cooccurs = 1 AND y.entity_id > x.entity_id
       ${kept.join}
       WHERE x.cooccurs = 1 AND ${kept.sql}
       GROUP BY x.entity_id, y.entity_id
       HAVING ${NOT_STORED('x.entity_id', 'y.entity_id')}`,
    )
    .all(...kept.params) as LonePartner[];
}

/**
 * How many lone pairs the filters keep, for a slice's totals, without listing them: every
 * entry with k co-occurring names holds k(k-1)/2 pairs, and the stored pairs' tallies count
 * their share of them; each other pair is a lone pair's one entry. From tallies derived for
 * the filters (pairTallies.ts), the pairs there without a stored claim are counted instead.
 */
export function countLonePairs(db: Database.Database, filters: GraphFilters | undefined, tallies: PairTallies): number {
  if (tallies.countsKeptEntries) {
    return db
      .prepare(`SELECT count(*) FROM (SELECT subject_id AS a, object_id AS b FROM ${tallies.table} GROUP BY 1, 2) WHERE ${NOT_STORED('a', 'b')}`)
      .pluck()
      .get() as number;
  }
  // Stored tallies cannot say how many of their entries a validAt day keeps: list them instead.
  if (filters?.validAt) return allLonePairs(db, filters).length;
  const kept = evidenceCondition(filters, 'g');
  const incidences = db
    .prepare(`SELECT total(k * (k - 1) / 2) FROM (SELECT count(*) AS k FROM graph_mentions m JOIN graph_entries g ON g.id = m.entry_id WHERE m.cooccurs = 1 AND ${kept.sql} GROUP BY m.entry_id)`)
    .pluck()
    .get(...kept.params) as number;
  const tally = evidenceCondition(filters, 't');
  const stored = db.prepare(`SELECT total(entries) FROM ${tallies.table} t WHERE ${tally.sql}`).pluck().get(...tally.params) as number;
  return Math.max(0, incidences - stored);
}

/**
 * How many lone partners each of `ids` has over the kept entries, without listing them (a
 * degree needs the number only): its entries' other co-occurring names, less those its stored
 * pairs' tallies count, less the partners already counted through a stated relation
 * (`statedOnly`: related to it by a stated claim and not by a stored pair), each a lone pair
 * when they share a kept entry. Exact only while every stored pair has its tallies and every
 * other pair one entry (a settled graph, the stored tallies, no `validAt`): `countsLonePartners`.
 */
export function countLonePartners(db: Database.Database, ids: readonly number[], filters: GraphFilters | undefined, statedOnly: ReadonlyMap<number, readonly number[]>): Map<number, number> {
  const json = JSON.stringify([...new Set(ids)]);
  const kept = keptEntries(filters);
  const tally = tallyCondition(filters, 't');
  const incidences = db
    .prepare(
      `SELECT x.entity_id, count(*) FROM graph_mentions x JOIN graph_mentions y ON y.entry_id = x.entry_id AND y.cooccurs = 1 AND y.entity_id != x.entity_id ${kept.join}
       WHERE x.entity_id IN (SELECT value FROM json_each(?)) AND x.cooccurs = 1 AND ${kept.sql} GROUP BY x.entity_id`,
    )
    .raw()
    .all(json, ...kept.params) as Array<[number, number]>;
  const stored = new Map(
    db
      .prepare(
        `SELECT id, total(entries) FROM (
           SELECT t.subject_id AS id, t.entries FROM graph_cooccurrence t WHERE t.subject_id IN (SELECT value FROM json_each(?)) AND ${tally.sql}
           UNION ALL
           SELECT c.object_id, t.entries FROM graph_claims c JOIN graph_cooccurrence t ON t.subject_id = c.subject_id AND t.object_id = c.object_id
           WHERE c.object_id IN (SELECT value FROM json_each(?)) AND c.predicate = '${MENTIONED_WITH}' AND ${tally.sql}
         ) GROUP BY id`,
      )
      .raw()
      .all(json, ...tally.params, json, ...tally.params) as Array<[number, number]>,
  );
  const shareEntry = db
    .prepare(
      `SELECT 1 FROM graph_mentions x CROSS JOIN graph_mentions y ${kept.join}
       WHERE x.entity_id = ? AND x.cooccurs = 1 AND y.entity_id = ? AND y.entry_id = x.entry_id AND y.cooccurs = 1 AND ${kept.sql} LIMIT 1`,
    )
    .pluck();
  const mentions = db.prepare('SELECT mentions FROM graph_entities WHERE id = ?').pluck();
  const result = new Map<number, number>();
  for (const [id, count] of incidences) {
    let lone = count - (stored.get(id) ?? 0);
    const own = (mentions.get(id) as number | undefined) ?? 0;
    for (const other of statedOnly.get(id) ?? []) {
      // From the less mentioned side: a few probes.
      const [a, b] = own <= ((mentions.get(other) as number | undefined) ?? 0) ? [id, other] : [other, id];
      if (shareEntry.get(a, b, ...kept.params) !== undefined) lone--;
    }
    result.set(id, Math.max(0, lone));
  }
  return result;
}

/** Whether `countLonePartners` is exact for these filters and tallies (else list the partners with `lonePartners`). */
export function countsLonePartners(filters: GraphFilters | undefined, tallies: PairTallies): boolean {
  return !tallies.countsKeptEntries && !filters?.validAt;
}
