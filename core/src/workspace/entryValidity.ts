/**
 * When a note line stops holding, read from its wording against the day the note was written:
 * ranges ("Nov 2–6", "Thu–Sun"), ends ("until Friday", "expires Oct 30", "till 14/12", "through
 * end of Dec"), this week / today / tomorrow, absences and lines said to be temporary (an end that
 * cannot be read: null). No model; month names in five languages.
 */

/** Month-name prefixes (accents removed) in English, French, Portuguese, Spanish and German, by month. */
const MONTH_PREFIXES: ReadonlyArray<readonly string[]> = [
  ['jan', 'ene'], ['feb', 'fev'], ['mar'], ['apr', 'avr', 'abr'], ['may', 'mai'], ['juin', 'jun'],
  ['juil', 'jul'], ['aug', 'aou', 'ago'], ['sep', 'set'], ['oct', 'out', 'okt'], ['nov'], ['dec', 'dez', 'dic'],
];const MONTH =
  '(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?' +
  '|janv(?:ier)?|f[ée]vr?(?:ier)?|mars|avr(?:il)?|mai|juin|juil(?:let)?|ao[uû]t|sept(?:embre)?|oct(?:obre)?|nov(?:embre)?|d[ée]c(?:embre)?' +
  '|janeiro|fevereiro|mar[çc]o|abril|maio|junho|julho|agosto|setembro|outubro|novembro|dezembro' +
  '|enero|febrero|marzo|mayo|junio|julio|septiembre|octubre|noviembre|diciembre|januar|februar|m[äa]rz|juni|juli|oktober|dezember)\\.?';
const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];
const WEEKDAY = '(sun|mon|tue|tues|wed|thu|thur|thurs|fri|sat)(?:day|nesday|urday|sday)?';
const DASH = '\\s*(?:-|–|—|to|through|thru|till|until|au|à|a|até|al|bis)\\s*';

/** "Nov 2–6", "Nov 2 - Nov 6", "2–6 Nov": a range whose end is the validity. */
const MONTH_DAY_RANGE = new RegExp(`\\b${MONTH}\\s+(\\d{1,2})${DASH}(?:${MONTH}\\s+)?(\\d{1,2})\\b`, 'i');
const DAY_MONTH_RANGE = new RegExp(`\\b(\\d{1,2})${DASH}(\\d{1,2})\\s+(?:de\\s+)?${MONTH}`, 'i');
/** "2026-11-02 – 2026-11-06". */
const ISO_RANGE = /\b\d{4}-\d{2}-\d{2}\s*(?:-|–|—|to|through|until)\s*(\d{4})-(\d{2})-(\d{2})\b/i;
/** "until Oct 30", "ends Mar 31st", "expires Oct 30", "valid through 2026-11-06", "till Friday". */
const UNTIL = '(?:until|till|til|through|thru|expires?(?: on)?|expiring(?: on)?|expiry|valid until|ends?(?: on)?|back on|away until|runs? out(?: on)?|ran out(?: on)?|due on|deadline(?: is| on)?|jusqu.au|jusqu.à|até|hasta|bis)';
const UNTIL_MONTH_DAY = new RegExp(`\\b${UNTIL}\\s+(?:${WEEKDAY},?\\s+)?${MONTH}\\s+(\\d{1,2})(?:st|nd|rd|th)?\\b`, 'i');
const UNTIL_DAY_MONTH = new RegExp(`\\b${UNTIL}\\s+(?:the\\s+)?(\\d{1,2})(?:st|nd|rd|th)?\\s+(?:of\\s+|de\\s+)?${MONTH}`, 'i');
const UNTIL_ISO = new RegExp(`\\b${UNTIL}\\s+(\\d{4})-(\\d{2})-(\\d{2})\\b`, 'i');
const UNTIL_WEEKDAY = new RegExp(`\\b${UNTIL}\\s+(?:next\\s+)?${WEEKDAY}\\b`, 'i');
const UNTIL_END_OF = new RegExp(`\\b${UNTIL}\\s+(?:the\\s+)?end of (?:the\\s+)?(week|month|year|${MONTH})(?!\\p{L})`, 'iu');
/** "till 14/12", "valid until 15.01.2027": day first (a month first only when the day cannot be one). */
const UNTIL_NUMERIC = new RegExp(`\\b${UNTIL}\\s+(\\d{1,2})[./](\\d{1,2})(?:[./](\\d{4}|\\d{2}))?(?!\\d|[./]\\d)`, 'i');
/** "until the tech comes 7/14", "till Sofia is back on Nov 6": an end a few words after "until", at a date. */
const UNTIL_EVENT_DATE = new RegExp(`\\b(?:until|till|til)\\s+(?:[\\p{L}'’]+\\s+){1,5}?(?:on\\s+)?(?:(\\d{1,2})/(\\d{1,2})(?![\\d/])|${MONTH}\\s+(\\d{1,2})(?:st|nd|rd|th)?\\b)`, 'iu');
/** "Epic downtime Sun 5/16 01:00–05:00", "exam = Thu May 6th": a weekday and its date name one day, the day it happens and ends. */
const ON_A_DATED_DAY = new RegExp(`\\b${WEEKDAY}\\.?,?\\s+(?:(\\d{1,2})/(\\d{1,2})(?![\\d/])|${MONTH}\\s+(\\d{1,2})(?:st|nd|rd|th)?\\b)`, 'iu');
/** "until the 18th": that day of this month, or of the next when it has passed. */
// Only true ends: "due on the 10th" is usually a monthly or quarterly date, not an end.
const UNTIL_THE_NTH = /\b(?:until|till|til|through|thru|valid until|away until|back on)\s+the\s+(\d{1,2})(?:st|nd|rd|th)\b(?!\s+of\s+(?:each|every|the month))/i;
/** "Thu–Sun", "Mon–Wed next week": a range of weekdays. */
const WEEKDAY_RANGE = new RegExp(`\\b${WEEKDAY}\\.?\\s*(?:-|–|—|to|through|thru|till|until)\\s*${WEEKDAY}\\b`, 'i');
/**
 * What makes a range of weekdays one stretch of days rather than every week's pattern: a named
 * week ("next week"), someone away ("away Mon–Wed", "Rhys off Mon–Wed"), or a one-off occasion ("Workshop Tue–Thu").
 * Without one, "dinner Thu–Sun" and "educator, in Mon–Thu" are a schedule that holds every week.
 */
