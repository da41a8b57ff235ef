import { describe, expect, it } from 'vitest';
import { placePromotions } from '../src/dreaming/curated/placement.js';
import type { PromotionToWrite } from '../src/dreaming/types.js';

const MEMORY = '# Long-Term Memory\n\n## Kestrel\n- Kestrel lives in the repo ferrow/kestrel.\n\n## People\n- Priya Raman leads the payments platform team.\n';

function promotion(text: string, line: number): PromotionToWrite {
  return { candidateKey: `memory/2026-10-12.md:${line}:${line}`, path: 'memory/2026-10-12.md', startLine: line, endLine: line, text, annotations: [], score: 0.9, recallCount: 4, meanScore: 0.7, signalCount: 5, lineageKey: 'x' };
}

describe('where a promotion goes in MEMORY.md', () => {
  it('under the section whose subject it shares, else one dated block per day that a second sweep extends', () => {
    const first = placePromotions(
      MEMORY,
      [promotion('The Kestrel staging box is kes-stg-01, port 8443.', 3), promotion('Priya prefers async design reviews.', 4), promotion('The office wifi is ferrow-guest.', 5)],
      '2026-10-13',
    );
    expect(first.text).toBe(
      '# Long-Term Memory\n\n## Kestrel\n- Kestrel lives in the repo ferrow/kestrel.\n' +
        '<!-- openclaw-memory-promotion:memory:memory/2026-10-12.md:3:3 -->\n- The Kestrel staging box is kes-stg-01, port 8443. Source: memory/2026-10-12.md#L3-L3\n\n' +
        '## People\n- Priya Raman leads the payments platform team.\n' +
        '<!-- openclaw-memory-promotion:memory:memory/2026-10-12.md:4:4 -->\n- Priya prefers async design reviews. Source: memory/2026-10-12.md#L4-L4\n\n' +
        '## Promoted From Short-Term Memory (2026-10-13)\n' +
        '<!-- openclaw-memory-promotion:memory:memory/2026-10-12.md:5:5 -->\n- The office wifi is ferrow-guest. Source: memory/2026-10-12.md#L5-L5\n',
    );
    const second = placePromotions(first.text, [promotion('The coffee order goes out on Mondays.', 6)], '2026-10-13');
    expect(second.text.match(/## Promoted From Short-Term Memory/g)).toHaveLength(1);
    expect(second.text.endsWith('ferrow-guest. Source: memory/2026-10-12.md#L5-L5\n<!-- openclaw-memory-promotion:memory:memory/2026-10-12.md:6:6 -->\n- The coffee order goes out on Mondays. Source: memory/2026-10-12.md#L6-L6\n')).toBe(true);
    expect(second.added).toEqual(['<!-- openclaw-memory-promotion:memory:memory/2026-10-12.md:6:6 -->', '- The coffee order goes out on Mondays. Source: memory/2026-10-12.md#L6-L6']);
    expect(second.text).not.toMatch(/score=|signals=|recalls=/);
  });

  it('an empty MEMORY.md gets its title and the dated block', () => {
    const edit = placePromotions('', [promotion('The office wifi is ferrow-guest.', 5)], '2026-10-13');
    expect(edit.text).toBe('# Long-Term Memory\n\n## Promoted From Short-Term Memory (2026-10-13)\n<!-- openclaw-memory-promotion:memory:memory/2026-10-12.md:5:5 -->\n- The office wifi is ferrow-guest. Source: memory/2026-10-12.md#L5-L5\n');
  });
});
