/**
 * Results packed to a character budget: what an agent's context wants is the most answer per
 * character, not whole passages until the budget cuts one in half. Each result in rank order
 * gets its best window that still fits (a result whose window would have to cut a matched line
 * is left out, a later, shorter one may still fit); what is left of the budget then widens the
 * chosen windows with their neighbouring lines, best result first.
 *
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
import { buildSnippet, MAX_SNIPPET_CHARS, type SnippetTerm } from './snippet.js';

export interface PackableResult {
  hit: Pick<ChunkHit, 'path' | 'start_line' | 'text'>;
  result: SearchResult;
}

/**
 * The largest window a result gets in the first pass, and the context it grows to. On LoCoMo
 * folds 0–1 tighter first windows (500 or 360 characters) lost 6–15 points at 1,500 characters:
 * the answer is often a line beside the matched ones, so more results with fewer lines lose.
 */
const FIRST_PASS_CHARS = MAX_SNIPPET_CHARS;
const FIRST_PASS_CONTEXT = 280;

interface Window {
  item: PackableResult;
  lines: string[];
  /** Index in `lines` of the window's first and last line. */
  from: number;
  to: number;
  chars: number;
}

/** The results (rank order kept) whose snippets, together with a newline between two, fit in `budget` characters. */
export function packToBudget(items: readonly PackableResult[], terms: readonly SnippetTerm[], budget: number): SearchResult[] {
  const shown = new Map<string, Set<number>>();
  const shownIn = (path: string): Set<number> => {
    let lines = shown.get(path);
    if (!lines) shown.set(path, (lines = new Set()));
    return lines;
  };
  let used = 0;
  const windows: Window[] = [];
  for (const item of items) {
    const room = Math.min(FIRST_PASS_CHARS, budget - used - (windows.length > 0 ? 1 : 0));
    if (room <= 0) break;
    const exclude = shownIn(item.hit.path);
    const snippet = buildSnippet(item.hit.text, item.hit.start_line, terms, { maxChars: room, exclude, contextChars: Math.min(FIRST_PASS_CONTEXT, room), path: item.hit.path });
    if (snippet.text.length === 0 || snippet.cut || snippet.matchedWeight <= 0) continue;
    used += snippet.text.length + (windows.length > 0 ? 1 : 0);
    for (let l = snippet.startLine; l <= snippet.endLine; l++) exclude.add(l);
    const from = snippet.startLine - item.hit.start_line;
    windows.push({ item, lines: item.hit.text.split('\n'), from, to: snippet.endLine - item.hit.start_line, chars: snippet.text.length });
  }
  // Second pass: the rest of the budget widens windows by whole lines, best result first.
  for (const w of windows) {
    const taken = shownIn(w.item.hit.path);
    const free = (i: number): number =>
      i >= 0 && i < w.lines.length && !taken.has(w.item.hit.start_line + i) ? w.lines[i]!.length + 1 : Infinity;
    for (;;) {
      const after = free(w.to + 1);
      const before = free(w.from - 1);
      const step = Math.min(after, before);
      if (step === Infinity || step > budget - used || w.chars + step > MAX_SNIPPET_CHARS) break;
      // The line after a match is usually the reply to it: it goes first on a tie.
      if (after <= before) taken.add(w.item.hit.start_line + ++w.to);
      else taken.add(w.item.hit.start_line + --w.from);
      w.chars += step;
      used += step;
    }
  }
  return windows.map((w) => ({
    ...w.item.result,
    snippet: w.lines.slice(w.from, w.to + 1).join('\n'),
    startLine: w.item.hit.start_line + w.from,
    endLine: w.item.hit.start_line + w.to,
  }));
}
