import fs from 'node:fs';
import path from 'node:path';
import type Database from 'better-sqlite3';
import type { GraphEntity, GraphFilters, GraphSlice, OperationOutput } from '../contract/index.js';
import { ReverieError } from '../platform/errors.js';
import { STOPWORDS } from '../platform/text/stopwords.js';
import { claimCondition, entityCondition, tallyCondition } from './graphFilters.js';
import { claimRecords, degrees, entityId, entityRecords, parseRecordId, type RecordOptions } from './graphRecords.js';
import { labelKey } from './labelKey.js';
import { countLonePairs, lonePartners } from './lonePairs.js';
import { pairTallies, type PairTallies } from './pairTallies.js';
import { questionEntities } from './questionEntities.js';
import { pickRelations, RELATIONS_PER_ENTITY, visibleRelations, type Relation } from './relationBudget.js';
import { MENTIONED_WITH } from './types.js';
import { processLogger } from '../platform/log/processLog.js';

const log = processLogger('graph');

const MAX_CANDIDATES = 1000;
const MAX_QUERY_WORDS = 200;
const MAX_EXPLAIN_LINES = 500;
const MAX_LINES_PER_EVIDENCE = 40;

/**
 * Entities by text: the whole text as a label or alias first; then what a question asks for
 * through a relation word ("who owns the staging box" → the owner of the entity aliased
 * "staging box", see questionEntities.ts) and the names it spells; then labels that are a word
 * run of it ("what about Marek's move" finds Marek), then labels containing it; by degree within each.
 */
export function searchEntities(db: Database.Database, text: string, limit: number, filters?: GraphFilters): GraphEntity[] {
  const key = labelKey(text);
  if (!key) return [];
  const tallies = pairTallies(db, filters);
  const visible = entityCondition(filters);
  // Each tier by degree, except the answers (surest first) and the names (as the question spells them).
  const tiers: Array<{ ids: number[]; inOrder?: boolean }> = [];
  const question = questionEntities(db, text, filters);
  const answers = new Map(question.answers.map((a) => [a.entity, a.answer]));
  const exact = db.prepare('SELECT id FROM graph_entities WHERE key = ? UNION SELECT entity_id FROM graph_aliases WHERE key = ?').pluck();
  tiers.push({ ids: exact.all(key, key) as number[] });
  tiers.push({ ids: [...answers.keys()], inOrder: true }, { ids: question.named, inOrder: true });
  const runs = wordRuns(key);
  if (runs.length > 0) {
    tiers.push({
      ids: db
        .prepare('SELECT id FROM graph_entities WHERE key IN (SELECT value FROM json_each(?)) UNION SELECT entity_id FROM graph_aliases WHERE key IN (SELECT value FROM json_each(?))')
        .pluck()
        .all(JSON.stringify(runs), JSON.stringify(runs)) as number[],
    });
  }
  if (key.length >= 2) {
    const like = `%${key.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    tiers.push({
      ids: db
        .prepare(`SELECT id FROM graph_entities WHERE key LIKE ? ESCAPE '\\' UNION SELECT entity_id FROM graph_aliases WHERE key LIKE ? ESCAPE '\\' LIMIT ${MAX_CANDIDATES}`)
        .pluck()
        .all(like, like) as number[],
    });
  }
  const seen = new Set<number>();
  const ranked: number[] = [];
  const keep = db.prepare(`SELECT id FROM graph_entities n WHERE id IN (SELECT value FROM json_each(?)) AND ${visible.sql}`).pluck();
  for (const tier of tiers) {
    const fresh = tier.ids.filter((id) => !seen.has(id)).slice(0, MAX_CANDIDATES);
    fresh.forEach((id) => seen.add(id));
    const kept = new Set(keep.all(JSON.stringify(fresh), ...visible.params) as number[]);
    if (tier.inOrder) ranked.push(...fresh.filter((id) => kept.has(id)));
    else {
      const degree = degrees(db, JSON.stringify([...kept]), filters, tallies);
      ranked.push(...[...kept].sort((a, b) => (degree.get(b) ?? 0) - (degree.get(a) ?? 0) || a - b));
    }
    if (ranked.length >= limit) break;
  }
  return entityRecords(db, ranked.slice(0, limit), filters, { withEvidence: true, tallies }).map((entity) => {
    const answer = answers.get(parseRecordId(entity.id, 'entity')!);
    return answer ? { ...entity, answer } : entity;
  });
}

/** Runs of one to three words of a query that could be a label (stopwords alone are not). */
function wordRuns(key: string): string[] {
  const words = key.split(/[^\p{L}\p{N}._/-]+/u).filter(Boolean).slice(0, MAX_QUERY_WORDS);
  const runs = new Set<string>();
  for (let n = 1; n <= 3; n++)
    for (let i = 0; i + n <= words.length; i++) {
      const run = words.slice(i, i + n);
      if (run.every((w) => STOPWORDS.has(w))) continue;
      runs.add(run.join(' ').replace(/['’]s$/, ''));
    }
  return [...runs];
}

/** An entity by id (`entity:N`), label or alias; the best connected when several share it. */
export function resolveEntity(db: Database.Database, ref: string): number {
  const id = parseRecordId(ref, 'entity');
  if (id !== null) {
    if (db.prepare('SELECT 1 FROM graph_entities WHERE id = ?').get(id)) return id;
    throw new ReverieError('not-found', `There is no ${ref} in the graph.`);
  }
  const key = labelKey(ref);
  const ids = db.prepare('SELECT id FROM graph_entities WHERE key = ? UNION SELECT entity_id FROM graph_aliases WHERE key = ?').pluck().all(key, key) as number[];
  if (ids.length === 0) throw new ReverieError('not-found', `No entity called "${ref}" in the graph. Try \`reverie graph search\`.`);
  const degree = degrees(db, JSON.stringify(ids));
  return ids.sort((a, b) => (degree.get(b) ?? 0) - (degree.get(a) ?? 0) || a - b)[0]!;
}

