import type Database from 'better-sqlite3';
import type { EntityType, GraphClaim, GraphEntity, GraphEvidence, GraphFilters, OriginClass, SourceTool } from '../contract/index.js';
import { leastTrusted } from '../contract/index.js';
import { COOCCURRENCE_CONFIDENCE, sharedEvidence } from './cooccurrence.js';
import { claimCondition, evidenceCondition, keepsEntry, tallyCondition } from './graphFilters.js';
import { countLonePartners, countsLonePartners, fitsLonePairId, lonePairClaimId, lonePairEnds, lonePartners, type LonePartner } from './lonePairs.js';
import { STORED_TALLIES, type PairTallies } from './pairTallies.js';
import { MENTIONED_WITH } from './types.js';

/** The schema caps evidence per item. */
export const MAX_EVIDENCE_PER_ITEM = 50;

export const entityId = (n: number): string => `entity:${n}`;

/** `claim:N` for a stored claim; `claim:A-B` for a lone pair (entities A and B named together once, see lonePairs.ts). */
export function claimId(n: number): string {
  const lone = lonePairEnds(n);
  return lone ? `claim:${lone[0]}-${lone[1]}` : `claim:${n}`;
}

/** The number in `entity:N` / `claim:N` (a lone pair's `claim:A-B` as its packed id), or null when the string is not such an id. */
export function parseRecordId(id: string, kind: 'entity' | 'claim'): number | null {
  const m = new RegExp(`^${kind}:(\\d{1,15})$`).exec(id.trim());
  if (m) return Number(m[1]);
  const pair = kind === 'claim' ? /^claim:(\d{1,15})-(\d{1,15})$/.exec(id.trim()) : null;
  if (!pair) return null;
  const [a, b] = [Number(pair[1]), Number(pair[2])];
  return fitsLonePairId(a, b) ? lonePairClaimId(a, b) : null;
}

interface ClaimRow {
  id: number;
  subject_id: number;
  predicate: string;
  object_id: number | null;
  literal: string | null;
  confidence: number;
  valid_from: string | null;
  valid_until: string | null;
}

interface EvidenceRow {
  owner: number;
  path: string;
  start_line: number;
  end_line: number;
  chunk_id: number | null;
  dream_run: string | null;
  origin: OriginClass;
  by_model: 0 | 1;
}

/** How records are built: with their evidence lines or without (counts and origins still come from all kept evidence). */
export interface RecordOptions {
  withEvidence: boolean;
  /** Where mentioned_with tallies are read (see pairTallies.ts). */
  tallies: PairTallies;
  /** Degrees already counted by the caller (over the same filters), by entity id. */
  degrees?: ReadonlyMap<number, number>;
  /** The lone partners of the records' entities already read by the caller (over the same filters). */
  lonePartners?: readonly LonePartner[];
}

const WITH_EVIDENCE: RecordOptions = { withEvidence: true, tallies: STORED_TALLIES };

/** Entity records (aliases, degree, sources, least trusted origin, evidence lines when asked) in the order of `ids`. */
export function entityRecords(db: Database.Database, ids: readonly number[], filters?: GraphFilters, options: RecordOptions = WITH_EVIDENCE): GraphEntity[] {
  if (ids.length === 0) return [];
  const json = JSON.stringify(ids);
  const rows = db.prepare('SELECT id, type, label, key FROM graph_entities WHERE id IN (SELECT value FROM json_each(?))').all(json) as Array<{ id: number; type: EntityType; label: string; key: string }>;
  const aliases = groupBy(db.prepare('SELECT entity_id AS owner, alias, key FROM graph_aliases WHERE entity_id IN (SELECT value FROM json_each(?)) ORDER BY alias').all(json) as Array<{ owner: number; alias: string; key: string }>);
  const evidence = options.withEvidence ? evidenceOf(db, 'mentions', json, filters) : new Map<number, GraphEvidence[]>();
  const summary = summaries(db, 'mentions', json, filters);
  const degree = options.degrees ?? degrees(db, json, filters, options.tallies, options.lonePartners);
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((id) => {
    const row = byId.get(id);
    if (!row) return [];
    const s = summary.get(id);
    return [
      {
        id: entityId(id),
        type: row.type,
        label: row.label,
        aliases: [...new Set((aliases.get(id) ?? []).filter((a) => a.key !== row.key).map((a) => a.alias))],
        degree: degree.get(id) ?? 0,
        sources: s?.tools ?? [],
        origin: s?.origin ?? 'owner',
        evidence: evidence.get(id) ?? [],
      },
    ];
  });
}

