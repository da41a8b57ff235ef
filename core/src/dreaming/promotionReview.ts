import type { DreamGate } from '../contract/index.js';
import { isDirective } from './curated/userFile.js';
import type { RankedCandidate } from './phases/deepPhase.js';
import type { GatheredEntry } from './phases/gatheredEntry.js';

type Target = 'MEMORY.md' | 'USER.md';

/**
 * Routes the candidates that passed every gate: each gets its target (a directive goes to
 * USER.md, anything else to MEMORY.md) and a `review` gate saying whether it is written now
 * or waits for the person, and why.
 */
export function routePromotions(passing: readonly RankedCandidate[], reviewBeforeWriting: boolean): { proposals: RankedCandidate[]; automatic: RankedCandidate[] } {
  const proposals: RankedCandidate[] = [];
  const automatic: RankedCandidate[] = [];
  for (const r of passing) {
    // The kind read at index time knows the person's rules in more wordings than isDirective ("tabs > spaces for me").
    const target = isDirective(r.entry.text) || r.candidate.kind === 'preference' ? 'USER.md' : 'MEMORY.md';
    const reason = reviewReason(r.entry, target, reviewBeforeWriting);
    r.candidate.target = target;
    r.candidate.gates.push(reviewGate(reason, target));
    (reason === null ? automatic : proposals).push(r);
  }
  return { proposals, automatic };
}

/**
 * Why a candidate that passed every gate waits for the person instead of being written, or
 * null when the sweep may write it. Curated memory is the person's: the sweep writes on its
 * own only what they wrote themselves (origin `owner`, the least trusted of every line and
 * every near-duplicate that fed the candidate), and a standing directive for USER.md only from
 * their own notes, never from a transcript. Everything else becomes a proposal, so an agent
 * with a write token can store notes but never make one of them part of curated memory.
 */
export function reviewReason(entry: Pick<GatheredEntry, 'origin' | 'source' | 'imported'>, target: Target, reviewBeforeWriting: boolean): string | null {
  if (entry.imported) return 'imported memory: waits for your review, never written automatically';
  if (entry.origin !== 'owner') {
    return `${WRITTEN_BY[entry.origin]} (origin ${entry.origin}), not by you: waits for your review, since only you can make it part of ${target}`;
  }
  if (target === 'USER.md' && entry.source === 'sessions') {
    return 'a standing instruction said in a conversation: directives in USER.md come only from your own notes, so it waits for your review';
  }
  if (reviewBeforeWriting) return '"review before writing" is on: waits for your review';
  return null;
}

const WRITTEN_BY: Record<Exclude<GatheredEntry['origin'], 'owner'>, string> = {
  agent: 'written by an agent',
  untrusted: 'text from outside (a web page or a tool)',
  system: 'scaffolding text',
};

function reviewGate(reason: string | null, target: Target): DreamGate {
  return { gate: 'review', passed: true, detail: reason ?? `your own note: written into ${target} now` };
}

/** Proposals not written by the person (agents, imports, outside text): the diary says why they wait. */
export function isNotThePersons(entry: Pick<GatheredEntry, 'origin' | 'imported'>): boolean {
  return entry.imported || entry.origin !== 'owner';
}