/** Relation claims the filters keep, as a CTE named `vc` (id, subject_id, object_id). */
function visibleRelationsCte(filters: GraphFilters | undefined, tallies: PairTallies): { sql: string; params: unknown[] } {
  const cond = claimCondition(filters, 'c', tallies.table);
  return { sql: `vc AS (SELECT c.id, c.subject_id, c.object_id FROM graph_claims c WHERE c.object_id IS NOT NULL AND ${cond.sql})`, params: cond.params };
}

function countEntities(db: Database.Database, filters?: GraphFilters): number {
  const e = entityCondition(filters);
  return db.prepare(`SELECT count(*) FROM graph_entities n WHERE ${e.sql}`).pluck().get(...e.params) as number;
}

/** Literal claims ("Timezone: Europe/Berlin") the filters keep. */
function countLiterals(db: Database.Database, filters?: GraphFilters): number {
  const c = claimCondition(filters);
  return db.prepare(`SELECT count(*) FROM graph_claims c WHERE c.object_id IS NULL AND ${c.sql}`).pluck().get(...c.params) as number;
}

/**
 * A slice of `chosen` entities and a fair choice of the `relations` among them (see
 * relationBudget.ts); `counts` says how many entities and relations the whole graph has under
 * the filters, so the slice can say how many it left out.
 */
function slice(
  db: Database.Database,
  chosen: readonly number[],
  relations: readonly Relation[],
  counts: { entities: number; relations: number; literals: number },
  filters: GraphFilters | undefined,
  options: RecordOptions & { keep?: number },
): GraphSlice {
  const picked = pickRelations(relations, RELATIONS_PER_ENTITY * chosen.length, options.keep ?? null);
  return {
    entities: entityRecords(db, chosen, filters, options),
    edges: claimRecords(db, picked.map((r) => r.id), filters, options),
    omitted: { entities: Math.max(0, counts.entities - chosen.length), edges: Math.max(0, counts.relations - picked.length) },
    totals: { entities: counts.entities, claims: counts.relations + counts.literals },
    evidence: options.withEvidence ? 'included' : 'omitted',
  };
}

/**
 * The most connected part of the graph: entities by degree (isolated ones last) within the
 * budget, and up to RELATIONS_PER_ENTITY relations per entity among them, each entity's
 * strongest first. Without `mentionedWith`, stated relations only, and entities by the weight
 * of their stated relations (how often each was stated), so co-mentions around a weekday or a
 * hub do not decide what is shown; then by degree, then by mentions. Without evidence lines
 * (thousands of items; graph.neighbors and graph.explain give them), with exact weights and origins.
 */
