import { describe, expect, it } from 'vitest';
import type { SearchResult } from '../src/contract/index.js';
import { packToBudget, type PackableResult } from '../src/search/budgetPacking.js';
import { answerLikelihood, speakerOf, type LineFacts } from '../src/search/lineValue.js';
import type { SnippetTerm } from '../src/search/snippet.js';

const terms = (...words: string[]): SnippetTerm[] => words.map((w) => ({ forms: [w], weight: 1 }));

function item(path: string, startLine: number, lines: string[], score: number): PackableResult {
  const result: SearchResult = { id: `chunk:${path}:${startLine}`, path, source: 'memory', startLine, endLine: startLine + lines.length - 1, snippet: lines.join('\n').slice(0, 700), score, matchedBy: ['keyword'] };
  return { hit: { path, start_line: startLine, text: lines.join('\n') }, result };
}

const filler = (i: number): string => `- [${i}] Sam: the weather stayed grey and we mostly talked about the kettle, the bus and the rain again.`;

describe('packToBudget', () => {
  it('keeps the reply to a matching question, the answer, over filler beside it', () => {
    const chat = [filler(1), filler(2), '- [3] Ann: Ah, they are adorable! What are their names? Pets bring joy!', '- [4] Ben: Luna and Oliver! They are so sweet and playful.', filler(5), filler(6)];
    const packed = packToBudget([item('memory/chat.md', 1, chat, 1)], terms('names', 'pets'), 200);
    expect(packed).toHaveLength(1);
    expect(packed[0]!.snippet).toContain('Luna and Oliver');
    expect(packed[0]!.snippet).toContain('What are their names?');
    expect(packed[0]!.snippet).not.toContain('kettle');
  });

  it('fits the budget, shows each line once across overlapping results, and joins runs apart with "…"', () => {
    const lines = Array.from({ length: 12 }, (_, i) => (i === 1 || i === 9 ? `- [${i}] Ann: the canary rollout went out on day ${i}, finally.` : filler(i)));
    const first = item('memory/a.md', 1, lines.slice(0, 8), 2);
    const second = item('memory/a.md', 5, lines.slice(4), 1);
    for (const budget of [60, 150, 400, 3000]) {
      const packed = packToBudget([first, second], terms('canary', 'rollout'), budget);
      const total = packed.reduce((n, r) => n + r.snippet.length, 0) + Math.max(0, packed.length - 1);
      expect(total).toBeLessThanOrEqual(budget);
      const shown = packed.flatMap((r) => r.snippet.split('\n').filter((l) => l !== '…'));
      expect(new Set(shown).size).toBe(shown.length);
    }
    const both = packToBudget([first, second], terms('canary', 'rollout'), 150);
    expect(both.map((r) => r.snippet).join('\n')).toContain('day 1,');
    expect(both.map((r) => r.snippet).join('\n')).toContain('day 9,');
    // Within one result, two matching lines far apart are shown together, the filler between left out.
    const apart = packToBudget([item('memory/a.md', 1, lines, 1)], terms('canary', 'rollout'), 150);
    expect(apart).toHaveLength(1);
    expect(apart[0]!.snippet).toBe(`${lines[1]}\n…\n${lines[9]}`);
    expect([apart[0]!.startLine, apart[0]!.endLine]).toEqual([2, 10]);
  });

  it("lets a result's lines take more than a whole result's 700 characters when the budget has room", () => {
    const long = (i: number): string => `- [${i}] Ann: the canary rollout on day ${i} went region by region, ${'with careful checks of every dashboard '.repeat(3)}and no paging at all.`;
    const lines = Array.from({ length: 8 }, (_, i) => long(i));
    expect(lines.join('\n').length).toBeGreaterThan(1000);
    const [whole] = packToBudget([item('memory/a.md', 1, lines, 1)], terms('canary', 'rollout'), 5000);
    expect(whole!.snippet).toBe(lines.join('\n'));
    // Within a smaller budget the same result is cut to whole lines that fit it.
    const [part] = packToBudget([item('memory/a.md', 1, lines, 1)], terms('canary', 'rollout'), 800);
    expect(part!.snippet.length).toBeLessThanOrEqual(800);
    expect(part!.snippet.length).toBeGreaterThan(700 - long(0).length);
    for (const line of part!.snippet.split('\n')) expect(line === '…' || lines.includes(line)).toBe(true);
  });

  it("spreads the budget across results: a later result's best line before the top result's further matches", () => {
    // The top result holds many matching lines; a second result (another session) holds one.
    const mention = (i: number): string => `- [${i}] Ann: the canary rollout reached region ${i} today without trouble.`;
    const top = Array.from({ length: 16 }, (_, i) => (i % 2 === 0 ? mention(i) : filler(i)));
    const other = [filler(100), '- [101] Ann: the canary rollout in the other session went fine as well.', filler(102)];
    const budget = 8 * (mention(10).length + 3);
    const packed = packToBudget([item('memory/a.md', 1, top, 1), item('memory/b.md', 1, other, 0.9)], terms('canary', 'rollout'), budget);
    expect(packed.map((r) => r.path)).toEqual(['memory/a.md', 'memory/b.md']);
    expect(packed[1]!.snippet).toBe(other[1]);
    // The top result still shows more of its matches than any other result.
    expect(packed[0]!.snippet.split('\n').filter((l) => l.includes('canary')).length).toBeGreaterThan(1);
  });

  it("in a gathering question, spends the budget on the named person's own lines before someone else's", () => {
    // "What has Ann painted?": Ben's line in the better result matches as well, but only Ann's answers.
    const first = item('memory/s1.md', 1, ['- [1] Ann: The weather was grey all weekend.', '- [2] Ben: I painted the old fence blue, it took all of Sunday.'], 1);
    const second = item('memory/s2.md', 1, ['- [7] Ben: How was the trip?', '- [8] Ann: Lovely. I finished a small painting of the lake at dawn while I was there.'], 0.7);
    const asked: SnippetTerm[] = [{ forms: ['ann'], weight: 0.05 }, { forms: ['paint'], weight: 1 }];
    const budget = 90;
    expect(packToBudget([first, second], asked, budget, false).map((r) => r.snippet)).toEqual(['- [2] Ben: I painted the old fence blue, it took all of Sunday.']);
    expect(packToBudget([first, second], asked, budget, true).map((r) => r.snippet)).toEqual(['- [8] Ann: Lovely. I finished a small painting of the lake at dawn while I was there.']);
    // A gathering question naming no one on the page packs as any other.
    const unnamed = terms('paint');
    expect(packToBudget([first, second], unnamed, budget, true)).toEqual(packToBudget([first, second], unnamed, budget, false));
  });

  it('shows blank lines between chosen lines as they are, and gives back nothing when no line fits', () => {
    const note = ['# Garden', '', '- Planted the heirloom tomatoes by the fence.'];
    const packed = packToBudget([item('memory/g.md', 1, note, 1)], terms('garden', 'tomatoes'), 500);
    expect(packed[0]!.snippet).toBe(note.join('\n'));
    expect(packToBudget([item('memory/g.md', 1, note, 1)], terms('tomatoes'), 5)).toEqual([]);
    expect(packToBudget([], terms('tomatoes'), 500)).toEqual([]);
    // No query weight at all (only stop words): lines are still rated by rank and length, never a crash.
    expect(packToBudget([item('memory/g.md', 1, note, 1)], [], 500).length).toBe(1);
  });
});

