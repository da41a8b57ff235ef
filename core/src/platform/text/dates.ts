/**
 * Dates written in a query or in a note's lines (index/lineDates.ts): "on 25 May, 2022", "May
 * 25th", "in August 2023", "last Saturday", "yesterday", as day ranges, so they can be matched against dated file names
 * (`memory/2023-08-14.md`) instead of as words: the words "25", "may" and "2022" say little
 * about which lines answer the question, the note's date says a lot.
 */
export type DatePrecision = 'day' | 'month' | 'year';

export interface QueryDate {
  /** Inclusive UTC day range, as `YYYY-MM-DD`. */
  from: string;
  to: string;
  precision: DatePrecision;
  /** When the year was not written ("May 25", "in December"): any year matches. */
  anyYear: boolean;
  /** The matched text in the query. */
  text: string;
}

export interface QueryDates {
  dates: QueryDate[];
  /** The query with the date expressions blanked out (same length, so offsets stay valid). */
  rest: string;
}

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];
const MONTH_ABBR = MONTHS.map((m) => m.slice(0, 3));
const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];
const DAY_MS = 86_400_000;

// "sept" and three-letter forms too; "may" and "march" only count next to a day or a year (below).
const MONTH_NAME = '(january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec)';
const MONTH = `${MONTH_NAME}\\.?`;
const DAY = '(\\d{1,2})(?:st|nd|rd|th)?';
const YEAR = '((?:19|20)\\d{2})';
const PATTERNS: Array<{ re: RegExp; make: (m: RegExpExecArray) => Omit<QueryDate, 'text'> | null }> = [
  // 2023-05-25 is handled as a file name elsewhere, but it is still a date.
  { re: /\b((?:19|20)\d{2})-(\d{2})-(\d{2})\b/gi, make: (m) => day(+m[1]!, +m[2]!, +m[3]!) },
  { re: new RegExp(`\\b${DAY}\\s+(?:of\\s+)?${MONTH},?\\s+${YEAR}\\b`, 'gi'), make: (m) => day(+m[3]!, month(m[2]!), +m[1]!) },
  { re: new RegExp(`\\b${MONTH}\\s+${DAY},?\\s*${YEAR}\\b`, 'gi'), make: (m) => day(+m[3]!, month(m[1]!), +m[2]!) },
  { re: new RegExp(`\\b${MONTH},?\\s+${YEAR}\\b`, 'gi'), make: (m) => monthRange(+m[2]!, month(m[1]!)) },
  { re: new RegExp(`\\b${DAY}\\s+(?:of\\s+)?${MONTH}\\b`, 'gi'), make: (m) => anyYearDay(month(m[2]!), +m[1]!) },
  { re: new RegExp(`\\b${MONTH}\\s+${DAY}\\b(?!\\s*(?::|[ap]m\\b|%))`, 'gi'), make: (m) => anyYearDay(month(m[1]!), +m[2]!) },
  // A bare month name only after "in"/"during"/"since" ("in December"): "may" and "march" are also words.
  { re: new RegExp(`\\b(?:in|during|since|until|through)\\s+(?:early\\s+|late\\s+|mid-?\\s*)?${MONTH}\\b`, 'gi'), make: (m) => anyYearMonth(month(m[1]!)) },
  { re: new RegExp(`\\b(?:in|during|since|of)\\s+${YEAR}\\b`, 'gi'), make: (m) => yearRange(+m[1]!) },
];

/**
 * Where in `text`, from `from` on, a day might be named, or -1 when no day but today can be:
 * every pattern here needs a year ("2023", "1999-05-25"), a month's name or abbreviation as a
 * word ("May", "sept.", "midmarch"), "ago", "back", "yesterday", or "last"/"this"/"past"/"next"
 * before a weekday, week(end), month, year or night. One regex over a whole note where
 * parseDatesOn runs a dozen per line: index/lineDates.ts parses only the lines it points at.
 * A new pattern must keep this true (lineDatesPrefilter.test.ts checks it).
 */
export function nextPlaceThatMayNameADay(text: string, from: number): number {
  MAY_NAME_A_DAY.lastIndex = from;
  return MAY_NAME_A_DAY.exec(text)?.index ?? -1;
}

const MAY_NAME_A_DAY = new RegExp(
  [
    '(?:19|20)\\d{2}\\b',
    '\\b(?:ago|back|yesterday)\\b',
    '\\b(?:last|this|past|next)\\s+(?:sunday|monday|tuesday|wednesday|thursday|friday|saturday|week|weekend|month|year|night)\\b',
    `\\b(?:mid-?)?${MONTH_NAME}\\b`,
  ].join('|'),
  'gi',
);

const TODAY_OR_YESTERDAY = /\b(today|yesterday|last\s+night|(?:the\s+)?day\s+before\s+yesterday)\b/gi;
const LAST_OR_THIS = /\b(last|this|past)\s+(sunday|monday|tuesday|wednesday|thursday|friday|saturday|week(?:end)?|month|year)\b/gi;
const DAYS_AGO = /\b(\d{1,2}|a|one|two|three|four|five|six|seven)\s+(day|week)s?\s+ago\b/gi;
const NEXT = /\b(next)\s+(sunday|monday|tuesday|wednesday|thursday|friday|saturday|week(?:end)?|month|year)\b/gi;
const NOTE_AGO = /\b(\d{1,2}|a|one|two|three|four|five|six|seven|a\s+few|a\s+couple\s+of|couple\s+of|several)\s+(day|week|month|year)s?\s+(ago|back)\b/gi;

