import type { ConsolidationHistoryItem } from '../../contract/index.js';
import type { TextEdit } from '../types.js';
import { HISTORY_HEADING, isDreamingMarker, isHistoryHeading, isSectionHeading } from './diaryMarkers.js';
import { insertBlock } from './insertBlock.js';
import { contentLines, lineTexts } from './textLines.js';

/** Adds a history item above the others (newest first); creates the section at the end if missing. */
export function prependHistoryItem(text: string, item: ConsolidationHistoryItem): TextEdit {
  const block = historyItemLines(item);
  const lines = lineTexts(text);
  const heading = lines.findIndex((line) => isHistoryHeading(line));
  if (heading < 0) {
    const section = [HISTORY_HEADING, '', ...block];
    return { text: insertBlock(text, 'end', section), added: contentLines(section), changed: [] };
  }
  let at = heading + 1;
  while (at < lines.length && !/^###\s/.test(lines[at]!) && !isSectionHeading(lines[at]!) && !isDreamingMarker(lines[at]!)) at++;
  return { text: insertBlock(text, at < lines.length ? at : 'end', block), added: contentLines(block), changed: [] };
}

/** Highlights keep a leading `+ `/`- `; one without a sign is an addition. */
function historyItemLines(item: ConsolidationHistoryItem): string[] {
  return [
    `### ${item.at}`,
    `- Added: ${item.added}`,
    `- Merged: ${item.merged}`,
    `- Superseded: ${item.superseded}`,
    '- Highlights:',
    ...item.highlights.map((h) => h.trim()).filter((h) => h !== '').map((h) => `  - ${/^[+-]\s/.test(h) ? h : `+ ${h}`}`),
  ];
}
