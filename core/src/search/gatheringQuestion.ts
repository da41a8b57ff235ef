/**
 * Questions whose answer is gathered from several places ("What books has Melanie read?", "How
 * many times has Nate…", "What do Jon and Gina both…", "What has Melanie painted?"): every
 * mention counts, so each of the person's own lines may hold a piece of the answer. Generic
 * English question shapes only. On LoCoMo folds 0–1 it matches 69 of 111 multi-hop and 22 of
 * 332 single-hop questions (issue 20; first written for session diversity, commit 16d9a0d,
 * reverted there; used now by budget packing, budgetPacking.ts).
 */
const GATHERING = new RegExp(
  '\\b(?:' +
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
      .join('|') +
    ')',
  'i',
);

/** Whether a question looks like it gathers its answer from several places. */
export function looksGathering(query: string): boolean {
  return GATHERING.test(query);
}
