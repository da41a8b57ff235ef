import type { GraphFilters } from '../api/contract.js';
import { FUNCTIONAL_PREDICATES } from './types.js';

/** A SQL condition and its parameters. */
export interface Condition {
  sql: string;
  params: unknown[];
}

/** Evidence rows a filter keeps (source tool, origin class, observed by `validAt`); `e` is the evidence alias. */
export function evidenceCondition(filters: GraphFilters | undefined, e = 'e'): Condition {
  const parts: string[] = [];
  const params: unknown[] = [];
  if (filters?.tools) {
    parts.push(`${e}.tool IN (SELECT value FROM json_each(?))`);
    params.push(JSON.stringify(filters.tools));
  }
  if (filters?.origins) {
    parts.push(`${e}.origin IN (SELECT value FROM json_each(?))`);
    params.push(JSON.stringify(filters.origins));
  }
  if (filters?.validAt) {
    // Day granularity: notes are dated by day.
    parts.push(`(${e}.observed IS NULL OR substr(${e}.observed, 1, 10) <= substr(?, 1, 10))`);
    params.push(filters.validAt);
  }
  return { sql: parts.length ? parts.join(' AND ') : '1', params };
}

/** Claims a filter keeps: valid at `validAt` and with at least one kept evidence row; `c` is the claim alias. */
export function claimCondition(filters: GraphFilters | undefined, c = 'c'): Condition {
  const parts: string[] = [];
  const params: unknown[] = [];
  if (filters?.validAt) {
    parts.push(`(${c}.valid_until IS NULL OR substr(${c}.valid_until, 1, 10) > substr(?, 1, 10))`);
    params.push(filters.validAt);
  }
  if (filters?.tools || filters?.origins || filters?.validAt) {
    const ev = evidenceCondition(filters, 'fe');
    parts.push(`EXISTS (SELECT 1 FROM graph_evidence fe WHERE fe.claim_id = ${c}.id AND ${ev.sql})`);
    params.push(...ev.params);
  }
  return { sql: parts.length ? parts.join(' AND ') : '1', params };
}

/** Entities a filter keeps: those with at least one kept evidence row; `n` is the entity alias. */
export function entityCondition(filters: GraphFilters | undefined, n = 'n'): Condition {
  if (!filters?.tools && !filters?.origins && !filters?.validAt) return { sql: '1', params: [] };
  const ev = evidenceCondition(filters, 'fe');
  return { sql: `EXISTS (SELECT 1 FROM graph_evidence fe WHERE fe.entity_id = ${n}.id AND ${ev.sql})`, params: ev.params };
}

export function isFunctional(predicate: string, literal: string | null): boolean {
  return literal !== null || FUNCTIONAL_PREDICATES.has(predicate);
}
