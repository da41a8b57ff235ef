import type { SearchResult } from '../../../../core/src/contract/index.js';
import { formatScore } from '../format.js';

export type MatchKind = 'keyword' | 'vector' | 'both' | 'date' | 'path';

export interface MatchBadge {
  kind: MatchKind;
  label: string;
  title: string;
}

const BADGES: Record<MatchKind, Omit<MatchBadge, 'kind'>> = {
  keyword: { label: 'keyword', title: 'Matched the words of the query (BM25)' },
  vector: { label: 'vector', title: 'Matched by meaning (embedding similarity)' },
  both: { label: 'keyword + vector', title: 'Matched both the words (BM25) and the meaning (embedding similarity)' },
  date: { label: 'date', title: 'The date in the query matches the date in the file name' },
  path: { label: 'path', title: 'The query matches the file name or folder' },
};

/** How a result matched, as badges: keyword, vector or both, then date and path. */
export function matchBadges(matchedBy: SearchResult['matchedBy']): MatchBadge[] {
  const kinds: MatchKind[] = [];
  const keyword = matchedBy.includes('keyword');
  const vector = matchedBy.includes('vector');
  if (keyword && vector) kinds.push('both');
  else if (keyword) kinds.push('keyword');
  else if (vector) kinds.push('vector');
  if (matchedBy.includes('date')) kinds.push('date');
  if (matchedBy.includes('path')) kinds.push('path');
  return kinds.map((kind) => ({ kind, ...BADGES[kind] }));
}

export interface BreakdownRow {
  /** Stable key, also used as `data-row` in the table. */
  key: 'keyword' | 'vector' | 'fusion' | 'passage' | 'date' | 'decay' | 'importance' | 'trigger' | 'mmr' | 'score';
  label: string;
  value: string;
  note: string;
  /** True when the factor changed nothing (a multiplier of 1, a penalty of 0): shown quieter. */
  isNeutral: boolean;
}

const FUSION_NOTES: Record<'weighted' | 'rrf', { label: string; note: string }> = {
  weighted: { label: 'weighted', note: 'weighted sum of keyword and vector' },
  rrf: { label: 'RRF', note: 'reciprocal-rank fusion of both lists' },
};

function multiplier(value: number): string {
  return `× ${value.toFixed(2)}`;
}

/**
 * The rows of the "Why?" table: each score component with a short explanation. Null when the
 * engine sent no breakdown (an older engine, or a result found only by path or date).
 */
export function breakdownRows(result: Pick<SearchResult, 'score' | 'breakdown'>): BreakdownRow[] | null {
  const b = result.breakdown;
  if (!b) return null;
  const fusion = FUSION_NOTES[b.fusion];
  return [
    { key: 'keyword', label: 'Keyword', value: formatScore(b.keyword), note: 'BM25, normalised 0–1 among the candidates', isNeutral: b.keyword === 0 },
    { key: 'vector', label: 'Vector', value: formatScore(b.vector), note: 'cosine similarity of query and passage', isNeutral: b.vector === 0 },
    { key: 'fusion', label: `Fused (${fusion.label})`, value: formatScore(b.fused), note: fusion.note, isNeutral: false },
    ...(b.passage === undefined
      ? []
      : [{ key: 'passage' as const, label: 'Passage focus', value: formatScore(b.passage), note: 'share of the query the cited lines cover', isNeutral: false }]),
    ...(b.date === undefined
      ? []
      : [{ key: 'date' as const, label: 'Date', value: b.date === 0 ? '0' : `+ ${formatScore(b.date)}`, note: b.date === 0 ? 'no date in the query fits this note' : "the note's date fits a date in the query", isNeutral: b.date === 0 }]),
    { key: 'decay', label: 'Decay', value: multiplier(b.decay), note: b.decay === 1 ? 'undated or recent: no decay' : 'older dated note', isNeutral: b.decay === 1 },
    {
      key: 'importance',
      label: 'Importance',
      value: multiplier(b.importance),
      note: b.importance === 1 ? 'no importance marker' : 'from <!-- importance: N -->',
      isNeutral: b.importance === 1,
    },
    {
      key: 'trigger',
      label: 'Trigger',
      value: multiplier(b.trigger),
      note: b.trigger === 1 ? 'no trigger phrase in the query' : 'the query contains a trigger phrase',
      isNeutral: b.trigger === 1,
    },
    {
      key: 'mmr',
      label: 'MMR penalty',
      value: b.mmr === 0 ? '0' : `− ${formatScore(b.mmr)}`,
      note: b.mmr === 0 ? 'not similar to a higher result' : 'similar to a higher result (diversity)',
      isNeutral: b.mmr === 0,
    },
    { key: 'score', label: 'Final score', value: formatScore(result.score), note: 'fused, focused on the cited lines, times the multipliers', isNeutral: false },
  ];
}
