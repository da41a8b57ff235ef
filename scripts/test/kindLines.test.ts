import { describe, expect, it } from 'vitest';
import { halfOf, LABELLED_KINDS, loadKindLines, parseKindLines } from '../bench/kinds/lines.js';

describe('the entry-kind benchmark lines', () => {
  const lines = loadKindLines();

  it('has at least 300 labelled lines, every kind in both halves, about a tenth in other languages', () => {
    expect(lines.length).toBeGreaterThanOrEqual(300);
    for (const kind of LABELLED_KINDS) {
      for (const half of ['tune', 'held-out'] as const) {
        expect(lines.filter((l) => !l.lang && l.kind === kind && l.half === half).length, `${kind} in ${half}`).toBeGreaterThanOrEqual(3);
      }
    }
    const abroad = lines.filter((l) => l.lang).length / lines.length;
    expect(abroad).toBeGreaterThanOrEqual(0.08);
    expect(abroad).toBeLessThanOrEqual(0.15);
  });

  it('splits by a hash of the line text alone, so the halves never move', () => {
    for (const l of lines) expect(l.half).toBe(halfOf(l.text));
    const tune = lines.filter((l) => l.half === 'tune').length;
    expect(tune / lines.length).toBeGreaterThan(0.35);
    expect(tune / lines.length).toBeLessThan(0.65);
  });

  it('names the file and line of a malformed label', () => {
    expect(() => parseKindLines('@day 2026-11-16\nchore | - water the plants', 'x.txt')).toThrow(/x\.txt:2: unknown kind "chore"/);
    expect(() => parseKindLines('fact | - the sky is blue', 'x.txt')).toThrow(/x\.txt:1: no "@day/);
    expect(() => parseKindLines('@day 2026-11-16\nfact 2026-11-20 | - the sky is blue', 'x.txt')).toThrow(/only a time-bounded line/);
    expect(() => parseKindLines('@day 2026-11-16\nfact | - a\nfact | - a', 'x.txt')).toThrow(/x\.txt:3: the same line appears twice/);
    expect(parseKindLines('@day 2026-11-16\ntime-bounded 2026-11-20 lang=fr | - fermé jusqu’à vendredi', 'x.txt')[0]).toMatchObject({ kind: 'time-bounded', validUntil: '2026-11-20', lang: 'fr', noteDay: '2026-11-16' });
  });
});
