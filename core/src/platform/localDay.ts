const DAY_MS = 86_400_000;

/** The person's calendar day (local time) of a moment, `YYYY-MM-DD`. */
export function localDay(at: number | Date): string {
  const d = typeof at === 'number' ? new Date(at) : at;
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

export function daysAgo(now: number, days: number): number {
  return now - days * DAY_MS;
}

export function ageInDays(now: number, then: number): number {
  return Math.max(0, (now - then) / DAY_MS);
}
