import { dropLines, removeRunChanges } from '../curated/undo.js';
import { splitLines } from '../curated/lines.js';
import type { RunChanges } from '../types.js';
import {
  DEEP_END,
  DEEP_START,
  DIARY_END,
  DIARY_START,
  isDeepHeading,
  isHistoryHeading,
  isSectionHeading,
  isSeparator,
  readBackfillMarker,
  readItalicDate,
  readRunMarker,
} from './diaryMarkers.js';

export interface DiaryUndo {
  text: string;
  /** The run's lines taken out (a rollback checks none of them is left). */
  removed: string[];
}

/**
 * Takes one run's lines out of a DREAMS.md that changed after the run (a later sweep wrote to
 * it, or the person edited it): the paragraphs under the run's own markers (its narrative, its
 * review notes, its backfill entries), its history item, its Deep Sleep lines put back. The
 * diary's frame (title, diary markers, headings, an entry's separator and date line) goes only
 * when nothing else lives in it any more, so later entries keep their place, OpenClaw still
 * reads the file, and a line the person typed inside the run's paragraph is kept.
 */
export function undoDiaryRun(text: string, changes: RunChanges): DiaryUndo {
  const reverted = removeRunChanges(text, { added: [], changed: changes.changed }).text;
  const split = splitLines(reverted);
  const lines = split.lines;
  const runLines = new LineCounts(changes.added);
  const drop = new Set<number>();
  const take = (i: number): boolean => {
    if (drop.has(i) || !runLines.take(lines[i]!)) return false;
    drop.add(i);
    return true;
  };

  const diary = diaryBlock(lines);
  if (diary) for (const entry of entriesOf(lines, diary.start + 1, diary.end)) undoEntry(lines, entry, take, drop);
  undoOldBackfillBlocks(lines, diary, take);
  undoHistory(lines, take, drop);
  // The Deep Sleep block is the latest run's status: a run that is not the latest wrote none of what is there now.
  const latest = lastRunMarker(lines, drop);
  if (latest === null) undoDeepBlock(lines, runLines, take, drop);

  const frame = (line: string) => line.includes(DIARY_START) || line.includes(DIARY_END) || /^#\s/.test(line);
  const contentLeft = lines.some((line, i) => !drop.has(i) && line.trim() !== '' && !frame(line));
  if (!contentLeft) lines.forEach((line, i) => frame(line) && take(i));

  const removed = [...drop].sort((a, b) => a - b).map((i) => lines[i]!);
  dropBlanksBeforeClosingMarkers(lines, drop);
  return { text: dropLines(split, drop), removed };
}

/** The last run marker left in the file (another run's), or null when none is. */
function lastRunMarker(lines: readonly string[], drop: ReadonlySet<number>): string | null {
  for (let i = lines.length - 1; i >= 0; i--) if (!drop.has(i) && readRunMarker(lines[i]!) !== null) return readRunMarker(lines[i]!);
  return null;
}

/** Writers put an entry right above the end markers: blank lines a removal leaves there go with it. */
function dropBlanksBeforeClosingMarkers(lines: readonly string[], drop: Set<number>): void {
  for (let i = 0; i < lines.length; i++) {
    if (!lines[i]!.includes(DIARY_END) && !lines[i]!.includes(DEEP_END)) continue;
    let k = i - 1;
    let touched = false;
    for (; k >= 0 && (drop.has(k) || lines[k]!.trim() === ''); k--) if (drop.has(k)) touched = true;
    if (touched) for (let j = k + 1; j < i; j++) drop.add(j);
  }
}

/** How many times each line may still be taken: one file line per line the run added. */
class LineCounts {
  private readonly counts = new Map<string, number>();
  constructor(lines: readonly string[]) {
    for (const line of lines) if (line.trim() !== '') this.counts.set(line, (this.counts.get(line) ?? 0) + 1);
  }
  /** Whether every one of `lines` (repeats counted) can still be taken. */
  covers(lines: readonly string[]): boolean {
    const need = new Map<string, number>();
    for (const line of lines) need.set(line, (need.get(line) ?? 0) + 1);
    return [...need].every(([line, n]) => (this.counts.get(line) ?? 0) >= n);
  }
  take(line: string): boolean {
    const n = this.counts.get(line) ?? 0;
    if (n === 0) return false;
    this.counts.set(line, n - 1);
    return true;
  }
}

interface Range {
  start: number;
  /** Exclusive. */
  end: number;
}