const ONE_STRETCH = /\b(?:this|next|last) week\b|\bweek of\b|\b(?:is|are|am|be|['’]s|['’]m)\s+(?:off|out)\b|\b(?:off|out)\s+(?:on\s+|from\s+)?(?:sun|mon|tue|wed|thu|fri|sat)|\b(?:away|gone|absent|on site|onsite|visiting|workshop|conference|course|training|trip|offsite|retreat|summit|fair|festival|audit|inspection)\b/i;
/** An appointment or a journey on a given day: "Dentist on Monday at 9", "Flight to Lisbon on Dec 10" (a bounded gap: a lazy `.*` here is quadratic on long lines). */
const APPOINTMENT = new RegExp(`\\b(?:dentist|doctor|gp|vet|hairdresser|physio|appointment|flight|flying|train|ferry|trip|travel(?:l?ing)?)\\b[^.;]{0,80}?\\bon\\s+(?:(?:next\\s+)?${WEEKDAY}\\b|${MONTH}\\s+(\\d{1,2})\\b)`, 'i');
const THIS_WEEK = /\b(this|next) week(?:end)?\b|\btomorrow\b|\btonight\b|(?<!\b(?:as of|from|since|starting|until|till) )\btoday\b/gi;
/** Said to be temporary without an end date: "Temporary: …", "for now", "while CI is broken", "until the new van arrives". */
const TEMPORARY = /^(?:temporary|temp|interim|for now|for the time being|meanwhile)\b|\b(?:temporarily|for now|for the time being|until further notice|in the meantime|(?:acting|interim) (?:head|lead|manager|admin|owner|chair)|for the next (?:few|couple of|two|three|four|\d+) (?:days|weeks|sprints|months)|during the (?:renovation|works|construction|move|strike|refit|outage|migration|holidays|closure|rebuild))\b|\bwhile (?:[\p{L}-]+\s+){1,3}(?:is|are)\s+(?:away|out|off|down|broken|closed|on leave|offline|being)\b|^until (?:the |we |it |they |our |my |\p{Lu})(?!\S*\d)(?![^,]*\b(?:end|week|month)\b)/iu;
/** Someone away for a while ("on holiday", "out of office", "de férias"): it ends, even when the note does not say when. */
const ABSENCE = /\b(?:on (?:holiday|vacation|leave|parental leave|sick leave|sabbatical|pto)|parental leave|sabbatical|out of (?:the )?office|ooo|off sick|in (?:the )?hospital|(?:is|are) away|en vacances|en congé|de férias|de folga|de licença|im urlaub|de vacaciones)\b/i;

type EndReader = (m: RegExpExecArray, base: Date | null, words: string) => string | null;

