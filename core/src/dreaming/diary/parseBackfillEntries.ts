import type { DiaryEntry } from '../../contract/index.js';
import { isBackfillHeading, isDreamingMarker, isSectionHeading, readBackfillMarker } from './diaryMarkers.js';
import { claim, findStop, trimBlankTail, type DiaryScan } from './diaryScan.js';

/** Backfill blocks: a backfill marker (or a bare `## Backfill:` heading) up to the next section. */
export function parseBackfillEntries(scan: DiaryScan): DiaryEntry[] {
  const entries: DiaryEntry[] = [];
  for (let i = 0; i < scan.lines.length; i++) {
    if (scan.claimed[i]) continue;
    const line = scan.lines[i]!;
    const marker = readBackfillMarker(line);
    if (marker === null && !isBackfillHeading(line)) continue;
    // The block's own `## Backfill:` heading right after its marker does not end it.
    const ownHeading = marker === null ? i : findStop(scan, i + 1, (l) => l.trim() !== '');
    const headingIndex = ownHeading < scan.lines.length && isBackfillHeading(scan.lines[ownHeading]!) ? ownHeading : i;
    const stop = findStop(scan, Math.max(i, headingIndex) + 1, (l) => isSectionHeading(l) || isDreamingMarker(l));
    const end = trimBlankTail(scan, i, stop - 1);
    const day = marker?.day ?? /^##\s+Backfill:\s*(\S+)/i.exec(scan.lines[headingIndex]!)?.[1] ?? '';
    if (marker === null) scan.problems.push(`Line ${i + 1}: a backfill section without its backfill marker.`);
    entries.push({
      kind: 'backfill',
      dateLine: day,
      date: /^\d{4}-\d{2}-\d{2}$/.test(day) && !Number.isNaN(Date.parse(day)) ? day : null,
      body: scan.lines.slice(i, end + 1).join('\n'),
      runId: null,
      startLine: i + 1,
      endLine: end + 1,
    });
    claim(scan, i, stop - 1);
    i = stop - 1;
  }
  return entries;
}