/** Every match of the global `re` in `text`, as matchAll finds them, without the copy of the regex matchAll makes at each call. */
function matchesOf(re: RegExp, text: string): RegExpExecArray[] {
  const out: RegExpExecArray[] = [];
  re.lastIndex = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    out.push(m);
    if (m[0] === '') re.lastIndex++;
  }
  return out;
}

/** Finds the dates written in `query`; relative ones ("yesterday", "last Saturday") count from `now`. */
export function parseQueryDates(query: string, now: number = Date.now()): QueryDates {
  // Daily notes are named by the local date: "today" is the local calendar day.
  const local = new Date(now);
  return parseDatesOn(query, Date.UTC(local.getFullYear(), local.getMonth(), local.getDate()), false);
}

/**
 * The dates written in `text`, relative ones ("two weeks ago", "last Friday", "next month")
 * counted from `today` (UTC midnight of the day the text speaks from: a note's own date).
 */
export function parseDatesOn(query: string, today: number, inNotes = true): QueryDates {
  const dates: QueryDate[] = [];
  // Each character's state: free, taken by a date, or part of an impossible date. In a note an
  // impossible date ("31 February 2023") is no date: no shorter pattern reads part of it either.
  // A question keeps the lenient reading (its month), as a person meant something.
  const state = new Uint8Array(query.length);
  const take = (index: number, text: string, date: Omit<QueryDate, 'text'> | null): void => {
    for (let i = index; i < index + text.length; i++) if (state[i] !== FREE) return;
    if (!date) {
      if (inNotes) state.fill(IMPOSSIBLE, index, index + text.length);
      return;
    }
    state.fill(TAKEN, index, index + text.length);
    dates.push({ ...date, text });
  };
  for (const { re, make } of PATTERNS) {
    for (const m of matchesOf(re, query)) take(m.index, m[0], make(m));
  }
  for (const m of matchesOf(TODAY_OR_YESTERDAY, query)) {
    const back = /before/i.test(m[0]) ? 2 : /yesterday|night/i.test(m[0]) ? 1 : 0;
    take(m.index, m[0], rangeOf(today - back * DAY_MS, today - back * DAY_MS, 'day'));
  }
  for (const m of matchesOf(LAST_OR_THIS, query)) {
    take(m.index, m[0], relative(m[1]!.toLowerCase(), m[2]!.toLowerCase(), today));
  }
  // Notes only: in a question these forms keep their words (measured on LoCoMo's tuning folds,
  // reading "4 years ago" in a question as a date cost recall), so questions read as before.
  if (inNotes) readNoteForms(query, today, take);
  for (const m of matchesOf(DAYS_AGO, query)) {
    const n = /^\d+$/.test(m[1]!) ? Number(m[1]) : NUMBER_WORDS.indexOf(m[1]!.toLowerCase()) || 1;
    const days = n * (m[2]!.toLowerCase() === 'week' ? 7 : 1);
    const center = today - days * DAY_MS;
    // "three days ago" is rarely exact: a day either side.
    take(m.index, m[0], rangeOf(center - DAY_MS, center + DAY_MS, 'day'));
  }
  let rest = dates.length === 0 ? query : '';
  if (dates.length > 0) for (let i = 0; i < query.length; i++) rest += state[i] === TAKEN ? ' ' : query[i];
  return { dates, rest };
}

const FREE = 0;
const TAKEN = 1;
const IMPOSSIBLE = 2;

/** "next Friday", "two months ago", "a few weeks back": the ways notes speak of other days. */
function readNoteForms(query: string, today: number, take: (index: number, text: string, date: Omit<QueryDate, 'text'> | null) => void): void {
  for (const m of matchesOf(NEXT, query)) {
    take(m.index, m[0], ahead(m[2]!.toLowerCase(), today));
  }
  for (const m of matchesOf(NOTE_AGO, query)) {
    const word = m[1]!.toLowerCase().replace(/\s+/g, ' ');
    const vague = /few|couple|several/.test(word);
    const n = /^\d+$/.test(word) ? Number(word) : vague ? 3 : NUMBER_WORDS.indexOf(word) || 1;
    take(m.index, m[0], ago(n, m[2]!.toLowerCase(), today, vague));
  }
}

/** Whether a note dated `date` (`YYYY-MM-DD`) falls inside `q`. */
export function dateMatches(q: QueryDate, date: string): boolean {
  if (!q.anyYear) return date >= q.from && date <= q.to;
  const md = date.slice(5);
  return md >= q.from.slice(5) && md <= q.to.slice(5);
}

function month(name: string): number {
  const n = name.toLowerCase().replace(/\.$/, '');
  const full = MONTHS.indexOf(n);
  if (full >= 0) return full + 1;
  return MONTH_ABBR.indexOf(n === 'sept' ? 'sep' : n) + 1;
}

