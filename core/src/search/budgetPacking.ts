/**
 * Results packed to a character budget: what an agent's context wants is the most answer per
 * character, not whole passages until the budget cuts one in half. Every line of the page's
 * results is rated by how likely it is to hold the answer (lineValue.ts), and the budget goes to
 * the best-rated lines per character, each at most once, whole, in the results' rank order (a
 * line counting for less the more lines its result already shows, SAME_RESULT_SHARE); a
 * result shows its chosen lines, runs that are apart joined by "…". A result none of whose lines
 * earned room is left out. The budget is the only limit: a result may take more than a whole
 * result's 700 characters when its lines are worth it (a long passage holding the answer, on a
 * page whose other results offer less). LoCoMo folds 0–1, @1,500 / @3,500: 700 per result 75.8 /
 * 82.8; at most a quarter of the budget (never under 700) 75.8 / 83.5, a third 75.8 / 84.6, half
 * 76.2 / 85.0; no limit but the budget 77.4 / 85.0 (fold 0 74.4 → 76.0 / 82.2 → 84.0, fold 1
 * 77.7 → 79.2 / 83.5 → 86.3).
 *
 * Before (issue 20): each result in rank order got its best window (buildSnippet) that still
 * fitted, then what was left widened the windows line by line; on LoCoMo folds 0–1 that gave
 * @1,500 73.2, @3,500 81.2 and lost evidence two ways: the answer line was in a shown result but
 * outside its window (the reply beside a matched question, a long line next to a short one
 * repeating the query's words), or in a result the windows of better ones left no room for.
 *
 * Earlier, window-based packing:
 * Tried and left out (LoCoMo, tuned on folds 0–1; before: @1,500 73.2, @3,500 81.2, multi-hop
 * 28.5): windows of 350–450 characters without context for results after the first one or two,
 * so more results fit (@3,500 −1 to −3.3, multi-hop no better: the lines beside a match hold
 * the answer more often than a further result does); one-line windows of left-out results
 * before widening, and widening every window a line at a time in turn (no change: the first pass
 * fills the budget); leaving out a result whose room fits only a weaker window than its best
 * (@1,500 −1.4); a bonus for windows opening on a strongly matching line, over replies that echo
 * it (+0.9 @1,500 and +3.6 multi-hop on folds 0–1, but −2.6 @1,500, −2.4 @3,500 and −3.2
 * multi-hop on held-out fold 2). More or less weight for repeated words in a window (snippet.ts
 * REPEAT_SHARE 0, 0.1, 0.5, 0.8) and more first-pass context (450) did no better than 0.3 and 280.
 * Issue 20, multi-hop (figures @1,500 / @3,500 / multi-hop @1,500; folds 0–1 before 73.2 / 81.2 /
 * 28.5): from the third result on, first-pass windows of only the lines matching content words
 * (stop-word-only lines are context), with a person's own lines matching (hybridSearch.ts),
 * took folds 0–1 to 73.8 / 81.8 / 30.6 but held-out fold 2 from 77.5 / 81.4 / 35.6 to 76.0 /
 * 81.0 / 32.9: reverted (branch multihop, commit 96df41d). On folds 0–1 alone, tight windows
 * from the first result 73.7 / 80.8 / 33.3, from the second 73.3 / 81.1 / 31.0, from the fourth
 * 73.6 / 81.6 / 30.1; tight or 350-character windows only for plural questions ("What
 * activities does…", "how many") 73.0–73.7 / 80.8–81.6 / 31.3–32.9, 250 characters 72.1 /
 * 79.7 / 27.5; first-pass context 0 or 140 instead of 280 changed nothing (windows already
 * exceed it).
 */
import type { SearchResult } from '../contract/index.js';
import type { ChunkHit } from './keywordSearch.js';
import { answerLikelihood, asksAnything, speakerOf } from './lineValue.js';
import { lineWeights, type SnippetTerm } from './snippet.js';

export interface PackableResult {
  hit: Pick<ChunkHit, 'path' | 'start_line' | 'text'>;
  result: SearchResult;
}

