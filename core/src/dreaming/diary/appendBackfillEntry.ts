import type { TextEdit } from '../types.js';
import { backfillMarkerLine, DEEP_START, DIARY_END, isDeepHeading, isHistoryHeading, readBackfillMarker } from './diaryMarkers.js';
import { insertBlock } from './insertBlock.js';
import { contentLines, lineTexts } from './textLines.js';

export type BackfillLabel = 'likely_durable' | 'likely_situational' | 'unclear';

export interface BackfillEntryToAppend {
  /** `YYYY-MM-DD` */
  day: string;
  /** The daily note it was read from, e.g. `memory/2026-04-04.md`. */
  source: string;
  whatHappened: string[];
  reflections: string[];
  candidates: Array<{ label: BackfillLabel; text: string; ref: string }>;
  possibleUpdates: string[];
}

/**
 * Adds a backfill block after the diary (before Deep Sleep or the history section, else at the
 * end). A day already backfilled from the same source is left alone, so re-running is harmless.
 */
export function appendBackfillEntry(text: string, entry: BackfillEntryToAppend): TextEdit {
  const lines = lineTexts(text);
  const already = lines.some((line) => {
    const marker = readBackfillMarker(line);
    return marker !== null && marker.day === entry.day && marker.source === entry.source;
  });
  if (already) return { text, added: [], changed: [] };
  const diaryEnd = lines.findLastIndex((line) => line.includes(DIARY_END));
  const before = lines.findIndex((line, i) => i > diaryEnd && (isDeepHeading(line) || line.includes(DEEP_START) || isHistoryHeading(line)));
  const block = backfillLines(entry);
  return { text: insertBlock(text, before >= 0 ? before : 'end', block), added: contentLines(block), changed: [] };
}

function backfillLines(entry: BackfillEntryToAppend): string[] {
  const bullets = (items: string[]) => items.map((item) => item.trim()).filter((item) => item !== '').map((item) => `- ${oneLine(item)}`);
  return [
    backfillMarkerLine(entry.day, entry.source),
    `## Backfill: ${entry.day}`,
    '',
    '### What Happened',
    ...bullets(entry.whatHappened),
    '',
    '### Reflections',
    ...bullets(entry.reflections),
    '',
    '### Candidates',
    ...entry.candidates.map((c) => `- [${c.label}] ${oneLine(c.text)} [${c.ref}]`),
    '',
    '### Possible Lasting Updates',
    ...bullets(entry.possibleUpdates),
  ];
}

/** A bullet is one line; a newline inside an item would start stray text. */
function oneLine(text: string): string {
  return text.replace(/\s*\r?\n\s*/g, ' ').trim();
}