/**
 * Claim records (weight and origin over the kept evidence, its lines when asked) in the order
 * of `ids`. A mentioned_with claim's evidence is the entries naming both its entities; without
 * lines, its weight and origin come from its tallies.
 */
export function claimRecords(db: Database.Database, ids: readonly number[], filters?: GraphFilters, options: RecordOptions = WITH_EVIDENCE): GraphClaim[] {
  if (ids.length === 0) return [];
  const json = JSON.stringify(ids);
  const rows = db
    .prepare('SELECT id, subject_id, predicate, object_id, literal, confidence, valid_from, valid_until FROM graph_claims WHERE id IN (SELECT value FROM json_each(?))')
    .all(json) as ClaimRow[];
  const pairs = rows.filter((r) => r.predicate === MENTIONED_WITH && r.object_id !== null).map((r) => ({ id: r.id, a: r.subject_id, b: r.object_id! }));
  const stated = JSON.stringify(rows.filter((r) => r.predicate !== MENTIONED_WITH).map((r) => r.id));
  const evidence = options.withEvidence ? evidenceOf(db, 'statements', stated, filters) : new Map<number, GraphEvidence[]>();
  const summary = summaries(db, 'statements', stated, filters);
  if (options.withEvidence) {
    for (const [id, shared] of pairEvidence(db, pairs, filters)) {
      evidence.set(id, shared.evidence);
      summary.set(id, shared.summary);
    }
  } else for (const [id, tallied] of pairSummaries(db, pairs, filters, options.tallies)) summary.set(id, tallied);
  // Lone pairs have no row and no tallies: their record comes from their shared entries, when some are kept.
  const lone = ids.flatMap((id) => {
    const ends = lonePairEnds(id);
    return ends ? [{ id, a: ends[0], b: ends[1] }] : [];
  });
  for (const [id, shared] of pairEvidence(db, lone, filters)) {
    const [a, b] = lonePairEnds(id)!;
    rows.push({ id, subject_id: a, predicate: MENTIONED_WITH, object_id: b, literal: null, confidence: COOCCURRENCE_CONFIDENCE, valid_from: shared.earliest, valid_until: null });
    if (options.withEvidence) evidence.set(id, shared.evidence);
    summary.set(id, shared.summary);
  }
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((id) => {
    const row = byId.get(id);
    if (!row) return [];
    const s = summary.get(id);
    return [
      {
        id: claimId(id),
        subject: entityId(row.subject_id),
        predicate: row.predicate,
        object: row.object_id === null ? null : entityId(row.object_id),
        literal: row.literal,
        confidence: row.confidence,
        origin: s?.origin ?? 'owner',
        validFrom: row.valid_from,
        validUntil: row.valid_until,
        weight: s?.count ?? 0,
        evidence: evidence.get(id) ?? [],
      },
    ];
  });
}

/** Where an item's evidence entries are listed: an entity's mentions, or a claim's statements. */
type EvidenceTable = 'mentions' | 'statements';
const EVIDENCE_FROM: Record<EvidenceTable, string> = {
  mentions: 'graph_mentions x JOIN graph_entries g ON g.id = x.entry_id WHERE x.entity_id',
  statements: 'graph_claim_evidence x JOIN graph_entries g ON g.id = x.entry_id WHERE x.claim_id',
};
const OWNER: Record<EvidenceTable, string> = { mentions: 'x.entity_id', statements: 'x.claim_id' };
/** Whether the item's evidence in entry `g` is the model's (a statement made twice in one entry counts as the rules' if either is). */
const BY_MODEL: Record<EvidenceTable, string> = {
  mentions: '(SELECT y.by_model FROM graph_mentions y WHERE y.entity_id = o.value AND y.entry_id = g.id)',
  statements: '(SELECT min(y.by_model) FROM graph_claim_evidence y WHERE y.entry_id = g.id AND y.claim_id = o.value)',
};

interface Summary {
  tools: SourceTool[];
  origin: OriginClass;
  count: number;
}

