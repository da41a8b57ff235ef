import type { RunChanges } from '../types.js';
import { isBlank, joinLines, splitLines, type SplitText } from './lines.js';

/**
 * Undo of one dream run on a curated file that may have been edited since: only the run's
 * own lines are removed or reverted, matched as whole lines; everything else stays as is.
 */

export interface UndoResult {
  text: string;
  /** Added lines found and removed. */
  removed: number;
  /** Changed lines found and put back. */
  reverted: number;
  /** Added lines, and changed lines' `after`, that are no longer in the file. */
  missing: string[];
}

/** Marks where removed lines used to be, so blank-line tidying stays in the touched region. */
const GAP = null;
type Slot = string | typeof GAP;

export function removeRunChanges(text: string, changes: RunChanges): UndoResult {
  const split = splitLines(text);
  const lines = [...split.lines];
  const missing: string[] = [];
  const wanted = changes.added.filter((line) => !isBlank(line));
  const wantedSet = new Set(wanted);
  const anchors = lines.flatMap((line, index) => (wantedSet.has(line) ? [index] : []));

  let reverted = 0;
  // Last change first, so a line changed twice in one run unwinds in order.
  for (const change of [...changes.changed].reverse()) {
    const index = nearestOccurrence(occurrencesOf(lines, change.after), anchors);
    if (index === undefined) {
      missing.push(change.after);
      continue;
    }
    lines[index] = change.before;
    reverted++;
  }

  const { positions, notFound } = locateAddedLines(lines, wanted);
  missing.push(...notFound);
  return { text: dropLines({ ...split, lines }, positions), removed: positions.size, reverted, missing };
}

/** The text without the lines at `positions` (0-based), blank lines around each gap tidied as above. */
export function dropLines(split: SplitText, positions: ReadonlySet<number>): string {
  const slots: Slot[] = split.lines.map((line, index) => (positions.has(index) ? GAP : line));
  return joinLines({ ...split, lines: tidyTouchedBlankRuns(slots) });
}

function occurrencesOf(lines: readonly string[], line: string, claimed: ReadonlySet<number> = new Set()): number[] {
  return lines.flatMap((l, index) => (l === line && !claimed.has(index) ? [index] : []));
}

/** The candidate closest to any anchor; ties and no anchors go to the last candidate. */
function nearestOccurrence(candidates: number[], anchors: readonly number[]): number | undefined {
  if (anchors.length === 0) return candidates[candidates.length - 1];
  let best: number | undefined;
  let bestDistance = Infinity;
  for (const candidate of candidates) {
    const distance = Math.min(...anchors.map((a) => Math.abs(a - candidate)));
    if (distance <= bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

/**
 * Which file line each added line is. Lines that occur once settle first; a repeated line
 * then takes the occurrence where the run's block puts it (next to its resolved neighbours),
 * else the last one. Each added line claims at most one file line.
 */
function locateAddedLines(lines: readonly string[], wanted: readonly string[]): { positions: Set<number>; notFound: string[] } {
  const position: Array<number | undefined> = wanted.map(() => undefined);
  const claimed = new Set<number>();
  const copies = new Map<string, number>();
  for (const line of wanted) copies.set(line, (copies.get(line) ?? 0) + 1);

  wanted.forEach((line, k) => {
    const found = occurrencesOf(lines, line);
    if (found.length === 1 && copies.get(line) === 1) {
      position[k] = found[0]!;
      claimed.add(found[0]!);
    }
  });

  const notFound: string[] = [];
  wanted.forEach((line, k) => {
    if (position[k] !== undefined) return;
    const candidates = occurrencesOf(lines, line, claimed);
    if (candidates.length === 0) {
      notFound.push(line);
      return;
    }
    const expected = expectedPosition(position, k);
    const chosen = expected === undefined ? candidates[candidates.length - 1]! : nearestOccurrence(candidates, [expected])!;
    position[k] = chosen;
    claimed.add(chosen);
  });
  return { positions: claimed, notFound };
}

/** Where added line k would sit if the run's block were still contiguous around a resolved neighbour. */
function expectedPosition(position: ReadonlyArray<number | undefined>, k: number): number | undefined {
  for (let j = k - 1; j >= 0; j--) if (position[j] !== undefined) return position[j]! + (k - j);
  for (let j = k + 1; j < position.length; j++) if (position[j] !== undefined) return position[j]! - (j - k);
  return undefined;
}

/**
 * Blank runs around a removal: two or more blank lines become one, and a blank line the
 * run left at the start or end of the file goes. Blank runs away from removals are kept.
 */
function tidyTouchedBlankRuns(slots: readonly Slot[]): string[] {
  const out: string[] = [];
  let i = 0;
  while (i < slots.length) {
    const slot = slots[i]!;
    if (slot !== GAP && !isBlank(slot)) {
      out.push(slot);
      i++;
      continue;
    }
    // A maximal run of blank lines and removed lines.
    const runStart = i;
    const blanks: string[] = [];
    let touched = false;
    while (i < slots.length && (slots[i] === GAP || isBlank(slots[i]!))) {
      const inRun = slots[i]!;
      if (inRun === GAP) touched = true;
      else blanks.push(inRun);
      i++;
    }
    const atEdge = runStart === 0 || i === slots.length;
    if (!touched) out.push(...blanks);
    else if (!atEdge && blanks.length > 0) out.push(blanks[0]!);
  }
  return out;
}