/** The last well-formed diary block (the one writers add to), as line indices of its markers. */
function diaryBlock(lines: readonly string[]): Range | null {
  const start = lines.findLastIndex((line) => line.includes(DIARY_START));
  if (start < 0) return null;
  const end = lines.findIndex((line, i) => i > start && line.includes(DIARY_END));
  return end < 0 ? null : { start, end };
}

/** Entries between the diary markers: each starts at its `---` separator (or the block start). */
function entriesOf(lines: readonly string[], from: number, to: number): Range[] {
  const entries: Range[] = [];
  let start = from;
  for (let i = from; i < to; i++) {
    if (i > start && isSeparator(lines[i]!)) {
      entries.push({ start, end: i });
      start = i;
    }
  }
  if (start < to) entries.push({ start, end: to });
  return entries;
}

/**
 * An entry is its frame (separator, italic date line) and paragraphs, each led by a marker line
 * (a run marker, a backfill marker). A paragraph whose marker the run wrote is the run's: its
 * lines go. The frame goes when the run wrote it and no one else's line is left in the entry.
 */
function undoEntry(lines: readonly string[], entry: Range, take: (i: number) => boolean, drop: ReadonlySet<number>): void {
  const frame = new Set<number>();
  let owned = false;
  let dated = false;
  for (let i = entry.start; i < entry.end; i++) {
    const line = lines[i]!;
    if (readRunMarker(line) !== null || readBackfillMarker(line) !== null) owned = take(i);
    else if (i === entry.start && isSeparator(line)) frame.add(i);
    else if (!dated && !owned && readItalicDate(line) !== null) {
      frame.add(i);
      dated = true;
    } else if (owned) take(i);
  }
  if (!rangeHasContent(lines, entry, drop, frame)) for (const i of frame) take(i);
}

/** Backfill blocks an older version wrote after the diary (marker, `## Backfill:` heading, sections). */
function undoOldBackfillBlocks(lines: readonly string[], diary: Range | null, take: (i: number) => boolean): void {
  for (let i = 0; i < lines.length; i++) {
    if (diary && i >= diary.start && i <= diary.end) continue;
    if (readBackfillMarker(lines[i]!) === null || !take(i)) continue;
    for (let k = i + 1; k < lines.length; k++) {
      const line = lines[k]!;
      const ownHeading = /^##\s+Backfill:/i.test(line) && k === i + 1;
      if (!ownHeading && (isSectionHeading(line) || line.includes('openclaw:dreaming:'))) break;
      take(k);
    }
  }
}

/** The run's `### <time>` item under the history heading; the heading too when no item is left. */
function undoHistory(lines: readonly string[], take: (i: number) => boolean, drop: ReadonlySet<number>): void {
  const heading = lines.findIndex((line) => isHistoryHeading(line));
  if (heading < 0) return;
  let end = heading + 1;
  while (end < lines.length && !isSectionHeading(lines[end]!) && !lines[end]!.includes('openclaw:dreaming:')) end++;
  let owned = false;
  for (let i = heading + 1; i < end; i++) {
    if (/^###\s/.test(lines[i]!)) owned = take(i);
    else if (owned) take(i);
  }
  if (!rangeHasContent(lines, { start: heading + 1, end }, drop, new Set())) take(heading);
}

/** A Deep Sleep block the run added, when it still holds only the run's lines (a later run rewrites it). */
function undoDeepBlock(lines: readonly string[], runLines: LineCounts, take: (i: number) => boolean, drop: ReadonlySet<number>): void {
  const start = lines.findLastIndex((line) => line.includes(DEEP_START));
  if (start < 0) return;
  const end = lines.findIndex((line, i) => i > start && line.includes(DEEP_END));
  if (end < 0) return;
  const heading = start > 0 && isDeepHeading(lines[start - 1]!) ? start - 1 : start;
  const block: number[] = [];
  for (let i = heading; i <= end; i++) if (lines[i]!.trim() !== '' && !drop.has(i)) block.push(i);
  // All or nothing: half a block would leave markers around someone else's lines, or lines without markers.
  if (runLines.covers(block.map((i) => lines[i]!))) block.forEach(take);
}

function rangeHasContent(lines: readonly string[], range: Range, drop: ReadonlySet<number>, frame: ReadonlySet<number>): boolean {
  for (let i = range.start; i < range.end; i++) if (!drop.has(i) && !frame.has(i) && lines[i]!.trim() !== '') return true;
  return false;
}
