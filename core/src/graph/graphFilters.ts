import type { GraphFilters, OriginClass, SourceTool } from '../contract/index.js';
import { FUNCTIONAL_PREDICATES, MENTIONED_WITH } from './types.js';

/** A SQL condition and its parameters. */
export interface Condition {
  sql: string;
  params: unknown[];
}

export function hasEvidenceFilter(filters: GraphFilters | undefined): boolean {
  return Boolean(filters?.tools || filters?.origins || filters?.validAt);
}

/** Entries a filter keeps (source tool, origin class, observed by `validAt`); `g` is the graph_entries alias. */
export function evidenceCondition(filters: GraphFilters | undefined, g = 'g'): Condition {
  const parts: string[] = [];
  const params: unknown[] = [];
  if (filters?.tools) {
    parts.push(`${g}.tool IN (SELECT value FROM json_each(?))`);
    params.push(JSON.stringify(filters.tools));
  }
  if (filters?.origins) {
    parts.push(`${g}.origin IN (SELECT value FROM json_each(?))`);
    params.push(JSON.stringify(filters.origins));
  }
  if (filters?.validAt) {
    // Day granularity: notes are dated by day.
    parts.push(`(${g}.observed IS NULL OR substr(${g}.observed, 1, 10) <= substr(?, 1, 10))`);
    params.push(filters.validAt);
  }
  return { sql: parts.length ? parts.join(' AND ') : '1', params };
}

/** `evidenceCondition` in JS, for entries read without it (the shared entries of a pair). */
export function keepsEntry(filters: GraphFilters | undefined): (entry: { tool: SourceTool; origin: OriginClass; observed: string | null }) => boolean {
  const tools = filters?.tools ? new Set<string>(filters.tools) : null;
  const origins = filters?.origins ? new Set<string>(filters.origins) : null;
  const day = filters?.validAt?.slice(0, 10) ?? null;
  return (e) => (!tools || tools.has(e.tool)) && (!origins || origins.has(e.origin)) && (day === null || e.observed === null || e.observed.slice(0, 10) <= day);
}

/**
 * Tallies of a mentioned_with claim a filter keeps: a tally holds entries of one tool and
 * origin class; one of them is old enough when it has an undated entry or its earliest date
 * is (the same test as `evidenceCondition`, since dates compare by prefix). `t` is the alias.
 */
export function tallyCondition(filters: GraphFilters | undefined, t: string): Condition {
  const parts: string[] = [];
  const params: unknown[] = [];
  if (filters?.tools) {
    parts.push(`${t}.tool IN (SELECT value FROM json_each(?))`);
    params.push(JSON.stringify(filters.tools));
  }
  if (filters?.origins) {
    parts.push(`${t}.origin IN (SELECT value FROM json_each(?))`);
    params.push(JSON.stringify(filters.origins));
  }
  if (filters?.validAt) {
    parts.push(`(${t}.undated > 0 OR substr(${t}.first_observed, 1, 10) <= substr(?, 1, 10))`);
    params.push(filters.validAt);
  }
  return { sql: parts.length ? parts.join(' AND ') : '1', params };
}

/** Claims not yet superseded at `validAt` (day granularity); `c` is the claim alias. */
export function validityCondition(filters: GraphFilters | undefined, c = 'c'): Condition {
  if (!filters?.validAt) return { sql: '1', params: [] };
  return { sql: `(${c}.valid_until IS NULL OR substr(${c}.valid_until, 1, 10) > substr(?, 1, 10))`, params: [filters.validAt] };
}

/**
 * Claims a filter keeps: valid at `validAt` and with at least one kept entry as evidence (a
 * relation's statements; a pair's shared entries, through its tallies in `tallyTable`, see
 * pairTallies.ts); `c` is the claim alias.
 */
export function claimCondition(filters: GraphFilters | undefined, c = 'c', tallyTable = 'graph_cooccurrence'): Condition {
  const valid = validityCondition(filters, c);
  const parts: string[] = [valid.sql];
  const params: unknown[] = [...valid.params];
  if (hasEvidenceFilter(filters)) {
    const tally = tallyCondition(filters, 'ft');
    const ev = evidenceCondition(filters, 'fg');
    parts.push(
      `CASE WHEN ${c}.predicate = '${MENTIONED_WITH}' THEN EXISTS (SELECT 1 FROM ${tallyTable} ft WHERE ft.subject_id = ${c}.subject_id AND ft.object_id = ${c}.object_id AND ${tally.sql})
       ELSE EXISTS (SELECT 1 FROM graph_claim_evidence fe JOIN graph_entries fg ON fg.id = fe.entry_id WHERE fe.claim_id = ${c}.id AND ${ev.sql}) END`,
    );
    params.push(...tally.params, ...ev.params);
  }
  return { sql: parts.join(' AND '), params };
}

/** Entities a filter keeps: those mentioned in at least one kept entry; `n` is the entity alias. */
export function entityCondition(filters: GraphFilters | undefined, n = 'n'): Condition {
  if (!hasEvidenceFilter(filters)) return { sql: '1', params: [] };
  const ev = evidenceCondition(filters, 'fg');
  return { sql: `EXISTS (SELECT 1 FROM graph_mentions fm JOIN graph_entries fg ON fg.id = fm.entry_id WHERE fm.entity_id = ${n}.id AND ${ev.sql})`, params: ev.params };
}

export function isFunctional(predicate: string, literal: string | null): boolean {
  return literal !== null || FUNCTIONAL_PREDICATES.has(predicate);
}