/** Each way a line can say when it ends, in the order they are tried, with how to read the last day. */
const READERS: ReadonlyArray<readonly [RegExp, EndReader]> = [
  [MONTH_DAY_RANGE, (m, base) => dayOf(base, monthIndex(m[3] ?? m[1]!), Number(m[4]))],
  [DAY_MONTH_RANGE, (m, base) => dayOf(base, monthIndex(m[3]!), Number(m[2]))],
  [ISO_RANGE, (m) => `${m[1]}-${m[2]}-${m[3]}`],
  [UNTIL_MONTH_DAY, (m, base) => dayOf(base, monthIndex(m[2]!), Number(m[3]))],
  [UNTIL_DAY_MONTH, (m, base) => dayOf(base, monthIndex(m[2]!), Number(m[1]))],
  [UNTIL_ISO, (m) => `${m[1]}-${m[2]}-${m[3]}`],
  [UNTIL_NUMERIC, (m, base) => numericDay(base, Number(m[1]), Number(m[2]), m[3])],
  [UNTIL_THE_NTH, (m, base) => nthOfMonth(base, Number(m[1]))],
  [UNTIL_EVENT_DATE, (m, base) => (m[1] ? numericDay(base, Number(m[1]), Number(m[2]), undefined) : dayOf(base, monthIndex(m[3]!), Number(m[4])))],
  [UNTIL_WEEKDAY, (m, base) => (base ? iso(nextWeekday(base, weekdayIndex(m[1]!), /next\s/i.test(m[0]))) : null)],
  [UNTIL_END_OF, (m, base) => endOf(base, m[1]!)],
  [WEEKDAY_RANGE, (m, base, words) => (base ? iso(nextWeekday(base, weekdayIndex(m[2]!), /\bnext week\b/i.test(words))) : null)],
  [APPOINTMENT, (m, base) => (m[3] ? dayOf(base, monthIndex(m[3]), Number(m[4])) : base ? iso(nextWeekday(base, weekdayIndex(m[1]!), /\bnext\s/i.test(m[0]))) : null)],
  [ON_A_DATED_DAY, (m, base) => (m[2] ? numericDay(base, Number(m[2]), Number(m[3]), undefined) : dayOf(base, monthIndex(m[4]!), Number(m[5])))],
  [THIS_WEEK, (_m, base, words) => latestOfThisWeek(base, words)],
  [ABSENCE, () => null],
  [TEMPORARY, () => null],
];

/**
 * The readers that match only after an UNTIL word, and one test that such a word is there at all:
 * most lines have none, and six scans of the line for it were a third of timeBound's cost. The
 * test is looser than each reader (no `\b`; `u`, whose case folding matches all that `i` alone
 * does), so it never skips a reader that would have matched.
 */
const AFTER_UNTIL_WORD: ReadonlySet<RegExp> = new Set([UNTIL_MONTH_DAY, UNTIL_DAY_MONTH, UNTIL_ISO, UNTIL_WEEKDAY, UNTIL_END_OF, UNTIL_NUMERIC, UNTIL_THE_NTH, UNTIL_EVENT_DATE]);
const UNTIL_WORD = new RegExp(`${UNTIL}\\s`, 'iu');
/** The readers that cannot match without a digit (a day's number, a year): three lines in four have none. */
const NEEDS_DIGIT: ReadonlySet<RegExp> = new Set([MONTH_DAY_RANGE, DAY_MONTH_RANGE, ISO_RANGE, UNTIL_MONTH_DAY, UNTIL_DAY_MONTH, UNTIL_ISO, UNTIL_NUMERIC, UNTIL_THE_NTH, UNTIL_EVENT_DATE, ON_A_DATED_DAY]);
const DIGIT = /\d/;
/**
 * The readers that cannot match without a weekday, and the three letters every WEEKDAY way starts
 * with: looser than each (no `\b`; `u` folds all that `i` alone does), so it never skips a match.
 */
const NEEDS_WEEKDAY: ReadonlySet<RegExp> = new Set([UNTIL_WEEKDAY, WEEKDAY_RANGE, ON_A_DATED_DAY]);
const WEEKDAY_START = /sun|mon|tue|wed|thu|fri|sat/iu;
/** THIS_WEEK's words without its look-behind (the same looser reading). */
const THIS_WEEK_WORD = /week|tomorrow|tonight|today/iu;
/**
 * Words one of TEMPORARY's ways must contain, tested first: most lines have none, and this look
 * costs less than TEMPORARY's scan. Looser than TEMPORARY (no `\b`, the same `iu` case folding),
 * so it never skips a line TEMPORARY would match.
 */
const TEMPORARY_WORD = /temp|interim|for now|for the time being|meanwhile|until|meantime|acting|for the next|during the|while/iu;

