import { describe, expect, it } from 'vitest';
import { headWordOf, tailWordOf } from '../src/graph/cueTail.js';
import { typeFromContext } from '../src/graph/typeCues.js';

describe('cue words next to a name', () => {
  it('reads the last word before trailing whitespace, lowercased, and nothing without the whitespace', () => {
    expect(tailWordOf('she lives In ')).toBe('in');
    expect(tailWordOf('a self-hosted\t')).toBe('hosted');
    expect(tailWordOf('Dr. ')).toBe('');
    expect(tailWordOf('lives in')).toBe('');
    expect(tailWordOf('')).toBe('');
  });

  it('reads the first word after leading whitespace, case kept', () => {
    expect(headWordOf(' box, rebooted')).toBe('box');
    expect(headWordOf('  CLI v2')).toBe('CLI');
    expect(headWordOf(' v2.4 shipped')).toBe('v');
    expect(headWordOf("'s box")).toBe('');
  });

  it('leaves the cues their answers (the gates only skip patterns that cannot match)', () => {
    expect(typeFromContext('We are self-hosted on ', '')).toBeNull();
    expect(typeFromContext('reachable over ', ' app')).toBe('tool');
    expect(typeFromContext('ssh into the ', ' ')).toBe('machine');
    expect(typeFromContext('staff engineer at the ', '.')).toBe('organization');
    expect(typeFromContext('weekend in ', ',')).toBe('place');
    expect(typeFromContext('', ' box')).toBe('machine');
    expect(typeFromContext('', ' HQ')).toBe('organization');
    expect(typeFromContext('', ' v2.4')).toBe('project');
    expect(typeFromContext('kicked off ', '')).toBe('project');
    expect(typeFromContext('Dr. ', '')).toBe('person');
    expect(typeFromContext('my aunt ', '')).toBe('person');
    expect(typeFromContext('won 2 - 1 ', '')).toBe('organization');
  });
});
