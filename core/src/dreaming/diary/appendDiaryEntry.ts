import type { TextEdit } from '../types.js';
import { DIARY_END, DIARY_START, DIARY_TITLE, ENTRY_SEPARATOR, isSeparator, readBackfillMarker, readItalicDate, readRunMarker, runMarkerLine } from './diaryMarkers.js';
import { parseDiaryDate } from './parseDiaryDate.js';
import { insertBlock } from './insertBlock.js';
import { contentLines, eolOf, isBlank, lineTexts, splitLines } from './textLines.js';

export interface DiaryEntryToAppend {
  /** `April 5, 2026, 3:00 AM CEST` (asterisks are added). */
  dateLine: string;
  /** `dream:<id>`; null writes no run marker. */
  runId: string | null;
  narrative: string;
}

/**
 * Adds a narrative entry before the last diary block's end marker, or a paragraph to the day's
 * entry when the last one is a run's entry of the same day. An empty file gets the whole
 * layout; broken markers (no start, no end after it) get a fresh block at the end of the file,
 * so a hand-edited diary keeps every byte.
 */
export function appendDiaryEntry(text: string, entry: DiaryEntryToAppend): TextEdit {
  const start = text.lastIndexOf(DIARY_START);
  const end = start < 0 ? -1 : text.indexOf(DIARY_END, start + DIARY_START.length);
  if (end >= 0 && lastEntryIfSameDay(text.slice(start + DIARY_START.length, end), entry.dateLine)) {
    return insertBeforeEndMarker(text, start, end, continuationLines(entry), true);
  }
  return insertDiaryEntry(text, entryLines(entry));
}

/**
 * Adds an entry's lines (date line first) as the diary's last entry, with a `---` separator
 * when entries come before it: inside the last diary block, in OpenClaw's own layout.
 */
export function insertDiaryEntry(text: string, lines: string[]): TextEdit {
  if (text.trim() === '') {
    const layout = [DIARY_TITLE, '', DIARY_START, ...lines, DIARY_END];
    return { text: text + layout.join(eolOf(text)) + eolOf(text), added: contentLines(layout), changed: [] };
  }
  const start = text.lastIndexOf(DIARY_START);
  const end = start < 0 ? -1 : text.indexOf(DIARY_END, start + DIARY_START.length);
  if (end < 0) {
    const block = [DIARY_START, ...lines, DIARY_END];
    return { text: insertBlock(text, 'end', block), added: contentLines(block), changed: [] };
  }
  return insertBeforeEndMarker(text, start, end, lines);
}

/**
 * Whether the block's last entry is a run's entry of the same day (by its date line, as
 * written): a second sweep, a review or a rollback note that day extends it, so a day reads as
 * one entry. OpenClaw's own entries and backfill entries are never extended.
 */
function lastEntryIfSameDay(inner: string, dateLine: string): boolean {
  const day = parseDiaryDate(dateLine.trim().replace(/^\*+|\*+$/g, ''))?.slice(0, 10);
  if (!day) return false;
  const lines = lineTexts(inner);
  const last = lines.slice(lines.findLastIndex((line) => isSeparator(line)) + 1);
  if (!last.some((line) => readRunMarker(line) !== null) || last.some((line) => readBackfillMarker(line) !== null)) return false;
  const dated = last.map((line) => readItalicDate(line)).find((d) => d !== null);
  return dated !== undefined && dated !== null && parseDiaryDate(dated)?.slice(0, 10) === day;
}

/** A paragraph under the day's entry: its own run marker, then the words, opened by the time. */
function continuationLines(entry: DiaryEntryToAppend): string[] {
  const time = /\d{4},?\s+(.+)$/.exec(entry.dateLine.trim().replace(/^\*+|\*+$/g, ''))?.[1];
  const narrative = entry.narrative.trim().split(/\r?\n/).map(neutralizeStructure);
  if (time && narrative.length > 0) narrative[0] = `At ${time}: ${narrative[0]}`;
  return [...(entry.runId === null ? [] : [runMarkerLine(entry.runId)]), '', ...narrative];
}

function insertBeforeEndMarker(text: string, start: number, end: number, lines: string[], continues = false): TextEdit {
  const eol = eolOf(text);
  const endLine = splitLines(text).findLast((line) => line.start <= end)!;
  // A marker sharing its line with other text is reached by breaking the line just before it.
  const markerOwnsLine = text.slice(endLine.start, end).trim() === '';
  const offset = markerOwnsLine ? endLine.start : end;
  const before = text.slice(0, offset);
  const previousLine = (markerOwnsLine ? before.replace(/\r?\n$/, '') : before).split(/\r?\n/).at(-1);
  const hasEntries = text.slice(start + DIARY_START.length, end).trim() !== '';
  const spacer = isBlank(previousLine) ? [] : [''];
  const block = continues ? [...spacer, ...lines] : hasEntries ? [...spacer, ENTRY_SEPARATOR, '', ...lines] : lines;
  const insertion = (markerOwnsLine ? '' : eol) + block.join(eol) + eol;
  return { text: before + insertion + text.slice(offset), added: contentLines(block), changed: [] };
}

function entryLines(entry: DiaryEntryToAppend): string[] {
  const dateLine = `*${entry.dateLine.trim().replace(/^\*+|\*+$/g, '')}*`;
  const narrative = entry.narrative.trim().split(/\r?\n/).map(neutralizeStructure);
  return [dateLine, ...(entry.runId === null ? [] : [runMarkerLine(entry.runId)]), '', ...narrative];
}

/** Keeps narrative text from posing as a separator or a marker, which would split the diary. */
function neutralizeStructure(line: string): string {
  const trimmed = line.trimEnd();
  if (/^\s*-{3,}\s*$/.test(trimmed)) return trimmed.replace('---', '—');
  return trimmed.replaceAll('<!--', '&lt;!--');
}
