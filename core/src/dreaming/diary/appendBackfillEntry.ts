import type { TextEdit } from '../types.js';
import { insertDiaryEntry } from './appendDiaryEntry.js';
import { backfillMarkerLine, readBackfillMarker } from './diaryMarkers.js';
import { lineTexts } from './textLines.js';

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

/** The section labels OpenClaw's Dreams view reads in a backfill entry, in its order. */
export const BACKFILL_SECTIONS = ['What Happened', 'Reflections', 'Candidates', 'Possible Lasting Updates'] as const;

/**
 * Adds a backfill entry inside the diary markers, as OpenClaw writes one: a `---` separated
 * entry dated by its day, the backfill marker, then plain section labels with numbered or
 * bulleted items citing their note lines (OpenClaw's Dreams view reads entries only between
 * the diary markers, and only these labels). A day already backfilled from the same source is
 * left alone, so re-running is harmless.
 */
export function appendBackfillEntry(text: string, entry: BackfillEntryToAppend): TextEdit {
  const already = lineTexts(text).some((line) => {
    const marker = readBackfillMarker(line);
    return marker !== null && marker.day === entry.day && marker.source === entry.source;
  });
  if (already) return { text, added: [], changed: [] };
  return insertDiaryEntry(text, backfillLines(entry));
}

function backfillLines(entry: BackfillEntryToAppend): string[] {
  const numbered = (items: string[]) => clean(items).map((item, i) => `${i + 1}. ${item}`);
  const bulleted = (items: string[]) => clean(items).map((item) => `- ${item}`);
  const section = (label: string, lines: string[]) => (lines.length === 0 ? [] : ['', label, ...lines]);
  return [
    `*${backfillDate(entry.day)}*`,
    '',
    backfillMarkerLine(entry.day, entry.source),
    ...section(BACKFILL_SECTIONS[0], numbered(entry.whatHappened)),
    ...section(BACKFILL_SECTIONS[1], numbered(entry.reflections.length > 0 ? entry.reflections : ['No pattern across the backfilled days surfaced in this note.'])),
    ...section(BACKFILL_SECTIONS[2], entry.candidates.map((c) => `- [${c.label}] ${oneLine(c.text)} [${c.ref}]`)),
    ...section(BACKFILL_SECTIONS[3], bulleted(entry.possibleUpdates)),
  ];
}

/** `April 13, 2026`: the note's own day, never shifted by a time zone. */
export function backfillDate(day: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!match) return day;
  const noon = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]), 12));
  return new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', year: 'numeric', month: 'long', day: 'numeric' }).format(noon);
}

function clean(items: string[]): string[] {
  return items.map(oneLine).filter((item) => item !== '');
}

/** An item is one line, and never a marker or a separator that would split the diary. */
function oneLine(text: string): string {
  return text.replace(/\s*\r?\n\s*/g, ' ').trim().replaceAll('<!--', '&lt;!--');
}