function valid(y: number, m: number, d: number): boolean {
  const t = Date.UTC(y, m - 1, d);
  const date = new Date(t);
  return m >= 1 && m <= 12 && date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

function day(y: number, m: number, d: number): Omit<QueryDate, 'text'> | null {
  if (!valid(y, m, d)) return null;
  const t = Date.UTC(y, m - 1, d);
  return rangeOf(t, t, 'day');
}

function anyYearDay(m: number, d: number): Omit<QueryDate, 'text'> | null {
  // 2000 is a leap year, so 29 February is a valid any-year day.
  const r = day(2000, m, d);
  return r && { ...r, anyYear: true };
}

function monthRange(y: number, m: number): Omit<QueryDate, 'text'> | null {
  if (m < 1) return null;
  return rangeOf(Date.UTC(y, m - 1, 1), Date.UTC(y, m, 0), 'month');
}

function anyYearMonth(m: number): Omit<QueryDate, 'text'> | null {
  const r = monthRange(2000, m);
  return r && { ...r, anyYear: true };
}

function yearRange(y: number): Omit<QueryDate, 'text'> {
  return rangeOf(Date.UTC(y, 0, 1), Date.UTC(y, 11, 31), 'year');
}

function relative(which: string, unit: string, today: number): Omit<QueryDate, 'text'> {
  const past = which !== 'this';
  const dow = new Date(today).getUTCDay();
  const weekday = WEEKDAYS.indexOf(unit);
  if (weekday >= 0) {
    // "last Saturday": the most recent Saturday before today; "this Saturday": the one of this week.
    let back = (dow - weekday + 7) % 7;
    if (past && back === 0) back = 7;
    const t = today - back * DAY_MS;
    return rangeOf(t, t, 'day');
  }
  // Weeks run Monday to Sunday.
  const monday = today - ((dow + 6) % 7) * DAY_MS;
  if (unit === 'week') return past ? rangeOf(monday - 7 * DAY_MS, monday - DAY_MS, 'day') : rangeOf(monday, today, 'day');
  if (unit === 'weekend') {
    const saturday = monday + 5 * DAY_MS;
    return past && saturday >= today ? rangeOf(saturday - 7 * DAY_MS, saturday - 6 * DAY_MS, 'day') : rangeOf(saturday, saturday + DAY_MS, 'day');
  }
  const d = new Date(today);
  if (unit === 'month') {
    const m = d.getUTCMonth() - (past ? 1 : 0);
    return rangeOf(Date.UTC(d.getUTCFullYear(), m, 1), Date.UTC(d.getUTCFullYear(), m + 1, 0), 'month');
  }
  return yearRange(d.getUTCFullYear() - (past ? 1 : 0));
}

const NUMBER_WORDS = ['a', 'one', 'two', 'three', 'four', 'five', 'six', 'seven'];

/** "two weeks ago", "a few months ago": rarely exact, so a range around the day (wider when the count is vague). */
function ago(n: number, unit: string, today: number, vague: boolean): Omit<QueryDate, 'text'> {
  if (unit === 'day' || unit === 'week') {
    const days = n * (unit === 'week' ? 7 : 1);
    const center = today - days * DAY_MS;
    const slack = vague ? Math.ceil(days / 2) : unit === 'week' ? 3 : 1;
    return rangeOf(center - slack * DAY_MS, Math.min(today, center + slack * DAY_MS), 'day');
  }
  const d = new Date(today);
  if (unit === 'month') {
    const back = vague ? [n + 1, n - 2] : [n, n];
    return rangeOf(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - back[0]!, 1), Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - back[1]! + 1, 0), 'month');
  }
  return vague ? rangeOf(Date.UTC(d.getUTCFullYear() - n - 1, 0, 1), Date.UTC(d.getUTCFullYear() - 1, 11, 31), 'year') : yearRange(d.getUTCFullYear() - n);
}

/** "next Friday", "next week", "next month", "next year". */
function ahead(unit: string, today: number): Omit<QueryDate, 'text'> {
  const dow = new Date(today).getUTCDay();
  const weekday = WEEKDAYS.indexOf(unit);
  if (weekday >= 0) {
    const t = today + (((weekday - dow + 7) % 7) || 7) * DAY_MS;
    return rangeOf(t, t, 'day');
  }
  const nextMonday = today + (7 - ((dow + 6) % 7)) * DAY_MS;
  if (unit === 'week') return rangeOf(nextMonday, nextMonday + 6 * DAY_MS, 'day');
  if (unit === 'weekend') return rangeOf(nextMonday + 5 * DAY_MS, nextMonday + 6 * DAY_MS, 'day');
  const d = new Date(today);
  if (unit === 'month') return rangeOf(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1), Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 2, 0), 'month');
  return yearRange(d.getUTCFullYear() + 1);
}

function rangeOf(from: number, to: number, precision: DatePrecision): Omit<QueryDate, 'text'> {
  return { from: iso(from), to: iso(to), precision, anyYear: false };
}

function iso(t: number): string {
  return new Date(t).toISOString().slice(0, 10);
}
