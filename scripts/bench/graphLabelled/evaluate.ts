/**
 * Scores a built graph against labels: which extracted entities are real things (and of the
 * right type), which typed relations are true, and whether superseded ones were closed on the
 * right day. Reads the graph tables directly; the labels never see the extractor.
 */
import type BetterSqlite3 from 'better-sqlite3';
import { labelKey } from '../../../core/src/graph/labelKey.js';
import type { GoldEntity, GoldRelation } from './generate.js';

export interface GraphScores {
  /** Share of the top 40 entities (as the overview ranks them) that are distinct real things. */
  top40_precision: number;
  top40_size: number;
  top40_wrong: string[];
  entity_recall: number;
  type_accuracy: number;
  wrong_types: string[];
  relation_precision: number;
  relation_recall: number;
  relations_extracted: number;
  wrong_relations: string[];
  missed_relations: string[];
  /** Superseded relations whose valid_until is the day the change was written. */
  validity_accuracy: number;
  superseded: number;
  /** Relations still true that the graph also holds as valid now. */
  current_validity_accuracy: number;
  /** Entities anywhere in the graph that are dates, weekdays, months, times, zones, units or bare headings. */
  furniture_entities: string[];
}

/** Predicates that say the same thing (a gold predicate is matched by any of its family). */
const FAMILY: Record<string, readonly string[]> = {
  runs_on: ['runs_on', 'hosted_on', 'moved_to'],
  located_in: ['located_in', 'lives_in', 'moved_to', 'based_in'],
  member_of: ['member_of', 'works_at'],
};

// Month names whole or abbreviated: "(?:jan|…|dec)[a-z]*" also took "decision", "marathon", "novel".
const FURNITURE =
  /^(?:(?:mon|tue|wed|thu|fri|sat|sun)(?:day|sday|nesday|rsday|urday)?s?|(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)|q[1-4]|utc|cet|cest|pst|pdt|est|gmt|\d.*|.*\b(?:ms|gb|mb|minutes?|requests\/minute)\b.*)$/i;
const DAY_HEADING = /^(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*\b/i;

interface StoredEntity {
  id: number;
  type: string;
  label: string;
  mentions: number;
  names: string[];
}

export function scoreGraph(
  db: BetterSqlite3.Database,
  top: readonly number[],
  gold: { entities: GoldEntity[]; relations: GoldRelation[]; headings: string[]; /** Only these gold predicates were labelled: other claims are not scored. */ predicates?: readonly string[] },
): GraphScores {
  const goldByName = new Map<string, GoldEntity>();
  for (const g of gold.entities) for (const n of g.names) goldByName.set(labelKey(n), g);
  const aliases = db.prepare('SELECT entity_id, alias FROM graph_aliases').raw().all() as Array<[number, string]>;
  const stored = new Map<number, StoredEntity>();
  for (const e of db.prepare('SELECT id, type, label, mentions FROM graph_entities').all() as StoredEntity[]) stored.set(e.id, { ...e, names: [e.label] });
  for (const [id, alias] of aliases) stored.get(id)?.names.push(alias);
  /** The real thing an entity is, by its label first, then its aliases. */
  const goldOf = (e: StoredEntity | undefined): GoldEntity | null => {
    if (!e) return null;
    for (const n of e.names) {
      const g = goldByName.get(labelKey(n.replace(/^@/, '@')));
      if (g) return g;
    }
    return null;
  };

  const seen = new Set<GoldEntity>();
  const topWrong: string[] = [];
  let topRight = 0;
  for (const id of top.slice(0, 40)) {
    const e = stored.get(id)!;
    const g = goldOf(e);
    if (g && !seen.has(g)) {
      seen.add(g);
      topRight++;
    } else topWrong.push(`${e.label} (${e.type}${g ? `, a second ${g.label}` : ''})`);
  }

  // Each real thing's best extracted entity: the most mentioned one that names it.
  const best = new Map<GoldEntity, StoredEntity>();
  for (const e of stored.values()) {
    const g = goldOf(e);
    if (g && (!best.has(g) || best.get(g)!.mentions < e.mentions)) best.set(g, e);
  }
  const wrongTypes: string[] = [];
  for (const [g, e] of best) if (e.type !== g.type) wrongTypes.push(`${g.label}: ${e.type}, is ${g.type}`);

  const claims = db
    .prepare("SELECT subject_id AS s, predicate AS p, object_id AS o, valid_until AS until FROM graph_claims WHERE object_id IS NOT NULL AND predicate != 'mentioned_with'")
    .all()
    .filter((c) => {
      if (!gold.predicates) return true;
      const p = (c as { p: string }).p;
      return gold.predicates.some((g) => (FAMILY[g] ?? [g]).includes(p));
    }) as Array<{ s: number; p: string; o: number; until: string | null }>;
  const goldKey = (s: string, p: string, o: string) => `${s}|${p}|${o}`;
  const goldRel = new Map<string, GoldRelation>();
  for (const r of gold.relations) goldRel.set(goldKey(r.subject, r.predicate, r.object), r);
  const found = new Map<GoldRelation, { until: string | null }>();
  const wrongRelations: string[] = [];
  for (const c of claims) {
    const s = goldOf(stored.get(c.s));
    const o = goldOf(stored.get(c.o));
    let match: GoldRelation | undefined;
    if (s && o)
      for (const [goldPredicate, family] of Object.entries(FAMILY).concat([[c.p, [c.p]]])) {
        if (!family.includes(c.p)) continue;
        match = goldRel.get(goldKey(s.label, goldPredicate, o.label));
        if (match) break;
      }
    if (match) {
      // Two claims for one relation (runs_on and moved_to): the one still open speaks for it.
      const prior = found.get(match);
      if (!prior || (prior.until !== null && c.until === null) || (match.until !== null && c.until === match.until)) found.set(match, { until: c.until });
    } else wrongRelations.push(`${stored.get(c.s)?.label} ${c.p} ${stored.get(c.o)?.label}`);
  }
  const missed = gold.relations.filter((r) => !found.has(r)).map((r) => `${r.subject} ${r.predicate} ${r.object}`);
  const superseded = gold.relations.filter((r) => r.until !== null && found.has(r));
  const current = gold.relations.filter((r) => r.until === null && found.has(r));
  const goldKeys = new Set(gold.entities.flatMap((g) => g.names.map(labelKey)));
  const headingKeys = new Set(gold.headings.map(labelKey));
  const furniture = [...stored.values()]
    .filter((e) => !goldKeys.has(labelKey(e.label)) && (FURNITURE.test(e.label) || DAY_HEADING.test(e.label) || headingKeys.has(labelKey(e.label))))
    .map((e) => e.label);

  const pct = (n: number, d: number) => (d === 0 ? 1 : n / d);
  return {
    top40_precision: pct(topRight, Math.min(40, top.length)),
    top40_size: Math.min(40, top.length),
    top40_wrong: topWrong,
    entity_recall: pct(best.size, gold.entities.length),
    type_accuracy: pct(best.size - wrongTypes.length, best.size),
    wrong_types: wrongTypes,
    relation_precision: pct(claims.length - wrongRelations.length, claims.length),
    relation_recall: pct(found.size, gold.relations.length),
    relations_extracted: claims.length,
    wrong_relations: wrongRelations,
    missed_relations: missed,
    validity_accuracy: pct(superseded.filter((r) => found.get(r)!.until === r.until).length, superseded.length),
    superseded: superseded.length,
    current_validity_accuracy: pct(current.filter((r) => found.get(r)!.until === null).length, current.length),
    furniture_entities: furniture,
  };
}
