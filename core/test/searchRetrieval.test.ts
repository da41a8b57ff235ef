import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MemoryService } from '../src/engine/memoryService.js';
import { parseQueryDates } from '../src/platform/text/dates.js';
import { asks } from '../src/search/snippet.js';
import { createTempWorkspace, openService, type TempWorkspace } from './helpers/workspace.js';

/** `YYYY-MM-DD` of the local calendar day `daysAgo` days before today. */
function localDay(daysAgo: number): string {
  const d = new Date();
  d.setDate(d.getDate() - daysAgo);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

const long = (s: string): string => `${s} ${'Some more words about the afternoon, the weather and the walk home afterwards.'.repeat(2)}`;

let ws: TempWorkspace;
let service: MemoryService;

beforeAll(async () => {
  ws = createTempWorkspace({
    // A conversation where the question carries the query's words and the answer does not.
    'memory/2025-06-02-chat.md': [
      '# Chat with Sam',
      '',
      long('- Mia: The boiler made that noise again this morning.'),
      long('- Sam: Boilers are like that in old flats, mine does it too.'),
      long('- Mia: I called someone about the boiler yesterday.'),
      '- Sam: What did the plumber say about the boiler?',
      '- Mia: He said the pressure valve needs replacing before winter.',
      long('- Sam: Good to know, thanks.'),
    ].join('\n'),
    // Daily notes that a date in the question should find.
    'memory/2025-03-03.md': '# 2025-03-03\n\n- Cooked a big pot of lentil soup with the kids.\n- Cooked rice for the week.\n- Cooked again in the evening.\n',
    'memory/2025-03-04.md': '# 2025-03-04\n\n- Cooked risotto with mushrooms from the market.\n',
    'memory/2025-04-10.md': '# 2025-04-10\n\n- Cooked pancakes on a lazy morning.\n',
    [`memory/${localDay(1)}.md`]: `# ${localDay(1)}\n\n- Repotted the fig tree on the balcony.\n`,
    [`memory/${localDay(30)}.md`]: `# ${localDay(30)}\n\n- Repotted the fig tree and the basil on the balcony.\n- The fig tree needs a bigger pot.\n`,
    // Irregular verb forms.
    'memory/2025-05-01.md': '# 2025-05-01\n\n- We bought the brass lamp at the flea market.\n',
    'memory/2025-05-02.md': '# 2025-05-02\n\n- The brass lamp flickers; the lamp shop is closed on Mondays.\n',
    // One long note split into overlapping chunks (lines 1-25, 22-44, …), matching in the overlap.
    'memory/2025-07-01-log.md': [
      '# Log',
      '',
      ...Array.from({ length: 60 }, (_, i) =>
        i >= 16 && i <= 26 && i % 2 === 0 ? `- Entry ${i}: the zeppelin hangar inspection found rust on the gantry.` : `- Entry ${i}: routine checks, all fine, nothing to report today.`,
      ),
    ].join('\n'),
  });
  for (let i = 0; i < 40; i++) ws.write(`memory/filler/f${i}.md`, `# Filler ${i}\n\n- Routine checks, all fine. The weather was mild and the walk home was nice.\n`);
  service = openService(ws);
  await service.invoke('index.sync', { force: false });
});
afterAll(async () => {
  await service.close();
  ws.cleanup();
});

const search = async (query: string, extra: object = {}) =>
  (await service.invoke('memory.search', { query, ...extra })).results;

describe('line-focused snippets', () => {
  it('shows the answer after a matching question line', async () => {
    const [top] = await search('what did the plumber say about the boiler?');
    expect(top?.path).toBe('memory/2025-06-02-chat.md');
    expect(top?.snippet).toContain('What did the plumber say about the boiler?');
    expect(top?.snippet).toContain('pressure valve needs replacing');
    expect(top!.snippet.length).toBeLessThanOrEqual(700);
  });

  it('knows when a line asks', () => {
    expect(asks('- Sam: What did the plumber say?')).toBe(true);
    expect(asks('- Sam: Did you see this? [image: a photo of a boiler]')).toBe(true);
    expect(asks('He asked "why?"')).toBe(true);
    expect(asks('- Is this a question? No, it says so.')).toBe(false);
    expect(asks('- The plumber came.')).toBe(false);
  });

  it('does not show the same lines twice when overlapping chunks of a file both match', async () => {
    const results = (await search('zeppelin hangar rust', { limit: 10 })).filter((r) => r.path === 'memory/2025-07-01-log.md');
    expect(results.length).toBeGreaterThan(1);
    expect(results[0]!.snippet).toContain('zeppelin hangar');
    for (let i = 0; i < results.length; i++) {
      for (let j = i + 1; j < results.length; j++) {
        const [a, b] = [results[i]!, results[j]!];
        expect(a.startLine <= b.endLine && b.startLine <= a.endLine).toBe(false);
      }
    }
  });
});

describe('query handling', () => {
  it('matches irregular forms of a word ("buy" finds "bought")', async () => {
    const [top] = await search('where did we buy the brass lamp?');
    expect(top?.path).toBe('memory/2025-05-01.md');
    expect(top?.snippet).toContain('bought');
  });

  it('reads dates in the question and finds the note of that day first', async () => {
    for (const q of ['what did I cook on 4 March 2025?', 'What did I cook on March 4th, 2025?', 'what did I cook on 2025-03-04']) {
      const [top] = await search(q);
      expect(top?.path, q).toBe('memory/2025-03-04.md');
      expect(top?.matchedBy, q).toContain('date');
    }
    // A month narrows to that month's notes; the rest of the question still ranks inside it.
    const april = await search('what did I cook in April 2025?');
    expect(april[0]?.path).toBe('memory/2025-04-10.md');
    // Without a date the note that says it most wins, as before.
    expect((await search('what did I cook?'))[0]?.path).toBe('memory/2025-03-03.md');
  });

  it('reads relative dates against today', async () => {
    const [top] = await search('what did I repot yesterday?');
    expect(top?.path).toBe(`memory/${localDay(1)}.md`);
    expect(top?.matchedBy).toContain('date');
    // Without a date the newer note wins (temporal decay); "30 days ago" finds the older one.
    expect((await search('what did I repot?'))[0]?.path).toBe(`memory/${localDay(1)}.md`);
    expect((await search('what did I repot 30 days ago?'))[0]?.path).toBe(`memory/${localDay(30)}.md`);
  });

  it('parses the usual ways of writing a date, and leaves words that only look like months alone', () => {
    const now = Date.UTC(2026, 3, 8, 12); // Wednesday 8 April 2026
    const one = (q: string) => parseQueryDates(q, now).dates.map((d) => `${d.from}..${d.to}${d.anyYear ? '*' : ''}`);
    expect(one('on 25 May, 2022')).toEqual(['2022-05-25..2022-05-25']);
    expect(one('on October 13, 2023')).toEqual(['2023-10-13..2023-10-13']);
    expect(one('on 8th December, 2023')).toEqual(['2023-12-08..2023-12-08']);
    expect(one('in August 2023')).toEqual(['2023-08-01..2023-08-31']);
    expect(one('on May 25th')).toEqual(['2000-05-25..2000-05-25*']);
    expect(one('in December')).toEqual(['2000-12-01..2000-12-31*']);
    expect(one('last Saturday')).toEqual(['2026-04-04..2026-04-04']);
    expect(one('yesterday')).toEqual(['2026-04-07..2026-04-07']);
    expect(one('last week')).toEqual(['2026-03-30..2026-04-05']);
    expect(one('it may be late, we march on')).toEqual([]);
    expect(one('on 31 February 2023')).toEqual(['2023-02-01..2023-02-28']);
    const { rest } = parseQueryDates('What did Nate cook on 25 May, 2022?', now);
    expect(rest.replace(/\s+/g, ' ')).toBe('What did Nate cook on ?');
  });
});
