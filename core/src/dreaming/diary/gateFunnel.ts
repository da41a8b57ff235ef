import type { DreamCandidate, DreamRun } from '../../contract/index.js';

type Thresholds = DreamRun['thresholds'];

/** Gates in the order the diary tells them; a gate it does not know yet comes after these. */
const ORDER = ['provenance', 'statement', 'kind', 'already-in-memory', 'length', 'score', 'recall-count', 'unique-queries'];
/** Gates that always pass or fold a candidate into another: nothing to count. */
const NOT_COUNTED = new Set(['imported', 'review', 'near-duplicate', 'max-promotions']);

export interface FunnelStep {
  gate: string;
  /** Candidates that passed this gate and every gate before it. */
  passed: number;
}

export interface GateFunnel {
  /** Candidates looked over (near-duplicates folded into another are not counted again). */
  looked: number;
  steps: FunnelStep[];
  /** Passed every gate but the per-night limit. */
  passedGates: number;
  /** The per-night limit, and how many it let through; null when it held nobody back. */
  limit: { max: number; through: number } | null;
}

/** How many of the run's candidates passed each gate, in turn: what the diary says, counted from the run record. */
export function gateFunnel(candidates: readonly DreamCandidate[], thresholds: Thresholds): GateFunnel {
  const counted = candidates.filter((c) => c.outcome !== 'duplicate');
  const names = new Set<string>(counted.flatMap((c) => c.gates.map((g) => g.gate)).filter((g) => !NOT_COUNTED.has(g)));
  const order = [...ORDER.filter((g) => names.has(g)), ...[...names].filter((g) => !ORDER.includes(g)).sort()];
  let alive = counted;
  const steps = order.map((gate) => {
    alive = alive.filter((c) => c.gates.find((g) => g.gate === gate)?.passed ?? true);
    return { gate, passed: alive.length };
  });
  const through = alive.filter((c) => c.gates.find((g) => g.gate === 'max-promotions')?.passed ?? true).length;
  return { looked: counted.length, steps, passedGates: alive.length, limit: through < alive.length ? { max: thresholds.maxPromotions, through } : null };
}

/** What passing a gate means, as a clause after a count ("30 scored at least 0.65"). */
export function passedClause(gate: string, t: Thresholds): string {
  switch (gate) {
    case 'provenance':
      return 'could be promoted, given where they came from';
    case 'statement':
      return 'were statements rather than questions or requests in a conversation';
    case 'kind':
      return 'were lasting (not a task, a question or a date already past)';
    case 'already-in-memory':
      return 'were new to memory';
    case 'length':
      return 'were short enough to keep';
    case 'score':
      return `scored at least ${t.minScore}`;
    case 'recall-count':
      return `were recalled at least ${t.minRecallCount} times`;
    case 'unique-queries':
      return `came up in at least ${t.minUniqueQueries} different searches or on as many days`;
    default:
      return `passed the ${gate} gate`;
  }
}

/**
 * Why a candidate was held back and by how much, one clause per failed gate in the diary's
 * order: "score 0.61 < 0.65", "2 of 3 recalls", "a task (a checkbox): never promoted".
 */
export function shortfalls(candidate: DreamCandidate, t: Thresholds): string[] {
  const failed = candidate.gates.filter((g) => !g.passed && !NOT_COUNTED.has(g.gate));
  const rank = (gate: string) => (ORDER.includes(gate) ? ORDER.indexOf(gate) : ORDER.length);
  const reasons = failed.sort((a, b) => rank(a.gate) - rank(b.gate)).map((g) => shortfall(candidate, g.gate, g.detail, t));
  const limit = candidate.gates.find((g) => g.gate === 'max-promotions');
  if (reasons.length === 0 && limit && !limit.passed) reasons.push(`over the limit of ${t.maxPromotions} a night`);
  return reasons;
}

function shortfall(c: DreamCandidate, gate: string, detail: string, t: Thresholds): string {
  switch (gate) {
    case 'score':
      return `score ${apart(c.score, t.minScore)} < ${t.minScore}`;
    case 'recall-count':
      return `${c.signals.recallCount} of ${t.minRecallCount} recalls`;
    case 'unique-queries':
      // Mirrors the gate: different searches, or days it came up on, whichever is more.
      return `${Math.max(c.signals.uniqueQueries, c.signals.uniqueDays)} of ${t.minUniqueQueries} different searches or days`;
    case 'already-in-memory':
      return 'already in memory';
    default:
      return detail;
  }
}

/** The score with as many decimals as it takes not to read as equal to the threshold (0.648 < 0.65). */
function apart(value: number, threshold: number): string {
  for (const digits of [2, 3]) if (value.toFixed(digits) !== threshold.toFixed(digits)) return value.toFixed(digits);
  return value.toFixed(4);
}
