import type { DiaryEntry } from '../../contract/index.js';
import { isSeparator, readBackfillMarker, readItalicDate, readRunMarker } from './diaryMarkers.js';
import type { DiaryScan } from './diaryScan.js';
import { parseDiaryDate } from './parseDiaryDate.js';

/**
 * Narrative entries in lines `from`…`to` (0-based, inclusive): split at `---`, and also at a
 * second italic date line when a separator is missing. Empty pieces (stray `---`) are noted.
 */
export function parseNarrativeEntries(scan: DiaryScan, from: number, to: number): DiaryEntry[] {
  const entries: DiaryEntry[] = [];
  let chunkStart = from;
  for (let i = from; i <= to + 1; i++) {
    const atEnd = i > to;
    if (!atEnd && !isSeparator(scan.lines[i]!)) continue;
    const pieces = splitAtDateLines(scan, chunkStart, i - 1);
    if (pieces.length === 0 && !atEnd) scan.problems.push(`Line ${i + 1}: a stray "---" with no entry before it was ignored.`);
    for (const [start, end] of pieces) entries.push(toEntry(scan, start, end));
    chunkStart = i + 1;
  }
  return entries;
}

/** Non-blank [start, end] ranges, each opening at an italic date line when one is present. */
function splitAtDateLines(scan: DiaryScan, from: number, to: number): Array<[number, number]> {
  const pieces: Array<[number, number]> = [];
  let start = -1;
  let end = -1;
  for (let i = from; i <= to; i++) {
    const line = scan.lines[i]!;
    if (line.trim() === '') continue;
    if (start >= 0 && readItalicDate(line) !== null) {
      pieces.push([start, end]);
      start = -1;
    }
    if (start < 0) start = i;
    end = i;
  }
  if (start >= 0) pieces.push([start, end]);
  return pieces;
}

function toEntry(scan: DiaryScan, start: number, end: number): DiaryEntry {
  const dateLine = readItalicDate(scan.lines[start]!);
  if (dateLine === null) scan.problems.push(`Line ${start + 1}: a diary entry without an italic date line; its date is unknown.`);
  // A day's entry holds one paragraph per run that day (a second sweep, a review note), each under its marker.
  const runIds: string[] = [];
  const bodyLines: string[] = [];
  // OpenClaw's backfill entries sit among the others, told apart by their marker.
  let backfillDay: string | null | undefined;
  for (let i = dateLine === null ? start : start + 1; i <= end; i++) {
    const line = scan.lines[i]!;
    const marker = readRunMarker(line);
    const backfill = readBackfillMarker(line);
    if (backfill !== null) backfillDay ??= backfill.day;
    else if (marker === null) bodyLines.push(line);
    else if (!runIds.includes(marker)) runIds.push(marker);
  }
  while (bodyLines.length > 0 && bodyLines[0]!.trim() === '') bodyLines.shift();
  const day = backfillDay && /^\d{4}-\d{2}-\d{2}$/.test(backfillDay) ? backfillDay : null;
  return {
    kind: backfillDay === undefined ? 'narrative' : 'backfill',
    dateLine: dateLine ?? backfillDay ?? '',
    date: day ?? (dateLine === null ? null : parseDiaryDate(dateLine)),
    body: bodyLines.join('\n'),
    runId: runIds[0] ?? null,
    runIds,
    startLine: start + 1,
    endLine: end + 1,
  };
}