/**
 * Lines are taken by rating over length to this power: below 1, a long line (answers usually
 * are) pays less than its full length. LoCoMo folds 0–1, @1,500 / @3,500: 0.3 74.4 / 81.6,
 * 0.6 75.0 / 82.3, 0.8 75.0 / 82.3, 1 74.6 / 82.1 (an earlier rating without speakers or scores).
 * Again once the budget was a result's only limit (0.6: 77.4 / 85.0): 0.4 77.7 / 85.0, 0.5 77.4 /
 * 84.9, 0.7 77.7 / 85.3, 0.8 77.8 / 85.1, within a few questions and no better on both folds.
 */
const LENGTH_POWER = 0.6;
/**
 * A line is worth this share of its own value for every line its result already shows: the
 * budget spreads across results rather than filling the best one's context, as questions whose
 * evidence lies in several sessions want ("What books has Melanie read?"). Issue 20, LoCoMo folds
 * 0–1, @1,500 / @3,500 / multi-hop @1,500, before 77.4 / 85.0 / 38.8: 0.9 77.8 / 85.0 / 40.0
 * (fold 0 76.0 → 76.6, fold 1 79.2 → 79.5; multi-hop 40.1 → 41.3, 36.8 → 38.0); 0.85 77.8 /
 * 84.8 / 40.5, 0.8 77.5 / 84.9 / 40.3, 0.7 76.7 / 84.4 / 38.7; counting lines per file instead of
 * per result (0.85) 77.7 / 83.7 / 40.5. Held-out fold 2, measured once: 84.9 / 87.1 / 41.6 →
 * 84.1 / 87.3 / 42.7; all dev 79.0 / 85.4 / 40.6. Tried with it and not kept (folds 0–1):
 * a line rated lower by the share of its matched query weight that chosen lines already cover
 * (0.3) 77.9 / 85.1 / 39.6 (alone, 0.5: 77.6 / 85.1 / 39.6); the page's next 10 results
 * offered to the packer too, at most 10 shown, 77.8 / 85.0 / 40.3 at +8 % CPU per search; a
 * line naming something (a quoted title, a capitalised word inside a sentence) rated 1.5 times
 * 77.7 / 85.2 / 39.7.
 */
const SAME_RESULT_SHARE = 0.9;
/**
 * In a question that gathers its answer (gatheringQuestion.ts) and names someone who speaks on
 * the page, a line that person speaks is worth this many times its rating, and a line someone
 * else speaks OTHER_SPEAKER_SHARE of it: "What has Melanie painted?" is answered by Melanie's
 * own mentions across sessions, not by the replies around them. Issue 20, LoCoMo folds 0–1,
 * @1,500 / @3,500 / multi-hop @1,500, before 77.8 / 85.0 / 40.0: 1.5 and 0.5 77.9 / 85.1 / 41.4
 * (fold 0 76.6 → 76.7, multi-hop 41.3 → 42.4; fold 1 79.5 → 79.4, 38.0 → 39.7); 1 and 0.5 77.8 /
 * 84.9 / 40.0, 1 and 0.3 77.7 / 85.0 / 40.9, 1.25 and 0.5 78.0 / 84.9 / 41.2, 1.5 and 0.6 78.0 /
 * 84.9 / 41.2, 1.75 and 0.5 77.8 / 85.0 / 41.4. Held-out fold 2, measured once: 84.1 / 87.3 /
 * 42.7 → 84.6 / 87.8 / 45.9 (31 multi-hop questions there: one question is 3 points); all dev
 * 79.0 / 85.4 / 40.6 → 79.2 / 85.6 / 42.4. For every question (not only gathering ones),
 * 1.5 and 0.5: 75.8 / 84.5 / 42.7 (single-hop answers are often the other speaker's reply).
 * Tried for gathering questions and not kept (folds 0–1): a line counting for less the more lines
 * its file (not result) already shows, 0.8–0.3 per line: 77.8–77.0 / 84.9–84.8 / 40.5–38.8;
 * LENGTH_POWER 0.4 / 0.8 / 1 with this rule: multi-hop 41.2 / 41.4 / 41.4; the line rating refitted
 * on gathering questions' lines alone (with a line by someone the query does not name, a first
 * person and a recent-time word as features): 77.4 / 85.5 / 41.8; refitted on every line with
 * those features: @1,500 77.7–78.1, multi-hop 39.5–40.8. With this rule, for gathering questions
 * only: SAME_RESULT_SHARE 0.75 / 0.78 / 0.8 / 0.85 / 1: 77.6–77.9 / 84.9–85.2 / 41.4 / 41.8 /
 * 42.1 / 41.7 / 40.5 (no steady trend, @1,500 lower); rank counted at 0–0.5 of itself 77.2–77.6
 * / 85.0 / 40.9–41.7; the score's shortfall from the best result's at 0–0.5 or 1.5 of itself
 * 76.9–77.9 / 85.0 / 40.7–42.0; the next 5–20 candidate passages offered to the packer: no
 * change at 1,500 (their rank and score rate every line below the page's). For other questions
 * a milder 1.1–1.2 and 0.8–1: 77.7–77.8 / 85.1–85.4 / 41.4–41.8.
 */
