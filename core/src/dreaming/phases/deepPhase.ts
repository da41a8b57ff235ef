import type { DreamCandidate, DreamComponents, DreamGate } from '../../contract/index.js';
import { estimateTokens } from '../../index/chunker.js';
import { normalizeEntryText } from '../../workspace/markdownEntries.js';
import { ageInDays, localDay } from '../../platform/localDay.js';
import { classifyEntry, type EntryKindResult } from '../../workspace/entryKind.js';
import { isStatementWorthKeeping } from '../conversationTurn.js';
import { everydayTalkWord } from './everydayTalk.js';
import type { GatheredEntry } from './gatheredEntry.js';
import { candidateBase, signalsOf } from '../runRecord.js';

/** Starting weights from the issue; they sum to 1, the REM boost comes on top. */
export const SCORE_WEIGHTS = { relevance: 0.3, frequency: 0.24, diversity: 0.15, recency: 0.15, consolidation: 0.1, richness: 0.06 } as const;
export const RECENCY_HALF_LIFE_DAYS = 14;
export const MAX_ENTRY_TOKENS = 160;
/**
 * Evidence never saturates: each component is x / (x + half), half its value at `half` and
 * still rising after, so ten recalls rank above five and the cap is not left to decide among
 * ties. The halves are what one real look contributes, not constants fitted to a data set:
 * a recall is 1, a used result (opened, read) counts USED_RESULT_WEIGHT more.
 */
const FREQUENCY_HALF = 2;
const DIVERSITY_HALF = 1.5;
const CONSOLIDATION_HALF = 1;
export const USED_RESULT_WEIGHT = 2;
const RICHNESS_SATURATION = 6;
/** Transcript content from sessions no person was in can never promote itself. */
const INELIGIBLE_SESSION_KINDS = new Set(['cron', 'heartbeat', 'subagent', 'unknown']);

export interface Thresholds {
  minScore: number;
  minRecallCount: number;
  minUniqueQueries: number;
  maxPromotions: number;
}

export interface CuratedState {
  /** normalizeEntryText of every entry already in MEMORY.md / USER.md. */
  facts: ReadonlySet<string>;
  /** Candidate keys of promotion markers already in MEMORY.md. */
  promotedKeys: ReadonlySet<string>;
}

export interface RankedCandidate {
  entry: GatheredEntry;
  candidate: DreamCandidate;
  passed: boolean;
}

/**
 * Deep sleep: score every gathered entry and apply the gates. The provenance gate is
 * structural and comes first: no score can make untrusted or unattended content eligible.
 */
export function runDeepPhase(entries: readonly GatheredEntry[], boostByKey: ReadonlyMap<string, number>, thresholds: Thresholds, curated: CuratedState, now: number): RankedCandidate[] {
  const ranked = entries.map((entry) => scoreEntry(entry, boostByKey.get(entry.key) ?? 0, thresholds, curated, now));
  ranked.sort((a, b) => b.candidate.score - a.candidate.score || a.candidate.key.localeCompare(b.candidate.key));
  let admitted = 0;
  for (const r of ranked) {
    if (!r.passed) {
      r.candidate.gates.push({ gate: 'max-promotions', passed: false, detail: 'not reached: an earlier gate failed' });
      continue;
    }
    const fits = admitted < thresholds.maxPromotions;
    r.candidate.gates.push({ gate: 'max-promotions', passed: fits, detail: fits ? `#${admitted + 1} of at most ${thresholds.maxPromotions}` : `over the limit of ${thresholds.maxPromotions} per sweep` });
    if (fits) admitted++;
    else {
      r.passed = false;
      r.candidate.outcome = 'below-gates';
    }
  }
  return ranked;
}

export function isEligibleForPromotion(entry: Pick<GatheredEntry, 'origin' | 'source' | 'sessionKind'>): { eligible: boolean; detail: string } {
  if (entry.origin === 'untrusted' || entry.origin === 'system') return { eligible: false, detail: `origin is ${entry.origin}: never promoted` };
  if (entry.source === 'sessions' && INELIGIBLE_SESSION_KINDS.has(entry.sessionKind ?? 'unknown')) {
    return { eligible: false, detail: `from a ${entry.sessionKind ?? 'unknown'} session: never promoted` };
  }
  return { eligible: true, detail: entry.source === 'sessions' ? `${entry.origin} text in an interactive session` : `${entry.origin} note` };
}

