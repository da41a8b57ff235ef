import type { DiaryEntry } from '../../contract/index.js';
import { DIARY_END, DIARY_START, isDreamingMarker, isSectionHeading, readItalicDate } from './diaryMarkers.js';
import { claim, findStop, type DiaryScan } from './diaryScan.js';
import { parseNarrativeEntries } from './parseNarrativeEntries.js';

/**
 * Entries inside `diary:start`/`diary:end` blocks. A start without an end reads up to the next
 * section heading or marker (and says so); a start after the last end starts a new block.
 */
export function parseMarkedDiaryBlocks(scan: DiaryScan): DiaryEntry[] {
  const entries: DiaryEntry[] = [];
  for (let i = 0; i < scan.lines.length; i++) {
    if (scan.claimed[i] || !scan.lines[i]!.includes(DIARY_START)) continue;
    const close = findStop(scan, i + 1, (line) => line.includes(DIARY_END) || line.includes(DIARY_START));
    if (close < scan.lines.length && scan.lines[close]!.includes(DIARY_END)) {
      entries.push(...parseNarrativeEntries(scan, i + 1, close - 1));
      claim(scan, i, close);
      i = close;
      continue;
    }
    const stop = findStop(scan, i + 1, (line) => isSectionHeading(line) || isDreamingMarker(line));
    scan.problems.push(
      `Line ${i + 1}: the diary start marker has no end marker; entries were read up to ${stop < scan.lines.length ? `line ${stop}` : 'the end of the file'}.`,
    );
    entries.push(...parseNarrativeEntries(scan, i + 1, stop - 1));
    claim(scan, i, stop - 1);
    i = stop - 1;
  }
  return entries;
}

/** Italic-dated entries outside any marked block (a diary whose start marker was lost). */
export function parseUnmarkedEntries(scan: DiaryScan): DiaryEntry[] {
  const entries: DiaryEntry[] = [];
  for (let i = 0; i < scan.lines.length; i++) {
    if (scan.claimed[i] || readItalicDate(scan.lines[i]!) === null) continue;
    const stop = findStop(scan, i + 1, (line, k) => scan.claimed[k] === true || isSectionHeading(line) || isDreamingMarker(line));
    scan.problems.push(`Lines ${i + 1}–${stop}: diary entries outside the diary start/end markers were read anyway.`);
    entries.push(...parseNarrativeEntries(scan, i, stop - 1));
    claim(scan, i, stop - 1);
    i = stop - 1;
  }
  for (let i = 0; i < scan.lines.length; i++) {
    if (!scan.claimed[i] && scan.lines[i]!.includes(DIARY_END)) scan.problems.push(`Line ${i + 1}: a diary end marker without a start marker before it.`);
  }
  return entries;
}