function evidenceOf(db: Database.Database, table: EvidenceTable, json: string, filters?: GraphFilters): Map<number, GraphEvidence[]> {
  const cond = evidenceCondition(filters);
  // Per item, its first entries in a LIMIT subquery: a hub's thousands of entries are sorted by key, not all read out.
  const rows = db
    .prepare(
      `SELECT o.value AS owner, p.path, g.start_line, g.end_line, g.chunk_id, g.dream_run, g.origin, ${BY_MODEL[table]} AS by_model
       FROM json_each(?) o JOIN graph_entries g ON g.id IN (
         SELECT x.entry_id FROM ${EVIDENCE_FROM[table]} = o.value AND ${cond.sql} ORDER BY (SELECT path FROM graph_paths WHERE id = g.path_id), g.start_line LIMIT ${MAX_EVIDENCE_PER_ITEM}
       ) JOIN graph_paths p ON p.id = g.path_id ORDER BY o.key, p.path, g.start_line`,
    )
    .all(json, ...cond.params) as EvidenceRow[];
  const result = new Map<number, GraphEvidence[]>();
  for (const r of rows) {
    const list = result.get(r.owner) ?? [];
    list.push(evidenceRecord(r, r.by_model === 1));
    result.set(r.owner, list);
  }
  return result;
}

function evidenceRecord(r: Omit<EvidenceRow, 'owner' | 'by_model'>, byModel: boolean): GraphEvidence {
  return { path: r.path, startLine: r.start_line, endLine: r.end_line, chunkId: r.chunk_id === null ? null : `chunk:${r.chunk_id}`, dreamRun: r.dream_run, origin: r.origin, byModel };
}

function summaries(db: Database.Database, table: EvidenceTable, json: string, filters?: GraphFilters): Map<number, Summary> {
  const cond = evidenceCondition(filters);
  const rows = db
    .prepare(
      `SELECT ${OWNER[table]} AS owner, group_concat(DISTINCT g.tool) AS tools, group_concat(DISTINCT g.origin) AS origins, count(*) AS n
       FROM ${EVIDENCE_FROM[table]} IN (SELECT value FROM json_each(?)) AND ${cond.sql} GROUP BY ${OWNER[table]}`,
    )
    .all(json, ...cond.params) as Array<{ owner: number; tools: string; origins: string; n: number }>;
  return new Map(rows.map((r) => [r.owner, { tools: r.tools.split(',').sort() as SourceTool[], origin: leastTrusted(r.origins.split(',') as OriginClass[]), count: r.n }]));
}

/**
 * The evidence of mentioned_with claims: the entries naming both entities, kept by the
 * filters, as `evidenceOf` and `summaries` give it for stated claims.
 */
function pairEvidence(db: Database.Database, pairs: ReadonlyArray<{ id: number; a: number; b: number }>, filters?: GraphFilters): Map<number, { evidence: GraphEvidence[]; summary: Summary; earliest: string | null }> {
  const result = new Map<number, { evidence: GraphEvidence[]; summary: Summary; earliest: string | null }>();
  const shared = sharedEvidence(
    db,
    pairs.map((p) => [p.a, p.b] as const),
    keepsEntry(filters),
    MAX_EVIDENCE_PER_ITEM,
  );
  const byModel = modelMentions(db, shared.flatMap((s) => s.first.map((entry) => entry.id)));
  pairs.forEach((p, i) => {
    const kept = shared[i]!;
    if (kept.count === 0) return;
    // A pair is the model's in an entry where the model alone named either entity.
    const evidence = kept.first.map((entry) => evidenceRecord(entry, byModel.has(`${p.a}:${entry.id}`) || byModel.has(`${p.b}:${entry.id}`)));
    result.set(p.id, { evidence, summary: { tools: [...kept.tools].sort(), origin: leastTrusted(kept.origins), count: kept.count }, earliest: kept.earliest });
  });
  return result;
}

/** `entity:entry` of the mentions in these entries that only the chat model made. */
function modelMentions(db: Database.Database, entryIds: readonly number[]): Set<string> {
  if (entryIds.length === 0) return new Set();
  const rows = db
    .prepare('SELECT entity_id, entry_id FROM graph_mentions WHERE entry_id IN (SELECT value FROM json_each(?)) AND by_model = 1')
    .raw()
    .all(JSON.stringify([...new Set(entryIds)])) as Array<[number, number]>;
  return new Set(rows.map(([entity, entry]) => `${entity}:${entry}`));
}

/**
 * Weight and origin of mentioned_with claims from their tallies the filters keep: exact for
 * tool and origin filters; for `validAt` only when the tallies count kept entries (pairTallies.ts).
 */
