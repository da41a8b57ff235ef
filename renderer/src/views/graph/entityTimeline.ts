/**
 * What the entity page lists, from a `graph.neighbors` answer: stated relations in the order
 * they began (a relation that ended says until when), co-mentions apart, strongest first.
 * Pure (no DOM): the page renders it, a unit test checks it.
 */
import { MENTIONED_WITH, type GraphClaim, type GraphEntity } from '../../../../core/src/contract/index.js';

export interface TimelineRow {
  claim: GraphClaim;
  /** The centre's side of the relation. */
  direction: 'outgoing' | 'incoming';
  other: GraphEntity | null;
  /** "2026-10-01 – 2026-10-20", "since 2026-10-20", or null when undated. */
  period: string | null;
  isCurrent: boolean;
}

export function periodOf(claim: Pick<GraphClaim, 'validFrom' | 'validUntil'>): string | null {
  if (claim.validUntil) return `${claim.validFrom?.slice(0, 10) ?? '?'} – ${claim.validUntil.slice(0, 10)}`;
  return claim.validFrom ? `since ${claim.validFrom.slice(0, 10)}` : null;
}

/** Stated relations of `centerId`, oldest first (undated last), and its co-mentions by weight. */
export function entityTimeline(centerId: string, edges: readonly GraphClaim[], entities: ReadonlyMap<string, GraphEntity>): { relations: TimelineRow[]; mentionedWith: TimelineRow[] } {
  const rows = edges
    .filter((c) => c.object !== null && (c.subject === centerId || c.object === centerId) && c.subject !== c.object)
    .map((claim): TimelineRow => {
      const direction = claim.subject === centerId ? 'outgoing' : 'incoming';
      const otherId = direction === 'outgoing' ? claim.object! : claim.subject;
      return { claim, direction, other: entities.get(otherId) ?? null, period: periodOf(claim), isCurrent: claim.validUntil === null };
    });
  const relations = rows
    .filter((r) => r.claim.predicate !== MENTIONED_WITH)
    .sort((a, b) => {
      const from = (r: TimelineRow) => r.claim.validFrom ?? '\uffff';
      return from(a) < from(b) ? -1 : from(a) > from(b) ? 1 : a.claim.id < b.claim.id ? -1 : 1;
    });
  const mentionedWith = rows.filter((r) => r.claim.predicate === MENTIONED_WITH).sort((a, b) => b.claim.weight - a.claim.weight || (a.claim.id < b.claim.id ? -1 : 1));
  return { relations, mentionedWith };
}
