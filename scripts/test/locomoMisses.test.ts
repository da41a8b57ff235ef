import { describe, expect, it } from 'vitest';
import type { SearchResult } from '../../core/src/contract/index.js';
import { missRecord } from '../bench/locomo.js';

const result = (path: string, snippet: string): SearchResult => ({ id: `chunk:${path}`, path, source: 'memory', startLine: 1, endLine: 1, snippet, score: 1, matchedBy: ['keyword'] });

describe('LoCoMo misses', () => {
  const turns = {
    fileOfTurn: new Map([['D1:1', 'memory/s1.md'], ['D1:2', 'memory/s1.md'], ['D2:1', 'memory/s2.md'], ['D3:1', 'memory/s3.md']]),
    lineOfTurn: new Map([['D1:1', '- [D1:1] Ann: tea'], ['D1:2', '- [D1:2] Ann: cake'], ['D2:1', '- [D2:1] Ann: Chicago'], ['D3:1', '- [D3:1] Ann: Lisbon']]),
  };
  const question = { sample: 'conv-x', category: '1', question: 'Which cities has Ann been to?' };

  it('names each evidence turn the 1,500-character page leaves out and how far it got', () => {
    const packed1500 = [result('memory/s1.md', '- [D1:1] Ann: tea')];
    const packed3500 = [result('memory/s1.md', '- [D1:1] Ann: tea'), result('memory/s2.md', '- [D2:1] Ann: Chicago')];
    const top10 = [result('memory/s1.md', '- [D1:1] Ann: tea\n- [D1:2] Ann: cake'), result('memory/s2.md', '- [D2:1] Ann: Chicago')];
    const miss = missRecord(question, ['D1:1', 'D1:2', 'D2:1', 'D3:1'], { packed1500, packed3500, top10 }, turns);
    expect(miss).toEqual({
      ...question,
      missed: [
        { id: 'D1:2', line: '- [D1:2] Ann: cake', shownAt3500: false, inTop10Snippets: true, fileInTop10: true },
        { id: 'D2:1', line: '- [D2:1] Ann: Chicago', shownAt3500: true, inTop10Snippets: true, fileInTop10: true },
        { id: 'D3:1', line: '- [D3:1] Ann: Lisbon', shownAt3500: false, inTop10Snippets: false, fileInTop10: false },
      ],
    });
  });

  it('counts a turn past the budget as missed, and gives nothing when every turn is shown', () => {
    const long = result('memory/s1.md', `${'x'.repeat(1495)} - [D1:1] Ann: tea`);
    expect(missRecord(question, ['D1:1'], { packed1500: [long], packed3500: [long], top10: [long] }, turns)?.missed.map((m) => [m.id, m.shownAt3500])).toEqual([['D1:1', true]]);
    const shown = [result('memory/s1.md', '- [D1:1] Ann: tea')];
    expect(missRecord(question, ['D1:1'], { packed1500: shown, packed3500: shown, top10: shown }, turns)).toBeNull();
  });
});
