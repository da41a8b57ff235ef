/** `April 5, 2026, 3:00 AM CEST`: the diary's date line, in the given zone (default: local). */
export function formatDiaryDate(date: Date, timeZone?: string): string {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    month: 'long',
    day: 'numeric',
    year: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    hour12: true,
  }).formatToParts(date);
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? '';
  return `${part('month')} ${part('day')}, ${part('year')}, ${part('hour')}:${part('minute')} ${part('dayPeriod')} ${zoneName(date, timeZone)}`;
}

/** A letter abbreviation (CEST, EDT) when some English locale has one, else `GMT+2`. */
function zoneName(date: Date, timeZone: string | undefined): string {
  const names = ['en-US', 'en-GB'].map(
    (locale) =>
      new Intl.DateTimeFormat(locale, { timeZone, timeZoneName: 'short' }).formatToParts(date).find((p) => p.type === 'timeZoneName')?.value ?? '',
  );
  return names.find((name) => /^[A-Z]{2,5}$/.test(name)) ?? names[0] ?? '';
}