function pairSummaries(db: Database.Database, pairs: ReadonlyArray<{ id: number; a: number; b: number }>, filters: GraphFilters | undefined, tallies: PairTallies): Map<number, Summary> {
  if (pairs.length === 0) return new Map();
  const kept = tallyCondition(filters, 't');
  const rows = db
    .prepare(
      `SELECT p.key AS i, group_concat(DISTINCT t.tool) AS tools, group_concat(DISTINCT t.origin) AS origins, sum(t.entries) AS n
       FROM json_each(?) p JOIN ${tallies.table} t ON t.subject_id = json_extract(p.value, '$[0]') AND t.object_id = json_extract(p.value, '$[1]')
       WHERE ${kept.sql} GROUP BY p.key`,
    )
    .all(JSON.stringify(pairs.map((p) => [p.a, p.b])), ...kept.params) as Array<{ i: number; tools: string; origins: string; n: number }>;
  return new Map(rows.map((r) => [pairs[r.i]!.id, { tools: r.tools.split(',').sort() as SourceTool[], origin: leastTrusted(r.origins.split(',') as OriginClass[]), count: r.n }]));
}

/** Distinct related entities of each id, over the claims the filters keep and the lone pairs of kept entries. */
export function degrees(db: Database.Database, json: string, filters?: GraphFilters, tallies: PairTallies = STORED_TALLIES, partners?: readonly LonePartner[]): Map<number, number> {
  const cond = claimCondition(filters, 'c', tallies.table);
  if (!partners && countsLonePartners(filters, tallies)) {
    // Lone partners counted, not listed (a hub has thousands): claims give the rest, and the
    // stated partners without a stored pair may be lone partners too (counted once).
    const related = claimDegrees(db, json, cond);
    const statedOnly = new Map<number, number[]>();
    const stated = db
      .prepare(
        `SELECT c.subject_id AS id, c.object_id AS other FROM graph_claims c
         WHERE c.object_id IS NOT NULL AND c.predicate != '${MENTIONED_WITH}' AND c.subject_id IN (SELECT value FROM json_each(?)) AND ${cond.sql}
         UNION
         SELECT c.object_id, c.subject_id FROM graph_claims c WHERE c.predicate != '${MENTIONED_WITH}' AND c.object_id IN (SELECT value FROM json_each(?)) AND ${cond.sql}`,
      )
      .raw()
      .all(json, ...cond.params, json, ...cond.params) as Array<[number, number]>;
    const storedPair = db.prepare(`SELECT 1 FROM graph_claims WHERE subject_id = ? AND predicate = '${MENTIONED_WITH}' AND ifnull(object_id, 0) = ? AND ifnull(literal_key, '') = ''`).pluck();
    for (const [id, other] of stated) {
      if (storedPair.get(Math.min(id, other), Math.max(id, other)) !== undefined) continue;
      const list = statedOnly.get(id);
      if (list) list.push(other);
      else statedOnly.set(id, [other]);
    }
    for (const [id, lone] of countLonePartners(db, JSON.parse(json) as number[], filters, statedOnly)) if (lone > 0) related.set(id, (related.get(id) ?? 0) + lone);
    return related;
  }
  const lone = JSON.stringify((partners ?? lonePartners(db, JSON.parse(json) as number[], filters)).map((p) => [p.entity, p.other]));
  return claimDegrees(db, json, cond, lone);
}

/** Distinct entities related to each id by the claims `cond` keeps, and by the [id, other] pairs of `extra` (JSON). */
function claimDegrees(db: Database.Database, json: string, cond: { sql: string; params: unknown[] }, extra = '[]'): Map<number, number> {
  const rows = db
    .prepare(
      `SELECT id, count(DISTINCT other) AS degree FROM (
         SELECT c.subject_id AS id, c.object_id AS other FROM graph_claims c WHERE c.object_id IS NOT NULL AND c.subject_id IN (SELECT value FROM json_each(?)) AND ${cond.sql}
         UNION ALL
         SELECT c.object_id, c.subject_id FROM graph_claims c WHERE c.object_id IN (SELECT value FROM json_each(?)) AND ${cond.sql}
         UNION ALL
         SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]') FROM json_each(?)
       ) GROUP BY id`,
    )
    .all(json, ...cond.params, json, ...cond.params, extra) as Array<{ id: number; degree: number }>;
  return new Map(rows.map((r) => [r.id, r.degree]));
}

function groupBy<T extends { owner: number }>(rows: T[]): Map<number, T[]> {
  const result = new Map<number, T[]>();
  for (const r of rows) {
    const list = result.get(r.owner) ?? [];
    list.push(r);
    result.set(r.owner, list);
  }
  return result;
}
