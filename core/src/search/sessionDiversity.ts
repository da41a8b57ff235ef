/**
 * Questions whose answer is gathered from several notes ("What books has Melanie read?", "How
 * many times has Nate…", "What do Jon and Gina both…"): their results should come from as many
 * sessions as the scores allow, since a second passage of the same session mostly repeats the
 * first. HybridSearcher's MMR takes SAME_FILE_PENALTY off a candidate whose file an earlier
 * result already shows, for these questions only.
 *
 * Issue 20, multi-hop. LoCoMo tuning folds 0–1 (@1,500 / @3,500 / R@10 / multi-hop @1,500;
 * before 73.2 / 81.2 / 85.3 / 28.5): penalty 0.1 for gathering questions 73.4 / 81.3 / 85.3 /
 * 29.4 (0.05: no change; 0.15: the same as 0.1; 0.2: 73.3 / 81.3 / 85.2 / 28.9); 0.1 for every
 * question 72.6 / 80.1 / 83.4 / 28.5 (single-hop and adversarial lose).
 * Tried with it and left out (branch mhop-prf-experiment), all on folds 0–1:
 * - a second keyword pass (pseudo-relevance feedback) with the 4 rarest words of the first pass's
 *   best 3–5 results' lines (only the lines having a rarer word of the question; names only;
 *   words in ≥ 2 results), its BM25 added at 0.2–0.4 of the score: within ±0.3 of the figures
 *   above on every measure, for every question 72.8–73.2 @1,500, and CPU per search +20–45 %:
 *   in chat the rare words of a good passage are filler ("yup", "marshmallows"), and the names
 *   found lead back to the same sessions;
 * - a bonus for the one line covering most of the question (0.3 of the score): +0.3 multi-hop
 *   for gathering questions, −0.7 @3,500 for every question.
 */
export const SAME_FILE_PENALTY = 0.1;

const GATHERING = new RegExp(
  [
    'how many',
    'both',
    'ever',
    'all the',
    // "What kinds of…", "Which things…"
    '(?:what|which) (?:kinds|types|sorts|things|ways)\\b',
    // A plural noun asked about with its verb: "What books has…", "Which board games does…"
    '(?:what|which) (?:[\\w-]+ ){0,2}[\\w-]+[^s\\W]s (?:has|have|does|do|did|is|are|were)\\b',
    // The perfect asks about every time: "What has Melanie painted?", "Where has she camped?"
    '(?:what|where) has\\b',
    // "What are Melanie's hobbies?"
    "what are \\w+(?:'s|s'|’s) [\\w-]+s\\b",
  ]
    .map((p) => `(?:${p})`)
    .join('|')
    .replace(/^/, '\\b(?:')
    .concat(')'),
  'i',
);

/** Whether a question looks like it gathers its answer from several places. */
export function looksGathering(query: string): boolean {
  return GATHERING.test(query);
}
