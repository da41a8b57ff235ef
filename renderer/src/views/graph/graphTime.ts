/** Day arithmetic on `YYYY-MM-DD` strings, in UTC (no time zones in the slider). */
const DAY_MS = 86_400_000;

function toUtc(day: string): number {
  const [y, m, d] = day.slice(0, 10).split('-').map(Number);
  return Date.UTC(y ?? 1970, (m ?? 1) - 1, d ?? 1);
}

export function daysBetween(from: string, to: string): number {
  return Math.round((toUtc(to) - toUtc(from)) / DAY_MS);
}

export function addDays(day: string, days: number): string {
  return new Date(toUtc(day) + days * DAY_MS).toISOString().slice(0, 10);
}
