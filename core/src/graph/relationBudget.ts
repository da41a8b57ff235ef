/**
 * Which relations a slice of the graph shows: the relations the filters keep, with how
 * strongly each is supported, and a fair choice of them within an edge budget so thousands
 * of co-mentions around a few hubs do not crowd out everything else.
 */
import type Database from 'better-sqlite3';
import type { GraphFilters } from '../contract/index.js';
import { evidenceCondition, tallyCondition, validityCondition } from './graphFilters.js';
import { allLonePairs, lonePairClaimId, lonePartners, type LonePartner } from './lonePairs.js';
import type { PairTallies } from './pairTallies.js';
import { MENTIONED_WITH } from './types.js';

/** A relation claim (its object is an entity) as a query sees it. */
export interface Relation {
  id: number;
  subject: number;
  object: number;
  /** Stated ("owns", "moved_to", a link) rather than a co-mention. */
  stated: boolean;
  /** Kept entries supporting it: statements, or entries naming both entities. */
  weight: number;
}

/** Relations shown per entity shown: 2,000 entities get 8,000 relations, the figure the view is measured at. */
export const RELATIONS_PER_ENTITY = 4;

/**
 * The relation claims the filters keep (valid at `validAt`, with at least one kept entry),
 * among `among` (both ends in it) or, when null, in the whole graph; with `lonePairs`, the
 * co-mentions of one entry too, read from the mentions (lonePairs.ts) or given as the lone
 * partners of `among` already read.
 */
export function visibleRelations(
  db: Database.Database,
  among: readonly number[] | null,
  filters: GraphFilters | undefined,
  tallies: PairTallies,
  lonePairs: boolean | readonly LonePartner[] = true,
): Relation[] {
  const tally = tallyCondition(filters, 't');
  const kept = evidenceCondition(filters, 'g');
  const valid = validityCondition(filters, 'c');
  const scope = among === null ? '1' : 'c.subject_id IN chosen AND c.object_id IN chosen';
  const rows = db
    .prepare(
      `WITH chosen(id) AS (SELECT value FROM json_each(?))
       SELECT id, subject_id, object_id, stated, weight FROM (
         SELECT c.id, c.subject_id, c.object_id, c.predicate != '${MENTIONED_WITH}' AS stated,
           CASE WHEN c.predicate = '${MENTIONED_WITH}'
             THEN (SELECT sum(t.entries) FROM ${tallies.table} t WHERE t.subject_id = c.subject_id AND t.object_id = c.object_id AND ${tally.sql})
             ELSE (SELECT count(*) FROM graph_claim_evidence e JOIN graph_entries g ON g.id = e.entry_id WHERE e.claim_id = c.id AND ${kept.sql}) END AS weight
         FROM graph_claims c WHERE c.object_id IS NOT NULL AND ${scope} AND ${valid.sql}
       ) WHERE weight > 0`,
    )
    .raw()
    .all(JSON.stringify(among ?? []), ...tally.params, ...kept.params, ...valid.params) as Array<[number, number, number, number, number]>;
  const relations = rows.map(([id, subject, object, stated, weight]) => ({ id, subject, object, stated: stated === 1, weight }));
  if (lonePairs === false) return relations;
  const inScope = among === null ? null : new Set(among);
  const partners = lonePairs === true ? null : lonePairs;
  const lone = inScope === null ? allLonePairs(db, filters) : (partners ?? lonePartners(db, [...inScope], filters)).filter((p) => p.entity < p.other && inScope.has(p.entity) && inScope.has(p.other));
  for (const p of lone) relations.push({ id: lonePairClaimId(p.entity, p.other), subject: p.entity, object: p.other, stated: false, weight: p.entries });
  return relations;
}

/** Stated relations before co-mentions, then the better supported, then the older claim. */
function stronger(a: Relation, b: Relation): number {
  return Number(b.stated) - Number(a.stated) || b.weight - a.weight || a.id - b.id;
}

/**
 * Up to `budget` of `relations`, fairly: each entity's relations are ranked (`stronger`), a
 * relation counts at the better of its ranks at its two ends, and relations are taken by that
 * rank, so every entity's strongest relation comes before any entity's second. The relations
 * of `keep` (a neighbourhood's centre) are always taken. In claim id order.
 */
export function pickRelations(relations: readonly Relation[], budget: number, keep: number | null = null): Relation[] {
  if (relations.length <= budget) return [...relations].sort((a, b) => a.id - b.id);
  const byEntity = new Map<number, number[]>();
  relations.forEach((r, i) => {
    for (const end of r.subject === r.object ? [r.subject] : [r.subject, r.object]) {
      const list = byEntity.get(end);
      if (list) list.push(i);
      else byEntity.set(end, [i]);
    }
  });
  const rank = new Int32Array(relations.length).fill(relations.length);
  for (const [entity, list] of byEntity) {
    list.sort((x, y) => stronger(relations[x]!, relations[y]!));
    // The kept entity's relations go first, whatever their rank elsewhere.
    list.forEach((i, position) => (rank[i] = entity === keep ? -1 : Math.min(rank[i]!, position)));
  }
  // By rank in buckets (ranks are small: an entity's position among its relations), then by strength within the last one.
  const buckets = new Map<number, number[]>();
  relations.forEach((_, i) => {
    const bucket = buckets.get(rank[i]!);
    if (bucket) bucket.push(i);
    else buckets.set(rank[i]!, [i]);
  });
  const taken: Relation[] = [];
  for (const level of [...buckets.keys()].sort((a, b) => a - b)) {
    const bucket = buckets.get(level)!;
    const room = level < 0 ? bucket.length : budget - taken.length;
    if (room <= 0) break;
    if (bucket.length > room) bucket.sort((x, y) => stronger(relations[x]!, relations[y]!));
    for (const i of bucket.slice(0, room)) taken.push(relations[i]!);
  }
  return taken.sort((a, b) => a.id - b.id);
}