const NAMED_SPEAKER_GAIN = 1.5;
const OTHER_SPEAKER_SHARE = 0.5;
/** Between two chosen lines that are not neighbours. */
const GAP = '\n…\n';

interface Candidate {
  result: number;
  line: number;
  chars: number;
  value: number;
  /** Spoken by someone the query names (true), by someone else (false), or no one's line (null). */
  byNamed: boolean | null;
}

/**
 * The results (rank order kept) whose snippets, together with a newline between two, fit in
 * `budget` characters. `gathering`: the question gathers its answer from several places
 * (gatheringQuestion.ts), so the lines of the person it names count for more (NAMED_SPEAKER_GAIN).
 */
export function packToBudget(items: readonly PackableResult[], terms: readonly SnippetTerm[], budget: number, gathering = false): SearchResult[] {
  const totalWeight = terms.reduce((n, t) => n + t.weight, 0);
  const named = namedForms(terms);
  const topScore = items[0]?.result.score ?? 0;
  const lines = items.map((item) => item.hit.text.split('\n'));
  const seen = new Map<string, Set<number>>();
  const candidates: Candidate[] = [];
  items.forEach((item, rank) => {
    const text = lines[rank]!;
    const weights = lineWeights(text, item.hit.start_line, terms, item.hit.path);
    const share = weights.map((w) => (totalWeight > 0 ? w / totalWeight : 0));
    let bestShare = 0;
    for (const x of share) if (x > bestShare) bestShare = x;
    const relativeScore = topScore > 0 ? Math.min(1, Math.max(0, item.result.score / topScore)) : 1;
    let seenInFile = seen.get(item.hit.path);
    if (!seenInFile) seen.set(item.hit.path, (seenInFile = new Set()));
    text.forEach((line, i) => {
      // A line a better result already offers is not offered again; blank lines are only ever gaps.
      if (seenInFile.has(item.hit.start_line + i)) return;
      seenInFile.add(item.hit.start_line + i);
      if (line.trim() === '') return;
      const speaker = speakerOf(line);
      const value = answerLikelihood({
        rank,
        relativeScore,
        share: share[i]!,
        bestShareInResult: bestShare,
        previousShare: share[i - 1] ?? 0,
        previousAsks: i > 0 && asksAnything(text[i - 1]!),
        nextShare: share[i + 1] ?? 0,
        chars: line.length,
        asks: asksAnything(line),
        heading: line.startsWith('#'),
        speakerNamed: speaker !== null && named(speaker),
      });
      candidates.push({ result: rank, line: i, chars: line.length, value: value / Math.pow(line.length + 1, LENGTH_POWER), byNamed: speaker === null ? null : named(speaker) });
    });
  });
  if (gathering && candidates.some((c) => c.byNamed === true)) {
    for (const c of candidates) if (c.byNamed !== null) c.value *= c.byNamed ? NAMED_SPEAKER_GAIN : OTHER_SPEAKER_SHARE;
  }
  candidates.sort((a, b) => b.value - a.value || a.result - b.result || a.line - b.line);

  // Each result's chosen lines (sorted); results are joined by a newline.
  const chosen = items.map(() => [] as number[]);
  let used = 0;
  let shownResults = 0;
  // Lines apart are joined by "…", unless only blank lines lie between: those are shown as they are.
  const nonBlankBefore = lines.map((text) => {
    const counts = [0];
    for (const line of text) counts.push(counts[counts.length - 1]! + (line.trim() === '' ? 0 : 1));
    return counts;
  });
  const blankBetween = (result: number, a: number, b: number): boolean => nonBlankBefore[result]![b]! - nonBlankBefore[result]![a + 1]! === 0;
  const joiner = (result: number, a: number, b: number): number => (blankBetween(result, a, b) ? b - a : GAP.length);
  /** Shows the line when it still fits the budget. */
  const place = (c: Candidate): void => {
    const picked = chosen[c.result]!;
    let at = 0;
    while (at < picked.length && picked[at]! < c.line) at++;
    const before = picked[at - 1];
    const after = picked[at];
    let grow = c.chars;
    if (before !== undefined) grow += joiner(c.result, before, c.line);
    if (after !== undefined) grow += joiner(c.result, c.line, after);
    if (before !== undefined && after !== undefined) grow -= joiner(c.result, before, after);
    const newResult = picked.length === 0 && shownResults > 0 ? 1 : 0;
    if (used + grow + newResult > budget) return;
    if (picked.length === 0) shownResults++;
    picked.splice(at, 0, c.line);
    used += grow + newResult;
  };
  // Each result's lines, best first; the next line offered is the best of the results' next
  // lines, its rating multiplied by SAME_RESULT_SHARE for every line its result already shows.
  const queues = items.map(() => [] as Candidate[]);
  for (const c of candidates) queues[c.result]!.push(c);
  const next = items.map(() => 0);
  for (;;) {
    let best = -1;
    let bestValue = -1;
    queues.forEach((queue, result) => {
      const c = queue[next[result]!];
      if (c === undefined) return;
      const value = c.value * Math.pow(SAME_RESULT_SHARE, chosen[result]!.length);
      if (value > bestValue) {
        bestValue = value;
        best = result;
      }
    });
    if (best < 0) break;
    place(queues[best]![next[best]!++]!);
  }

  const packed: SearchResult[] = [];
  items.forEach((item, rank) => {
    const picked = chosen[rank]!;
    if (picked.length === 0) return;
    const text = lines[rank]!;
    let snippet = text[picked[0]!]!;
    for (let k = 1; k < picked.length; k++) {
      const [a, b] = [picked[k - 1]!, picked[k]!];
      snippet += blankBetween(rank, a, b) ? '\n' + text.slice(a + 1, b + 1).join('\n') : GAP + text[b]!;
    }
    packed.push({ ...item.result, snippet, startLine: item.hit.start_line + picked[0]!, endLine: item.hit.start_line + picked[picked.length - 1]! });
  });
  return packed;
}

/**
 * Whether a speaker's name is one the query names: its first word and a query word's form are
 * the same word, allowing a possessive or plural ending ("Melanie's" → melanies, melani).
 */
function namedForms(terms: readonly SnippetTerm[]): (speaker: string) => boolean {
  const forms = [...new Set(terms.flatMap((t) => t.forms.map((f) => f.toLowerCase())))].filter((f) => f.length >= 3);
  // A conversation has few speakers: each is looked up once.
  const known = new Map<string, boolean>();
  return (speaker) => {
    let named = known.get(speaker);
    if (named === undefined) {
      const first = speaker.split(' ')[0]!;
      named = forms.some((f) => (f.startsWith(first) && f.length - first.length <= 2) || (first.startsWith(f) && first.length - f.length <= 2));
      known.set(speaker, named);
    }
    return named;
  };
}
