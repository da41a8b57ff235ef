/**
 * Reads a diary date line (`April 5, 2026, 3:00 AM CEST`, `5 April 2026`, `2026-04-05`) as ISO:
 * `YYYY-MM-DD`, or `YYYY-MM-DDTHH:MM:SS±HH:MM` when a time is readable (the wall time as written,
 * with the zone's offset when the zone is known, without one when it is not). Null otherwise.
 */

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

// Common abbreviations only; ambiguous ones (IST, CST in Asia) are read as the usual English meaning or left out.
const ZONE_OFFSETS: Record<string, string> = {
  UTC: '+00:00', GMT: '+00:00', Z: '+00:00', WET: '+00:00', WEST: '+01:00', BST: '+01:00',
  CET: '+01:00', CEST: '+02:00', EET: '+02:00', EEST: '+03:00', MSK: '+03:00',
  EST: '-05:00', EDT: '-04:00', CST: '-06:00', CDT: '-05:00', MST: '-07:00', MDT: '-06:00',
  PST: '-08:00', PDT: '-07:00', AKST: '-09:00', AKDT: '-08:00', HST: '-10:00',
  JST: '+09:00', KST: '+09:00', AEST: '+10:00', AEDT: '+11:00', NZST: '+12:00', NZDT: '+13:00',
};

const MONTH_WORD = '([A-Za-z]{3,9})\\.?';
const TIME = '(?:(?:,|\\s+at|,\\s*at)?\\s+(\\d{1,2})(?::(\\d{2}))?(?::(\\d{2}))?\\s*([AaPp]\\.?[Mm]\\.?)?(?:\\s+((?:GMT|UTC)[+-]\\d{1,2}(?::?\\d{2})?|[A-Za-z]{1,5}))?)?';
const MONTH_FIRST = new RegExp(`^(?:[A-Za-z]+,?\\s+)?${MONTH_WORD}\\s+(\\d{1,2})(?:st|nd|rd|th)?,?\\s+(\\d{4})${TIME}\\s*$`);
const DAY_FIRST = new RegExp(`^(?:[A-Za-z]+,?\\s+)?(\\d{1,2})(?:st|nd|rd|th)?\\s+${MONTH_WORD},?\\s+(\\d{4})${TIME}\\s*$`);
const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2}))?(?:\.\d+)?\s*(Z|[+-]\d{2}:?\d{2})?)?\s*$/;

export function parseDiaryDate(dateLine: string): string | null {
  const line = dateLine.trim();
  const iso = ISO.exec(line);
  if (iso) return build(+iso[1]!, +iso[2]!, +iso[3]!, timeOf(iso[4], iso[5], iso[6], undefined, iso[7]));
  const monthFirst = MONTH_FIRST.exec(line);
  if (monthFirst) {
    const [, month, day, year, h, m, s, ampm, zone] = monthFirst;
    return build(+year!, monthNumber(month!), +day!, timeOf(h, m, s, ampm, zone));
  }
  const dayFirst = DAY_FIRST.exec(line);
  if (dayFirst) {
    const [, day, month, year, h, m, s, ampm, zone] = dayFirst;
    return build(+year!, monthNumber(month!), +day!, timeOf(h, m, s, ampm, zone));
  }
  return null;
}

function monthNumber(word: string): number {
  return MONTHS.indexOf(word.slice(0, 3).toLowerCase()) + 1;
}

type TimeOfDay = { hour: number; minute: number; second: number; offset: string } | null | 'invalid';

function timeOf(h?: string, m?: string, s?: string, ampm?: string, zone?: string): TimeOfDay {
  // A bare number is not a time: `3` could be anything; `3:00` or `3 AM` is.
  if (h === undefined || (m === undefined && ampm === undefined)) return null;
  let hour = +h;
  const minute = m === undefined ? 0 : +m;
  const second = s === undefined ? 0 : +s;
  if (ampm !== undefined) {
    if (hour < 1 || hour > 12) return 'invalid';
    const pm = ampm.toLowerCase().startsWith('p');
    hour = (hour % 12) + (pm ? 12 : 0);
  }
  if (hour > 23 || minute > 59 || second > 59) return 'invalid';
  return { hour, minute, second, offset: zoneOffset(zone) };
}

function zoneOffset(zone: string | undefined): string {
  if (zone === undefined) return '';
  const upper = zone.toUpperCase();
  if (ZONE_OFFSETS[upper] !== undefined) return ZONE_OFFSETS[upper];
  const numeric = /^(?:GMT|UTC)?([+-])(\d{1,2}):?(\d{2})?$/.exec(upper);
  if (!numeric) return '';
  return `${numeric[1]}${pad(+numeric[2]!)}:${numeric[3] ?? '00'}`;
}

function build(year: number, month: number, day: number, time: TimeOfDay): string | null {
  if (time === 'invalid' || month < 1) return null;
  const probe = new Date(Date.UTC(year, month - 1, day));
  if (probe.getUTCFullYear() !== year || probe.getUTCMonth() !== month - 1 || probe.getUTCDate() !== day) return null;
  const date = `${year}-${pad(month)}-${pad(day)}`;
  if (time === null) return date;
  return `${date}T${pad(time.hour)}:${pad(time.minute)}:${pad(time.second)}${time.offset}`;
}

function pad(n: number): string {
  return String(n).padStart(2, '0');
}
