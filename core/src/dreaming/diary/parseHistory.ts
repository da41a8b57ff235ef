import type { ConsolidationHistoryItem } from '../../contract/index.js';
import { isDreamingMarker, isHistoryHeading, isSectionHeading } from './diaryMarkers.js';
import { claim, findStop, type DiaryScan } from './diaryScan.js';

const COUNT = /^\s*[-*]\s+(Added|Merged|Superseded):\s*(\d+)\s*$/i;
const HIGHLIGHTS = /^\s*[-*]\s+Highlights:\s*$/i;
const HIGHLIGHT = /^\s+[-*]\s+(.*\S)\s*$/;

/**
 * `## Memory Consolidation History` items (`### <ISO time>`), in file order (newest first).
 * Highlights keep their sign: `+ text` was added, `- text` was replaced or removed.
 */
export function parseHistory(scan: DiaryScan): ConsolidationHistoryItem[] {
  const items: ConsolidationHistoryItem[] = [];
  for (let i = 0; i < scan.lines.length; i++) {
    if (scan.claimed[i] || !isHistoryHeading(scan.lines[i]!)) continue;
    const stop = findStop(scan, i + 1, (line) => isSectionHeading(line) || isDreamingMarker(line));
    items.push(...parseItems(scan, i + 1, stop));
    claim(scan, i, stop - 1);
    i = stop - 1;
  }
  return items;
}

function parseItems(scan: DiaryScan, from: number, stop: number): ConsolidationHistoryItem[] {
  const items: ConsolidationHistoryItem[] = [];
  let current: (ConsolidationHistoryItem & { seen: Set<string>; line: number; inHighlights: boolean }) | null = null;
  const finish = () => {
    if (current === null) return;
    const missing = ['added', 'merged', 'superseded'].filter((key) => !current!.seen.has(key));
    if (missing.length > 0) scan.problems.push(`Line ${current.line}: history item "${current.at}" has no ${missing.join('/')} count; read as 0.`);
    items.push({ at: current.at, added: current.added, merged: current.merged, superseded: current.superseded, highlights: current.highlights });
  };
  for (let i = from; i < stop; i++) {
    const line = scan.lines[i]!;
    const heading = /^###\s+(.*\S)\s*$/.exec(line);
    if (heading) {
      finish();
      current = { at: heading[1]!, added: 0, merged: 0, superseded: 0, highlights: [], seen: new Set(), line: i + 1, inHighlights: false };
      continue;
    }
    if (current === null) continue;
    const count = COUNT.exec(line);
    if (count) {
      const key = count[1]!.toLowerCase() as 'added' | 'merged' | 'superseded';
      current[key] = Number(count[2]);
      current.seen.add(key);
      current.inHighlights = false;
    } else if (HIGHLIGHTS.test(line)) current.inHighlights = true;
    else if (current.inHighlights && HIGHLIGHT.test(line)) current.highlights.push(HIGHLIGHT.exec(line)![1]!);
  }
  finish();
  return items;
}
