import fs from 'node:fs';
import path from 'node:path';
import type Database from 'better-sqlite3';
import type { GraphEntity, GraphFilters, GraphSlice, OperationOutput } from '../api/contract.js';
import { ReverieError } from '../common/errors.js';
import { STOPWORDS } from '../search/stopwords.js';
import { claimCondition, entityCondition } from './graphFilters.js';
import { claimRecords, degrees, entityRecords, parseRecordId } from './graphRecords.js';
import { labelKey } from './labelKey.js';

const MAX_CANDIDATES = 1000;
const MAX_QUERY_WORDS = 200;
const MAX_EXPLAIN_LINES = 500;
const MAX_LINES_PER_EVIDENCE = 40;

/**
 * Entities by text: the whole text as a label or alias first, then labels that are a word
 * run of it ("what about Marek's move" finds Marek), then labels containing it; by degree within each.
 */
export function searchEntities(db: Database.Database, text: string, limit: number, filters?: GraphFilters): GraphEntity[] {
  const key = labelKey(text);
  if (!key) return [];
  const visible = entityCondition(filters);
  const tiers: number[][] = [];
  const exact = db.prepare('SELECT id FROM graph_entities WHERE key = ? UNION SELECT entity_id FROM graph_aliases WHERE key = ?').pluck();
  tiers.push(exact.all(key, key) as number[]);
  const runs = wordRuns(key);
  if (runs.length > 0) {
    tiers.push(
      db
        .prepare('SELECT id FROM graph_entities WHERE key IN (SELECT value FROM json_each(?)) UNION SELECT entity_id FROM graph_aliases WHERE key IN (SELECT value FROM json_each(?))')
        .pluck()
        .all(JSON.stringify(runs), JSON.stringify(runs)) as number[],
    );
  }
  if (key.length >= 2) {
    const like = `%${key.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    tiers.push(
      db
        .prepare(`SELECT id FROM graph_entities WHERE key LIKE ? ESCAPE '\\' UNION SELECT entity_id FROM graph_aliases WHERE key LIKE ? ESCAPE '\\' LIMIT ${MAX_CANDIDATES}`)
        .pluck()
        .all(like, like) as number[],
    );
  }
  const seen = new Set<number>();
  const ranked: number[] = [];
  const keep = db.prepare(`SELECT id FROM graph_entities n WHERE id IN (SELECT value FROM json_each(?)) AND ${visible.sql}`).pluck();
  for (const tier of tiers) {
    const fresh = tier.filter((id) => !seen.has(id)).slice(0, MAX_CANDIDATES);
    fresh.forEach((id) => seen.add(id));
    const kept = new Set(keep.all(JSON.stringify(fresh), ...visible.params) as number[]);
    const degree = degrees(db, JSON.stringify([...kept]), filters);
    ranked.push(...[...kept].sort((a, b) => (degree.get(b) ?? 0) - (degree.get(a) ?? 0) || a - b));
    if (ranked.length >= limit) break;
  }
  return entityRecords(db, ranked.slice(0, limit), filters);
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
function visibleRelations(filters?: GraphFilters): { sql: string; params: unknown[] } {
  const cond = claimCondition(filters);
  return { sql: `vc AS (SELECT c.id, c.subject_id, c.object_id FROM graph_claims c WHERE c.object_id IS NOT NULL AND ${cond.sql})`, params: cond.params };
}

function totals(db: Database.Database, filters?: GraphFilters): GraphSlice['totals'] {
  const e = entityCondition(filters);
  const c = claimCondition(filters);
  return {
    entities: db.prepare(`SELECT count(*) FROM graph_entities n WHERE ${e.sql}`).pluck().get(...e.params) as number,
    claims: db.prepare(`SELECT count(*) FROM graph_claims c WHERE ${c.sql}`).pluck().get(...c.params) as number,
  };
}

/** Relation claims among the chosen entities, and how many relations touching them were left out. */
function edgesAmong(db: Database.Database, chosen: readonly number[], filters?: GraphFilters): { ids: number[]; total: number } {
  const vc = visibleRelations(filters);
  const json = JSON.stringify(chosen);
  const ids = db
    .prepare(`WITH ${vc.sql}, chosen AS (SELECT value AS id FROM json_each(?)) SELECT id FROM vc WHERE subject_id IN chosen AND object_id IN chosen ORDER BY id`)
    .pluck()
    .all(...vc.params, json) as number[];
  const total = db.prepare(`WITH ${vc.sql} SELECT count(*) FROM vc`).pluck().get(...vc.params) as number;
  return { ids, total };
}

function slice(db: Database.Database, chosen: number[], filters?: GraphFilters): GraphSlice {
  const t = totals(db, filters);
  const edges = edgesAmong(db, chosen, filters);
  return {
    entities: entityRecords(db, chosen, filters),
    edges: claimRecords(db, edges.ids, filters),
    omitted: { entities: Math.max(0, t.entities - chosen.length), edges: Math.max(0, edges.total - edges.ids.length) },
    totals: t,
  };
}

/** The most connected part of the graph: entities by degree (isolated ones last) within the budget. */
export function overview(db: Database.Database, limit: number, filters?: GraphFilters): GraphSlice {
  const vc = visibleRelations(filters);
  const connected = db
    .prepare(
      `WITH ${vc.sql}, ends AS (SELECT subject_id AS a, object_id AS b FROM vc UNION SELECT object_id, subject_id FROM vc)
       SELECT a FROM ends GROUP BY a ORDER BY count(*) DESC, a LIMIT ?`,
    )
    .pluck()
    .all(...vc.params, limit) as number[];
  const chosen = [...connected];
  if (chosen.length < limit) {
    const e = entityCondition(filters);
    const isolated = db
      .prepare(`SELECT id FROM graph_entities n WHERE ${e.sql} AND id NOT IN (SELECT value FROM json_each(?)) ORDER BY id LIMIT ?`)
      .pluck()
      .all(...e.params, JSON.stringify(chosen), limit - chosen.length) as number[];
    chosen.push(...isolated);
  }
  return slice(db, chosen, filters);
}

/** An entity and what it connects to, breadth first up to `hops`, strongest relations first, within the budget. */
export function neighbors(db: Database.Database, ref: string, hops: number, limit: number, filters?: GraphFilters): OperationOutput<'graph.neighbors'> {
  const center = resolveEntity(db, ref);
  const vc = visibleRelations(filters);
  const step = db.prepare(
    `WITH ${vc.sql}, frontier AS (SELECT value AS id FROM json_each(?))
     SELECT other, count(*) AS links FROM (
       SELECT object_id AS other, id FROM vc WHERE subject_id IN frontier
       UNION ALL SELECT subject_id, id FROM vc WHERE object_id IN frontier
     ) GROUP BY other ORDER BY (SELECT mentions FROM graph_entities WHERE id = other) DESC, links DESC, other`,
  );
  const chosen = new Set([center]);
  let frontier = [center];
  for (let hop = 0; hop < hops && frontier.length > 0 && chosen.size < limit; hop++) {
    const next: number[] = [];
    for (const { other } of step.all(...vc.params, JSON.stringify(frontier)) as Array<{ other: number }>) {
      if (chosen.has(other)) continue;
      if (chosen.size >= limit) break;
      chosen.add(other);
      next.push(other);
    }
    frontier = next;
  }
  const result = slice(db, [...chosen], filters);
  const centerRecord = entityRecords(db, [center], filters)[0] ?? entityRecords(db, [center])[0]!;
  return { ...result, center: centerRecord };
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
  } catch {
    return null; // moved or deleted since: the evidence is reported without its text
  }
}
