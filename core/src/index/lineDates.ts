/**
 * Dates a note's lines speak of, resolved against the note's own date at index time: "two weeks
 * ago I read 'Avalanche'" in the note of 4 February 2023 is about 21 January 2023, so a question
 * about January 2023 can find that line although no word of it names the month. Expressions
 * that name no time ("some time ago", "back then") and impossible dates ("31 February") resolve
 * to nothing; a note without a date (in its file name or front matter) gets no line dates.
 */
import { nextPlaceThatMayNameADay, parseDatesOn, type DatePrecision, type QueryDate } from '../platform/text/dates.js';

export interface LineDate {
  /** 1-based line of the note. */
  line: number;
  /** Inclusive UTC day range, `YYYY-MM-DD`. */
  from: string;
  to: string;
  precision: DatePrecision;
}

/** Stored in the index's meta: a change of the rules below re-reads every note's dates at the next sync. */
export const LINE_DATES_VERSION = '1';
/** Lines longer than this are not read for dates (a pasted blob, not a sentence). */
const MAX_LINE_CHARS = 4_000;
/** At most this many dated lines per note: a generated log of dates is not what this is for. */
const MAX_DATES_PER_NOTE = 2_000;
/** A daily note's date in its file name, as search reads it (`memory/2023-02-04.md`, `2023-02-04-standup.md`). */
const DATE_IN_NAME = /(?:^|\/)(\d{4})-(\d{2})-(\d{2})(?:[-_.][^/]*)?\.md$/i;
const FRONT_MATTER_DATE = /^date:\s*["']?(\d{4})-(\d{2})-(\d{2})\b/m;
const DAY_MS = 86_400_000;

/** The note's date: from its file name (`2023-02-04.md`), else a `date:` line in its front matter, else null. */
export function noteDay(path: string, text: string): number | null {
  const named = DATE_IN_NAME.exec(path);
  if (named) return validDay(+named[1]!, +named[2]!, +named[3]!);
  if (!text.startsWith('---')) return null;
  const end = text.indexOf('\n---', 3);
  const m = FRONT_MATTER_DATE.exec(end > 0 ? text.slice(0, end) : '');
  return m ? validDay(+m[1]!, +m[2]!, +m[3]!) : null;
}

function validDay(y: number, m: number, d: number): number | null {
  const t = Date.UTC(y, m - 1, d);
  const date = new Date(t);
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d ? t : null;
}

/** Every line's resolved dates, in line order (none for an undated note). */
export function resolveLineDates(path: string, text: string): LineDate[] {
  const day = noteDay(path, text);
  if (day === null) return [];
  const out: LineDate[] = [];
  // A line about the note's own day ("today", a heading with the date) says no more than the note's date.
  const own = new Date(day).toISOString().slice(0, 10);
  // Only the lines where a day may be named are read (most name none): `line` is the 0-based
  // number of the line starting at `start`.
  let line = 0;
  let start = 0;
  for (let at = nextPlaceThatMayNameADay(text, 0); at >= 0 && out.length < MAX_DATES_PER_NOTE; at = nextPlaceThatMayNameADay(text, start)) {
    let end = text.indexOf('\n', start);
    while (end >= 0 && end < at) {
      start = end + 1;
      line++;
      end = text.indexOf('\n', start);
    }
    if (end < 0) end = text.length;
    const lineText = text.slice(start, end);
    if (lineText.length <= MAX_LINE_CHARS && /\d|ago|yesterday|last|next|this|in\s|during/i.test(lineText)) {
      const seen = new Set<string>();
      for (const date of parseDatesOn(lineText, day).dates) {
        const resolved = date.anyYear ? nearestYear(date, day) : date;
        const key = `${resolved.from}/${resolved.to}`;
        if (seen.has(key) || (resolved.from === own && resolved.to === own)) continue;
        seen.add(key);
        out.push({ line: line + 1, from: resolved.from, to: resolved.to, precision: resolved.precision });
      }
    }
    if (end === text.length) break;
    start = end + 1;
    line++;
  }
  return out;
}

/** "in March", "on May 25" in a note: the year that puts it nearest the note's date. */
function nearestYear(date: QueryDate, day: number): QueryDate {
  const year = new Date(day).getUTCFullYear();
  let best = date;
  let bestDistance = Infinity;
  for (const y of [year - 1, year, year + 1]) {
    const from = `${y}${date.from.slice(4)}`;
    const to = `${y}${date.to.slice(4)}`;
    // 29 February of a year without one is no date.
    if (Number.isNaN(Date.parse(from)) || new Date(Date.parse(from)).toISOString().slice(0, 10) !== from) continue;
    const lastDay = new Date(Date.UTC(y, Number(date.to.slice(5, 7)), 0)).toISOString().slice(0, 10);
    const end = to > lastDay && date.precision === 'month' ? lastDay : to;
    const distance = Math.min(Math.abs(Date.parse(from) - day), Math.abs(Date.parse(end) - day)) / DAY_MS;
    if (distance < bestDistance) {
      bestDistance = distance;
      best = { ...date, from, to: end, anyYear: false };
    }
  }
  return best;
}
