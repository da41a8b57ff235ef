import { joinLines, splitLines } from './lines.js';

/**
 * Puts back, where they were, the lines a run removed from a curated file (entries retired for
 * the budget, with their markers), in a file edited since the run. Where each removed block
 * stood is read from the file before the run (its pre-image): the block goes right after the
 * line that preceded it there, found in today's text by aligning the two (longest common
 * subsequence of lines), else right before the line that followed it. Lines that cannot be
 * placed (their neighbours were edited away, or the pre-image does not hold them) are returned
 * for the caller to keep some other way.
 */
export function restoreRemovedLines(text: string, removed: readonly string[], before: string): { text: string; unplaced: string[] } {
  if (removed.length === 0) return { text, unplaced: [] };
  const pre = splitLines(before).lines;
  const { removedAt, unplaced } = locateInPreImage(pre, removed);
  const base = pre.map((_, i) => i).filter((i) => !removedAt.has(i));
  const split = splitLines(text);
  const current = split.lines;
  const aligned = alignLines(base.map((i) => pre[i]!), current);
  const currentIndexOfPre = new Map(base.flatMap((preIndex, k) => (aligned[k] === undefined ? [] : [[preIndex, aligned[k]!] as const])));

  // Each block of removed lines, and the position in today's text it goes before.
  const inserts: Array<{ at: number; lines: string[] }> = [];
  for (let i = 0; i < pre.length; ) {
    if (!removedAt.has(i)) {
      i++;
      continue;
    }
    const start = i;
    while (i < pre.length && removedAt.has(i)) i++;
    const block = pre.slice(start, i);
    const at = start === 0 ? 0 : currentIndexOfPre.has(start - 1) ? currentIndexOfPre.get(start - 1)! + 1 : i < pre.length ? currentIndexOfPre.get(i) : current.length;
    if (at === undefined) unplaced.push(...block);
    else inserts.push({ at, lines: block });
  }
  const lines = [...current];
  // From the end, so earlier positions stay valid; blocks bound for one position keep their order.
  for (const { at, lines: block } of [...inserts].reverse()) lines.splice(at, 0, ...block);
  const finalNewline = split.lines.length === 0 ? splitLines(before).finalNewline : split.finalNewline;
  return { text: joinLines({ lines, eol: split.eol, finalNewline }), unplaced };
}

/** Which lines of the pre-image the removed lines were, taken in order (a line's first unclaimed occurrence after the last one found). */
function locateInPreImage(pre: readonly string[], removed: readonly string[]): { removedAt: Set<number>; unplaced: string[] } {
  const removedAt = new Set<number>();
  const unplaced: string[] = [];
  let from = 0;
  for (const line of removed) {
    let at = pre.indexOf(line, from);
    while (at >= 0 && removedAt.has(at)) at = pre.indexOf(line, at + 1);
    if (at < 0) at = pre.findIndex((l, i) => l === line && !removedAt.has(i));
    if (at < 0) {
      unplaced.push(line);
      continue;
    }
    removedAt.add(at);
    from = at + 1;
  }
  return { removedAt, unplaced };
}

/** For each line of `a`, the index of the line of `b` it is matched with in a longest common subsequence (undefined when unmatched). */
function alignLines(a: readonly string[], b: readonly string[]): Array<number | undefined> {
  const match: Array<number | undefined> = a.map(() => undefined);
  // The common head and tail first: an edit touches a few lines, and the table is only built for the rest.
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) match[head] = head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) {
    match[a.length - 1 - tail] = b.length - 1 - tail;
    tail++;
  }
  const n = a.length - head - tail;
  const m = b.length - head - tail;
  if (n === 0 || m === 0) return match;
  // lengths[i][j]: the longest common subsequence of a[head+i…] and b[head+j…].
  const lengths = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lengths[i]![j] = a[head + i] === b[head + j] ? lengths[i + 1]![j + 1]! + 1 : Math.max(lengths[i + 1]![j]!, lengths[i]![j + 1]!);
    }
  }
  for (let i = 0, j = 0; i < n && j < m; ) {
    if (a[head + i] === b[head + j]) {
      match[head + i] = head + j;
      i++;
      j++;
    } else if (lengths[i + 1]![j]! >= lengths[i]![j + 1]!) i++;
    else j++;
  }
  return match;
}
