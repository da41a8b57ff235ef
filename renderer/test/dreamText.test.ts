import { describe, expect, it } from 'vitest';
import { describeRun, formatAgainstGate, runStartFromId, withRunsNamed } from '../src/views/dreams/dreamText.js';

describe('formatAgainstGate', () => {
  it('shows a score just under its gate with the digits that make it fail visibly', () => {
    expect(formatAgainstGate(0.747, 0.75)).toBe('0.747');
    expect(formatAgainstGate(0.7499, 0.75)).toBe('0.7499');
    expect(formatAgainstGate(0.75, 0.75)).toBe('0.75');
    expect(formatAgainstGate(0.81, 0.75)).toBe('0.81');
    expect(formatAgainstGate(0.2, 0)).toBe('0.20');
  });
});

describe('run names', () => {
  it('names a run by its start time, never by its id', () => {
    expect(runStartFromId('dream:20261130T030000Z-a1b2c3')).toBe('2026-11-30T03:00:00Z');
    expect(runStartFromId('something-else')).toBeNull();
    expect(describeRun('dream:20261130T030000Z-a1b2c3')).toMatch(/^the run of /);
    expect(describeRun('dream:20261130T030000Z-a1b2c3')).not.toContain('dream:');
    expect(describeRun('odd')).toBe('a dream run');
    const text = withRunsNamed('dream run dream:20261130T030000Z-a1b2c3; also rolled back by dream:20261201T030000Z-ffffff');
    expect(text).not.toMatch(/dream:\d/);
    expect(text).toMatch(/^the run of .+; also rolled back by the run of /);
  });
});
