import { describe, expect, it } from 'vitest';
import { isoTimestamp } from '../src/sessions/jsonFields.js';

/** What isoTimestamp wrote before it kept canonical strings as they are: parse, then write again. */
function reparsed(value: string): string | null {
  const ms = Date.parse(value);
  return Number.isFinite(ms) ? new Date(ms).toISOString() : null;
}

describe('transcript timestamps', () => {
  it('keeps a canonical UTC time as it is, exactly as parsing and writing it again would', () => {
    const samples = [
      '2026-03-01T14:05:09.123Z',
      '2024-02-29T23:59:59.999Z',
      '0000-01-01T00:00:00.000Z',
      '9999-12-28T00:00:00.000Z',
      // Days a month does not have roll over: the long way gives the next month.
      '2026-02-29T10:00:00.000Z',
      '2026-04-31T10:00:00.000Z',
      '2026-02-30T00:00:00.000Z',
    ];
    for (let day = 1; day <= 31; day++) samples.push(`2025-11-${String(day).padStart(2, '0')}T08:00:00.000Z`);
    for (const value of samples) expect(isoTimestamp(value), value).toBe(reparsed(value));
    expect(isoTimestamp('2026-02-29T10:00:00.000Z')).toBe('2026-03-01T10:00:00.000Z');
  });

  it('normalises other forms and rejects what is not a time', () => {
    expect(isoTimestamp('2026-03-01T14:05:09+02:00')).toBe('2026-03-01T12:05:09.000Z');
    expect(isoTimestamp('2026-03-01T14:05:09Z')).toBe('2026-03-01T14:05:09.000Z');
    expect(isoTimestamp(1_772_323_200)).toBe('2026-03-01T00:00:00.000Z');
    expect(isoTimestamp(1_772_323_200_000)).toBe('2026-03-01T00:00:00.000Z');
    expect(isoTimestamp('2026-13-01T00:00:00.000Z')).toBeNull();
    expect(isoTimestamp('yesterday')).toBeNull();
    expect(isoTimestamp(null)).toBeNull();
  });
});
