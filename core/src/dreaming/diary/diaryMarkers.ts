/** The markers and headings of OpenClaw's DREAMS.md, and tests on single lines of it. */

export const DIARY_TITLE = '# Dream Diary';
export const DIARY_START = '<!-- openclaw:dreaming:diary:start -->';
export const DIARY_END = '<!-- openclaw:dreaming:diary:end -->';
export const DEEP_START = '<!-- openclaw:dreaming:deep:start -->';
export const DEEP_END = '<!-- openclaw:dreaming:deep:end -->';
export const DEEP_HEADING = '## Deep Sleep';
export const HISTORY_HEADING = '## Memory Consolidation History';
export const ENTRY_SEPARATOR = '---';

const BACKFILL_MARKER = /<!--\s*openclaw:dreaming:backfill-entry\b([^>]*?)-->/;
const RUN_MARKER = /<!--\s*reverie:dream-run\s+(\S+?)\s*-->/;
const ITALIC_DATE = /^\s*(?:\*(?!\*)([^*]*\d[^*]*)\*|_(?!_)([^_]*\d[^_]*)_)\s*$/;

export function runMarkerLine(runId: string): string {
  return `<!-- reverie:dream-run ${runId} -->`;
}

export function backfillMarkerLine(day: string, source: string): string {
  return `<!-- openclaw:dreaming:backfill-entry day=${day} source=${source} -->`;
}

/** `day` and `source` of a backfill marker line, or null when the line is not one. */
export function readBackfillMarker(line: string): { day: string | null; source: string | null } | null {
  const match = BACKFILL_MARKER.exec(line);
  if (!match) return null;
  const attrs = match[1] ?? '';
  return { day: /\bday=(\S+)/.exec(attrs)?.[1] ?? null, source: /\bsource=(\S+)/.exec(attrs)?.[1] ?? null };
}

export function readRunMarker(line: string): string | null {
  return RUN_MARKER.exec(line)?.[1] ?? null;
}

/** The words of an italic date line (`*April 5, 2026, 3:00 AM CEST*`), or null. */
export function readItalicDate(line: string): string | null {
  const match = ITALIC_DATE.exec(line);
  return match ? (match[1] ?? match[2] ?? '').trim() : null;
}

export function isSeparator(line: string): boolean {
  return /^\s*-{3,}\s*$/.test(line);
}

/** `#` or `##` headings end a section; `###` sub-headings do not. */
export function isSectionHeading(line: string): boolean {
  return /^#{1,2}\s/.test(line);
}

export function isHistoryHeading(line: string): boolean {
  return /^##\s+Memory Consolidation History\s*$/i.test(line);
}

export function isDeepHeading(line: string): boolean {
  return /^##\s+Deep Sleep\s*$/i.test(line);
}

export function isBackfillHeading(line: string): boolean {
  return /^##\s+Backfill:/i.test(line);
}

/** Any OpenClaw dreaming marker: a block boundary for lenient parsing. */
export function isDreamingMarker(line: string): boolean {
  return line.includes('openclaw:dreaming:');
}
