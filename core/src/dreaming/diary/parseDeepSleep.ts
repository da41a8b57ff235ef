import { DEEP_END, DEEP_START, isDeepHeading, isDreamingMarker, isSectionHeading } from './diaryMarkers.js';
import { claim, findStop, type DiaryScan } from './diaryScan.js';

/**
 * The deep sleep lines (bullet markers removed). With several blocks the last well-formed one
 * counts, as that is the one the writer replaces; a `## Deep Sleep` without markers still reads.
 */
export function parseDeepSleep(scan: DiaryScan): string[] {
  const blocks: string[][] = [];
  for (let i = 0; i < scan.lines.length; i++) {
    if (scan.claimed[i] || !scan.lines[i]!.includes(DEEP_START)) continue;
    const close = findStop(scan, i + 1, (line) => line.includes(DEEP_END) || line.includes(DEEP_START));
    const closed = close < scan.lines.length && scan.lines[close]!.includes(DEEP_END);
    const stop = closed ? close : findStop(scan, i + 1, (line) => isSectionHeading(line) || isDreamingMarker(line));
    if (!closed) scan.problems.push(`Line ${i + 1}: the deep sleep start marker has no end marker.`);
    blocks.push(bulletTexts(scan.lines.slice(i + 1, stop)));
    claim(scan, i, closed ? close : stop - 1);
    i = closed ? close : stop - 1;
  }
  const unmarked = parseUnmarkedDeepHeading(scan, blocks.length === 0);
  if (blocks.length > 1) scan.problems.push(`${blocks.length} deep sleep blocks were found; the last one is shown.`);
  return blocks.at(-1) ?? unmarked;
}

/** Claims `## Deep Sleep` headings; reads the bullets under one only when no marked block exists. */
function parseUnmarkedDeepHeading(scan: DiaryScan, useIt: boolean): string[] {
  let lines: string[] = [];
  for (let i = 0; i < scan.lines.length; i++) {
    if (scan.claimed[i] || !isDeepHeading(scan.lines[i]!)) continue;
    scan.claimed[i] = true;
    if (!useIt) continue;
    const stop = findStop(scan, i + 1, (line, k) => scan.claimed[k] === true || isSectionHeading(line) || isDreamingMarker(line));
    scan.problems.push(`Line ${i + 1}: "## Deep Sleep" has no deep sleep markers; its lines were read anyway.`);
    lines = bulletTexts(scan.lines.slice(i + 1, stop));
    claim(scan, i, stop - 1);
  }
  return lines;
}

function bulletTexts(lines: string[]): string[] {
  return lines.map((line) => line.trim().replace(/^[-*]\s+/, '')).filter((line) => line !== '');
}