export function overview(db: Database.Database, limit: number, filters?: GraphFilters, mentionedWith = true): GraphSlice {
  const tallies = pairTallies(db, filters, { exactCounts: true });
  // Lone pairs are read from all mentions: only when co-mentions are asked for.
  const everyRelation = visibleRelations(db, null, filters, tallies, mentionedWith);
  const relations = mentionedWith ? everyRelation : everyRelation.filter((r) => r.stated);
  const statedWeight = new Map<number, number>();
  if (!mentionedWith)
    for (const r of relations)
      for (const end of [r.subject, r.object]) statedWeight.set(end, (statedWeight.get(end) ?? 0) + r.weight);
  const others = new Map<number, Set<number>>();
  const link = (a: number, b: number) => {
    const set = others.get(a);
    if (set) set.add(b);
    else others.set(a, new Set([b]));
  };
  for (const r of relations) {
    link(r.subject, r.object);
    link(r.object, r.subject);
  }
  const degree = new Map([...others].map(([id, set]) => [id, set.size]));
  // Tags, links and paths point at evidence: they come after every named thing, whatever their weight.
  const pointers = new Set(db.prepare("SELECT id FROM graph_entities WHERE type IN ('tag', 'url', 'path')").pluck().all() as number[]);
  const rank = (id: number) => (pointers.has(id) ? 1 : 0);
  const chosen = [...degree.keys()]
    .sort((a, b) => rank(a) - rank(b) || (statedWeight.get(b) ?? 0) - (statedWeight.get(a) ?? 0) || degree.get(b)! - degree.get(a)! || a - b)
    .slice(0, limit);
  if (chosen.length < limit) {
    const e = entityCondition(filters);
    const isolated = db
      .prepare(`SELECT id FROM graph_entities n WHERE ${e.sql} AND id NOT IN (SELECT value FROM json_each(?)) ORDER BY ${mentionedWith ? '' : 'mentions DESC, '}id LIMIT ?`)
      .pluck()
      .all(...e.params, JSON.stringify(chosen), limit - chosen.length) as number[];
    chosen.push(...isolated);
  }
  const inSlice = new Set(chosen);
  const among = relations.filter((r) => inSlice.has(r.subject) && inSlice.has(r.object));
  const counts = { entities: countEntities(db, filters), relations: relations.length, literals: countLiterals(db, filters) };
  return slice(db, chosen, among, counts, filters, { withEvidence: false, tallies, degrees: degree });
}

/** Literal claims shown with a centre (a front matter block has a few; a generated file could have thousands). */
const MAX_FACTS = 50;

/**
 * An entity and what it connects to, breadth first up to `hops`, strongest relations first,
 * within the budget: all of the centre's relations among them, and up to RELATIONS_PER_ENTITY
 * per entity of the others; and the centre's facts (literal claims). Every item with its evidence lines.
 */