describe('line rating', () => {
  const facts: LineFacts = { rank: 0, relativeScore: 1, share: 0.5, bestShareInResult: 0.5, previousShare: 0, previousAsks: false, nextShare: 0, chars: 120, asks: false, heading: false, speakerNamed: false };
  it('rates a matching line above a non-matching one, a better result above a worse one, a reply to a matching question above small talk', () => {
    expect(answerLikelihood(facts)).toBeGreaterThan(answerLikelihood({ ...facts, share: 0 }));
    expect(answerLikelihood(facts)).toBeGreaterThan(answerLikelihood({ ...facts, rank: 5, relativeScore: 0.5 }));
    const reply = { ...facts, share: 0, previousShare: 0.8 };
    expect(answerLikelihood({ ...reply, previousAsks: true })).toBeGreaterThan(answerLikelihood({ ...reply, previousAsks: false }));
    for (const f of [facts, { ...facts, share: 1, chars: 0 }, { ...facts, bestShareInResult: 0, share: 0 }]) {
      const p = answerLikelihood(f);
      expect(p).toBeGreaterThan(0);
      expect(p).toBeLessThan(1);
    }
  });

  it('reads the speaker of chat and transcript lines', () => {
    expect(speakerOf('- [D7:18] Melanie: Luna and Oliver!')).toBe('melanie');
    expect(speakerOf('Jon Snow: winter is coming')).toBe('jon snow');
    expect(speakerOf('* Zoë: ça va')).toBe('zoë');
    expect(speakerOf('Ünal: merhaba')).toBe('ünal');
    expect(speakerOf('The plan: ship it on Friday and then rest for a while')).toBeNull();
    expect(speakerOf('Note to self — no colon here')).toBeNull();
  });
});