function scoreEntry(entry: GatheredEntry, remBoost: number, t: Thresholds, curated: CuratedState, now: number): RankedCandidate {
  const recall = entry.recall;
  const count = recall?.count ?? 0;
  const uses = recall?.uses ?? 0;
  const uniqueQueries = recall?.queries.size ?? 0;
  const uniqueDays = entry.days.size;
  // Days on which searches found it: the day it was written is not evidence of use.
  const recallDays = recall?.days.size ?? 0;
  const components: DreamComponents = {
    relevance: count > 0 ? clamp(recall!.scoreSum / count) : 0,
    frequency: rising(count + USED_RESULT_WEIGHT * uses, FREQUENCY_HALF),
    diversity: rising(uniqueQueries, DIVERSITY_HALF),
    recency: recall ? Math.pow(0.5, ageInDays(now, recall.lastAt) / RECENCY_HALF_LIFE_DAYS) : 0,
    consolidation: rising(Math.max(0, recallDays - 1), CONSOLIDATION_HALF),
    richness: clamp(entry.contentTerms / RICHNESS_SATURATION),
    remBoost,
  };
  const score =
    SCORE_WEIGHTS.relevance * components.relevance +
    SCORE_WEIGHTS.frequency * components.frequency +
    SCORE_WEIGHTS.diversity * components.diversity +
    SCORE_WEIGHTS.recency * components.recency +
    SCORE_WEIGHTS.consolidation * components.consolidation +
    SCORE_WEIGHTS.richness * components.richness +
    remBoost;

  const gates: DreamGate[] = [];
  const provenance = isEligibleForPromotion(entry);
  gates.push({ gate: 'provenance', passed: provenance.eligible, detail: provenance.detail });
  gates.push({ gate: 'imported', passed: true, detail: entry.imported ? 'imported memory: staged for your review, never written automatically' : 'not imported' });
  if (entry.source === 'sessions') {
    const statement = isStatementWorthKeeping(entry.text);
    gates.push({ gate: 'statement', passed: statement, detail: statement ? 'states a fact or a standing preference' : 'a question or a request in the conversation, not something to remember' });
  }
  // The index decided the kind when it read the file; a dated fact whose end it could not read gets the sweep's own reading, which knows when the entry was written.
  const stored = entry.storedKind && !(entry.storedKind.kind === 'time-bounded' && entry.storedKind.validUntil === null) ? entry.storedKind : null;
  const kind: EntryKindResult = stored ?? classifyEntry(entry.raw, readingDayOf(entry));
  gates.push(kindGate(kind, localDay(now), entry.text));
  const normalized = normalizeEntryText(entry.text);
  const known = curated.facts.has(normalized) || curated.promotedKeys.has(entry.key);
  gates.push({ gate: 'already-in-memory', passed: !known, detail: known ? 'already in MEMORY.md or USER.md' : 'new to curated memory' });
  const tokens = estimateTokens(entry.text);
  gates.push({ gate: 'length', passed: tokens <= MAX_ENTRY_TOKENS, detail: `${tokens} tokens (at most ${MAX_ENTRY_TOKENS})` });
  gates.push({ gate: 'score', passed: score >= t.minScore, detail: `${score.toFixed(3)} (at least ${t.minScore})` });
  gates.push({ gate: 'recall-count', passed: count >= t.minRecallCount, detail: `${count} recalls (at least ${t.minRecallCount})` });
  const diversity = Math.max(uniqueQueries, uniqueDays);
  gates.push({
    gate: 'unique-queries',
    passed: diversity >= t.minUniqueQueries,
    detail: `${uniqueQueries} distinct queries, ${uniqueDays} days (at least ${t.minUniqueQueries})`,
  });
  const passed = gates.every((g) => g.passed);
  const candidate: DreamCandidate = {
    ...candidateBase(entry),
    signals: signalsOf(entry),
    components: Object.fromEntries(Object.entries(components).map(([k, v]) => [k, round(v)])) as DreamComponents,
    score: round(score),
    gates,
    outcome: provenance.eligible ? (passed ? 'promoted' : 'below-gates') : 'ineligible',
    target: null,
    kind: kind.kind,
    validUntil: kind.validUntil,
    kindCue: kind.cue,
    kindSource: stored ? 'index' : 'sweep',
  };
  return { entry, candidate, passed };
}

/**
 * Tasks and open questions are work in progress, never long-term memory; a time-bounded fact is
 * memory only until its end, and only when that end can be read.
 */
function kindGate(kind: EntryKindResult, today: string, text: string): DreamGate {
  const what = `${kind.kind} (${kind.cue})`;
  // The person's own rules and steps stay theirs even when they are about lunch.
  const smallTalk = kind.kind === 'preference' || kind.kind === 'procedure' ? null : everydayTalkWord(text);
  if (smallTalk) return { gate: 'kind', passed: false, detail: `${what}, everyday small talk ("${smallTalk}"): not promoted automatically` };
  if (kind.kind === 'task' || kind.kind === 'question') return { gate: 'kind', passed: false, detail: `a ${what}: never promoted` };
  // A demo, a retro, a release: what happened that day, not what an agent needs at the start of a session.
  if (kind.kind === 'event') return { gate: 'kind', passed: false, detail: `an ${what}: a past happening is not promoted automatically` };
  if (kind.kind !== 'time-bounded') return { gate: 'kind', passed: true, detail: what };
  if (kind.validUntil === null) return { gate: 'kind', passed: false, detail: `${what}: its end date could not be read, so it is not promoted` };
  if (kind.validUntil < today) return { gate: 'kind', passed: false, detail: `${what}: expired on ${kind.validUntil}` };
  return { gate: 'kind', passed: true, detail: `${what}: holds until ${kind.validUntil}` };
}

/**
 * The day a note was written, which orders facts (supersession) and is written as `observed`: a
 * daily note's name, else the day the entry appeared in a file Reverie was already reading; null
 * when neither is known (never the day of a sweep, nor a file's mtime when it was first read).
 */
export function noteDayOf(entry: GatheredEntry): string | null {
  const named = dayInName(entry.path);
  if (named) return named;
  return entry.writtenAt !== null && entry.writtenAtDatesEntry ? localDay(entry.writtenAt) : null;
}

/** The day a relative date in the entry ("until Friday") is read against: its note's day, else the latest it can have been written. */
function readingDayOf(entry: GatheredEntry): string | null {
  return dayInName(entry.path) ?? (entry.writtenAt !== null ? localDay(entry.writtenAt) : null);
}

function dayInName(path: string): string | null {
  return /(\d{4}-\d{2}-\d{2})[^/]*$/.exec(path)?.[1] ?? null;
}

/** x / (x + half): 0 at 0, ½ at `half`, approaching 1 and never reaching it. */
function rising(x: number, half: number): number {
  return x > 0 ? x / (x + half) : 0;
}

function clamp(n: number): number {
  return Number.isFinite(n) ? Math.max(0, Math.min(1, n)) : 0;
}

function round(n: number): number {
  return Math.round(n * 1000) / 1000;
}