export function neighbors(db: Database.Database, ref: string, hops: number, limit: number, filters?: GraphFilters): OperationOutput<'graph.neighbors'> {
  const center = resolveEntity(db, ref);
  // Exact counts: which relations fit the budget depends on them.
  const tallies = pairTallies(db, filters, { exactCounts: true });
  const vc = visibleRelationsCte(filters, tallies);
  const tally = tallyCondition(filters, 't');
  // Past the budget, the entities most bound to the frontier come first: those it has stated
  // relations with, then those it is mentioned with most often (entries under the filters),
  // then the most mentioned overall. (Overall mentions alone let a popular name met once win.)
  // Lone pairs of the frontier (lonePairs.ts) come in as [other, entries] rows.
  const step = db.prepare(
    `WITH ${vc.sql}, frontier AS (SELECT value AS id FROM json_each(?)),
       links AS (
         SELECT object_id AS other, id FROM vc WHERE subject_id IN frontier
         UNION ALL SELECT subject_id, id FROM vc WHERE object_id IN frontier
       ),
       scored AS (
         SELECT l.other, c.predicate != '${MENTIONED_WITH}' AS stated,
           CASE WHEN c.predicate = '${MENTIONED_WITH}'
             THEN (SELECT sum(t.entries) FROM ${tallies.table} t WHERE t.subject_id = c.subject_id AND t.object_id = c.object_id AND ${tally.sql})
             ELSE 0 END AS together
         FROM links l JOIN graph_claims c ON c.id = l.id
         UNION ALL SELECT json_extract(value, '$[0]'), 0, json_extract(value, '$[1]') FROM json_each(?)
       )
     SELECT other, sum(stated) AS stated, sum(together) AS together
     FROM scored
     GROUP BY other
     ORDER BY stated DESC, together DESC, (SELECT mentions FROM graph_entities WHERE id = other) DESC, other`,
  );
  const chosen = new Set([center]);
  let frontier = [center];
  for (let hop = 0; hop < hops && frontier.length > 0 && chosen.size < limit; hop++) {
    const next: number[] = [];
    const lone = JSON.stringify(lonePartners(db, frontier, filters).map((p) => [p.other, p.entries]));
    for (const { other } of step.all(...vc.params, JSON.stringify(frontier), ...tally.params, lone) as Array<{ other: number }>) {
      if (chosen.has(other)) continue;
      if (chosen.size >= limit) break;
      chosen.add(other);
      next.push(other);
    }
    frontier = next;
  }
  const ids = [...chosen];
  // Read once for the relations among them and for their degrees.
  const partners = lonePartners(db, ids, filters);
  const relations = visibleRelations(db, ids, filters, tallies, partners);
  const relationCount = (db.prepare(`WITH ${vc.sql} SELECT count(*) FROM vc`).pluck().get(...vc.params) as number) + countLonePairs(db, filters, tallies);
  const counts = { entities: countEntities(db, filters), relations: relationCount, literals: countLiterals(db, filters) };
  const result = slice(db, ids, relations, counts, filters, { withEvidence: true, tallies, keep: center, lonePartners: partners });
  const centerRecord = result.entities.find((e) => e.id === entityId(center)) ?? entityRecords(db, [center])[0]!;
  const fc = claimCondition(filters);
  const factIds = db
    .prepare(`SELECT c.id FROM graph_claims c WHERE c.subject_id = ? AND c.object_id IS NULL AND ${fc.sql} ORDER BY c.confidence DESC, c.id LIMIT ${MAX_FACTS}`)
    .pluck()
    .all(center, ...fc.params) as number[];
  return { ...result, center: centerRecord, facts: claimRecords(db, factIds, filters, { withEvidence: true, tallies }) };
}

/** A claim with the lines its evidence points at, read from the files as they are now. */
export function explainClaim(db: Database.Database, workspaceRoot: string, ref: string): OperationOutput<'graph.explain'> {
  const id = parseRecordId(ref, 'claim');
  const claim = id === null ? undefined : claimRecords(db, [id])[0];
  if (!claim) throw new ReverieError('not-found', `There is no claim "${ref}" in the graph (claim ids look like claim:12).`);
  const labelOf = (entity: string | null) =>
    entity === null ? null : ((db.prepare('SELECT label FROM graph_entities WHERE id = ?').pluck().get(parseRecordId(entity, 'entity')) as string | undefined) ?? null);
  const lines: Array<{ path: string; line: number; text: string }> = [];
  const texts = new Map<string, string[] | null>();
  for (const ev of claim.evidence) {
    if (!texts.has(ev.path)) texts.set(ev.path, readLines(path.isAbsolute(ev.path) ? ev.path : path.join(workspaceRoot, ev.path)));
    const fileLines = texts.get(ev.path);
    if (!fileLines) continue;
    for (let n = ev.startLine; n <= Math.min(ev.endLine, ev.startLine + MAX_LINES_PER_EVIDENCE - 1) && lines.length < MAX_EXPLAIN_LINES; n++) {
      if (n <= fileLines.length) lines.push({ path: ev.path, line: n, text: fileLines[n - 1]! });
    }
  }
  return { ...claim, subjectLabel: labelOf(claim.subject) ?? claim.subject, objectLabel: labelOf(claim.object), lines };
}

function readLines(file: string): string[] | null {
  try {
    return fs.readFileSync(file, 'utf8').split(/\r?\n/);
  } catch (error) {
    // Moved or deleted since: the evidence is reported without its text.
    log.debug('An evidence file could not be read', { file, error });
    return null;
  }
}
