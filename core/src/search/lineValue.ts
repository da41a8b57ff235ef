/**
 * How likely one line of a result is to hold the answer, from what search knows about it: its
 * result's rank and score, the query weight the line and its neighbours match, whether the line
 * before it asks something (a reply answers it), its length, and whether the person the query
 * names is the one speaking. Budget packing (budgetPacking.ts) spends its characters on the
 * lines this rates highest per character.
 *
 * The weights are a logistic regression fitted to which lines of the top-10 results were the
 * evidence on LoCoMo folds 0–1 (66k lines, 1.1k of them evidence); fitted on one of the two
 * folds, they raised recall at 1,500 / 3,500 characters on the other as well (fold 0 → 1:
 * +1.6 / +0.4, fold 1 → 0: +3.0 / +1.5), and both fits gave the same weights within ±0.4.
 */
export interface LineFacts {
  /** 0 for the best result. */
  rank: number;
  /** The result's score over the best result's, 0–1. */
  relativeScore: number;
  /** Query weight the line matches, as a share of the query's whole weight (0–1). */
  share: number;
  /** The highest `share` among the lines of the same result. */
  bestShareInResult: number;
  previousShare: number;
  previousAsks: boolean;
  nextShare: number;
  chars: number;
  asks: boolean;
  heading: boolean;
  /** The line is spoken ("Name: …") by someone the query names. */
  speakerNamed: boolean;
}

const WEIGHTS = {
  bias: -9.99,
  logRank: -0.79,
  relativeScore: 2.97,
  share: 1.2,
  sqrtShare: 0.75,
  shareOfBest: 1.26,
  // A line after a matching question is its answer; after a matching statement, usually small talk.
  previousAskedShare: 2.21,
  previousToldShare: -1.49,
  nextShare: -0.59,
  logChars: 0.56,
  asks: -0.53,
  heading: -0.79,
  speakerNamed: 0.95,
};

/** Estimated probability (0–1) that the line holds the answer. */
export function answerLikelihood(f: LineFacts): number {
  const z =
    WEIGHTS.bias +
    WEIGHTS.logRank * Math.log(f.rank + 1) +
    WEIGHTS.relativeScore * f.relativeScore +
    WEIGHTS.share * f.share +
    WEIGHTS.sqrtShare * Math.sqrt(f.share) +
    WEIGHTS.shareOfBest * (f.bestShareInResult > 0 ? f.share / f.bestShareInResult : 0) +
    (f.previousAsks ? WEIGHTS.previousAskedShare : WEIGHTS.previousToldShare) * f.previousShare +
    WEIGHTS.nextShare * f.nextShare +
    WEIGHTS.logChars * Math.log(f.chars + 1) +
    (f.asks ? WEIGHTS.asks : 0) +
    (f.heading ? WEIGHTS.heading : 0) +
    (f.speakerNamed ? WEIGHTS.speakerNamed : 0);
  return 1 / (1 + Math.exp(-z));
}

/** A question mark anywhere in the line: a chat turn often asks, then adds a remark. */
export function asksAnything(line: string): boolean {
  return line.includes('?');
}

/**
 * The speaker of a chat or transcript line ("Melanie: …", "- [12:03] Melanie: …"), lower-cased,
 * or null. A name is one to three capitalised words before the colon (not "The plan: …").
 */
export function speakerOf(line: string): string | null {
  const colon = line.indexOf(': ');
  if (colon < 0 || colon > SPEAKER_PREFIX_MAX) return null;
  const m = SPEAKER.exec(line.slice(0, colon + 2));
  return m ? m[1]!.toLowerCase() : null;
}

/** Bullet, bracketed tag and a three-word name fit in this many characters. */
const SPEAKER_PREFIX_MAX = 120;
const SPEAKER = /^\s*(?:[-*+]\s+)?(?:\[[^\]\n]{0,40}\]\s*)?(\p{Lu}[\p{L}\p{N}'.-]*(?: \p{Lu}[\p{L}\p{N}'.-]*){0,2}):\s/u;