/** A line that says when it stops holding; null when it says no such thing. */
export function timeBound(words: string, noteDay: string | null): { validUntil: string | null; cue: string } | null {
  let untilWord: boolean | undefined;
  let digit: boolean | undefined;
  let weekday: boolean | undefined;
  for (const [pattern, read] of READERS) {
    if (NEEDS_DIGIT.has(pattern) && !(digit ??= DIGIT.test(words))) continue;
    if (AFTER_UNTIL_WORD.has(pattern) && !(untilWord ??= UNTIL_WORD.test(words))) continue;
    if (NEEDS_WEEKDAY.has(pattern) && !(weekday ??= WEEKDAY_START.test(words))) continue;
    if (pattern === THIS_WEEK && !THIS_WEEK_WORD.test(words)) continue;
    if (pattern === TEMPORARY && !TEMPORARY_WORD.test(words)) continue;
    pattern.lastIndex = 0;
    const match = pattern.exec(words);
    // A range of weekdays counts only as one stretch of days; the range is the rarer of the two, so it is looked for first.
    if (match && pattern === WEEKDAY_RANGE && !ONE_STRETCH.test(words) && !ABSENCE.test(words)) continue;
    if (match) return { validUntil: read(match, noteDayBase(noteDay), words), cue: match[0].trim() };
  }
  return null;
}

/** Noon of the note's day, what a relative end is read against; null without one. Only a line that names an end needs it. */
function noteDayBase(noteDay: string | null): Date | null {
  return noteDay && /^\d{4}-\d{2}-\d{2}$/.test(noteDay) ? new Date(`${noteDay}T12:00:00Z`) : null;
}

/** The last day the line holds, read against the day its note was written (for the year and weekdays). */
export function validityOf(words: string, noteDay: string | null): string | null {
  return timeBound(words, noteDay)?.validUntil ?? null;
}

/** "today and tomorrow", "this week": the latest of them. */
function latestOfThisWeek(base: Date | null, words: string): string | null {
  if (!base) return null;
  let latest: string | null = null;
  // A fresh copy: the shared pattern's lastIndex was moved by the exec that found the line.
  for (const m of words.matchAll(new RegExp(THIS_WEEK.source, 'gi'))) {
    const word = m[0].toLowerCase();
    const sunday = nextWeekday(base, 0, false);
    const day = word === 'tomorrow' ? addDays(base, 1) : word === 'tonight' || word === 'today' ? base : word.startsWith('next') ? addDays(sunday, 7) : sunday;
    if (latest === null || iso(day) > latest) latest = iso(day);
  }
  return latest;
}

function endOf(base: Date | null, what: string): string | null {
  if (!base) return null;
  const unit = what.toLowerCase();
  if (unit === 'week') return iso(nextWeekday(base, 0, false));
  if (unit === 'month') return iso(new Date(Date.UTC(base.getUTCFullYear(), base.getUTCMonth() + 1, 0, 12)));
  if (unit === 'year') return `${base.getUTCFullYear()}-12-31`;
  const first = dayOf(base, monthIndex(what), 1);
  if (!first) return null;
  const [y, mo] = first.split('-').map(Number);
  return iso(new Date(Date.UTC(y!, mo!, 0, 12)));
}

/** Day first ("14/12"), unless only the other way round makes a date ("12/14"). */
function numericDay(base: Date | null, a: number, b: number, year: string | undefined): string | null {
  const [day, month] = b <= 12 ? [a, b] : [b, a];
  if (month < 1 || month > 12 || day < 1 || day > 31) return null;
  if (year) return iso(new Date(Date.UTC(year.length === 2 ? 2000 + Number(year) : Number(year), month - 1, day, 12)));
  return dayOf(base, month - 1, day);
}

function nthOfMonth(base: Date | null, day: number): string | null {
  if (!base || day < 1 || day > 31) return null;
  const month = day >= base.getUTCDate() ? base.getUTCMonth() : base.getUTCMonth() + 1;
  return iso(new Date(Date.UTC(base.getUTCFullYear(), month, day, 12)));
}

function monthIndex(name: string): number {
  const plain = name.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
  return MONTH_PREFIXES.findIndex((prefixes) => prefixes.some((p) => plain.startsWith(p)));
}

function weekdayIndex(name: string): number {
  return WEEKDAYS.findIndex((d) => d.startsWith(name.slice(0, 3).toLowerCase()));
}

/** A month and day with no year: the one on or after the note's day, within the next ~10 months. */
function dayOf(base: Date | null, month: number, day: number): string | null {
  if (month < 0 || day < 1 || day > 31) return null;
  if (!base) return null;
  let year = base.getUTCFullYear();
  // "Jan 5" in a December note is next January; "Nov 6" in a Nov 2 note is this year.
  if (month < base.getUTCMonth() - 1) year++;
  return iso(new Date(Date.UTC(year, month, day, 12)));
}

/** The given weekday on or after `base` (strictly after a week on with `next`). */
function nextWeekday(base: Date, weekday: number, next: boolean): Date {
  const ahead = (weekday - base.getUTCDay() + 7) % 7;
  return addDays(base, ahead + (next ? 7 : 0));
}

function addDays(d: Date, days: number): Date {
  return new Date(d.getTime() + days * 86_400_000);
}

function iso(d: Date): string {
  return d.toISOString().slice(0, 10);
}
