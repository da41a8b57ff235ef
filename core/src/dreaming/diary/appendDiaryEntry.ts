import type { TextEdit } from '../types.js';
import { DIARY_END, DIARY_START, DIARY_TITLE, ENTRY_SEPARATOR, runMarkerLine } from './diaryMarkers.js';
import { insertBlock } from './insertBlock.js';
import { contentLines, eolOf, isBlank, splitLines } from './textLines.js';

export interface DiaryEntryToAppend {
  /** `April 5, 2026, 3:00 AM CEST` (asterisks are added). */
  dateLine: string;
  /** `dream:<id>`; null writes no run marker. */
  runId: string | null;
  narrative: string;
}

/**
 * Adds a narrative entry before the last diary block's end marker. An empty file gets the whole
 * layout; broken markers (no start, no end after it) get a fresh block at the end of the file,
 * so a hand-edited diary keeps every byte.
 */
export function appendDiaryEntry(text: string, entry: DiaryEntryToAppend): TextEdit {
  const lines = entryLines(entry);
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

function insertBeforeEndMarker(text: string, start: number, end: number, lines: string[]): TextEdit {
  const eol = eolOf(text);
  const endLine = splitLines(text).findLast((line) => line.start <= end)!;
  // A marker sharing its line with other text is reached by breaking the line just before it.
  const markerOwnsLine = text.slice(endLine.start, end).trim() === '';
  const offset = markerOwnsLine ? endLine.start : end;
  const before = text.slice(0, offset);
  const previousLine = (markerOwnsLine ? before.replace(/\r?\n$/, '') : before).split(/\r?\n/).at(-1);
  const hasEntries = text.slice(start + DIARY_START.length, end).trim() !== '';
  const block = hasEntries ? [...(isBlank(previousLine) ? [] : ['']), ENTRY_SEPARATOR, '', ...lines] : lines;
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
