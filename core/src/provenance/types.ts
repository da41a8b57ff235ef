/**
 * Provenance vocabulary. Stored in columns written by code (never parsed out of memory
 * text); the contract re-exports the same enums.
 */
export const ORIGIN_CLASSES = ['owner', 'agent', 'untrusted', 'system'] as const;
export type OriginClass = (typeof ORIGIN_CLASSES)[number];

export const SESSION_KINDS = ['interactive', 'cron', 'heartbeat', 'subagent', 'unknown'] as const;
export type SessionKind = (typeof SESSION_KINDS)[number];

/** Least trusted first: a chunk takes the least trusted class of its lines. */
const TRUST_ORDER: Record<OriginClass, number> = { untrusted: 0, system: 1, agent: 2, owner: 3 };

export function leastTrusted(classes: Iterable<OriginClass>, fallback: OriginClass = 'owner'): OriginClass {
  let result: OriginClass | null = null;
  for (const c of classes) if (result === null || TRUST_ORDER[c] < TRUST_ORDER[result]) result = c;
  return result ?? fallback;
}
