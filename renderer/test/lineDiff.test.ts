import { describe, expect, it } from 'vitest';
import { MAX_DIFF_LINES, diffLines, withContext } from '../src/views/memory/lineDiff.js';

describe('conflict diff', () => {
  it('marks lines only on disk and only in the edit, keeping order', () => {
    const disk = '# Day\n\nRewritten by another program.\n';
    const yours = '# Day\n\n- Drafted the plan.\n- My words.\n';
    expect(diffLines(disk, yours)).toEqual([
      { kind: 'same', text: '# Day' },
      { kind: 'same', text: '' },
      { kind: 'yours', text: '- Drafted the plan.' },
      { kind: 'yours', text: '- My words.' },
      { kind: 'disk', text: 'Rewritten by another program.' },
      { kind: 'same', text: '' },
    ]);
  });

  it('collapses long unchanged stretches and refuses texts too long to compare', () => {
    const lines = Array.from({ length: 20 }, (_, i) => `line ${i}`);
    const edited = [...lines];
    edited[10] = 'changed';
    const shown = withContext(diffLines(lines.join('\n'), edited.join('\n'))!, 1);
    expect(shown).toEqual([
      { kind: 'gap', count: 9 },
      { kind: 'same', text: 'line 9' },
      { kind: 'yours', text: 'changed' },
      { kind: 'disk', text: 'line 10' },
      { kind: 'same', text: 'line 11' },
      { kind: 'gap', count: 8 },
    ]);
    expect(diffLines('x\n'.repeat(MAX_DIFF_LINES + 1), 'y')).toBeNull();
  });

  it('compares a long note whose differences sit in one stretch: only that stretch counts against the limit', () => {
    const lines = Array.from({ length: 3 * MAX_DIFF_LINES }, (_, i) => `- Item ${i}`);
    const yours = [...lines];
    yours[5_000] = '- Item 5000, edited';
    const diff = diffLines(lines.join('\n'), yours.join('\n'));
    expect(diff?.filter((line) => line.kind !== 'same')).toEqual([
      { kind: 'yours', text: '- Item 5000, edited' },
      { kind: 'disk', text: '- Item 5000' },
    ]);
    expect(diff).toHaveLength(lines.length + 1);
    // Changes at both ends of a long note leave the whole note between them to compare: refused.
    const far = [...lines];
    far[0] = 'first, edited';
    far[far.length - 1] = 'last, edited';
    expect(diffLines(lines.join('\n'), far.join('\n'))).toBeNull();
  });
});
