import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MemoryService } from '../src/engine/memoryService.js';
import { noteDay, resolveLineDates } from '../src/index/lineDates.js';
import { createTempWorkspace, openService, type TempWorkspace } from './helpers/workspace.js';

const datesOf = (path: string, text: string): string[] => resolveLineDates(path, text).map((d) => `${d.line}:${d.from}..${d.to}`);

describe('relative dates inside a note, resolved against its date', () => {
  it('resolves "two weeks ago", "yesterday", "last Friday", "next month", "in March" against the note date', () => {
    const text = [
      '# Saturday',
      "- Two weeks ago I read 'Avalanche'.",
      '- Yesterday the boiler broke.',
      '- Last Friday we met Sam.',
      '- Next month we move to Leeds.',
      '- In March we planted the beans.',
      '- Three months ago I started running.',
    ].join('\n');
    // 4 February 2023 was a Saturday.
    const dates = resolveLineDates('memory/2023-02-04.md', text);
    const on = (line: number) => dates.filter((d) => d.line === line);
    expect(on(2)[0]!.from <= '2023-01-21' && on(2)[0]!.to >= '2023-01-21').toBe(true);
    expect(on(3)[0]).toMatchObject({ from: '2023-02-03', to: '2023-02-03', precision: 'day' });
    expect(on(4)[0]).toMatchObject({ from: '2023-02-03', to: '2023-02-03' });
    expect(on(5)[0]).toMatchObject({ from: '2023-03-01', to: '2023-03-31', precision: 'month' });
    expect(on(6)[0]).toMatchObject({ from: '2023-03-01', to: '2023-03-31' });
    expect(on(7)[0]).toMatchObject({ from: '2022-11-01', to: '2022-11-30' });
  });

  it('leaves unresolvable and impossible dates, and the note\'s own day, out', () => {
    const text = ['- Some time ago we talked about it.', '- Back then it was different.', '- Paid on 31 February 2023.', '- Today was quiet.', '- On 4 February 2023 we rested.'].join('\n');
    expect(datesOf('memory/2023-02-04.md', text)).toEqual([]);
  });

  it('gives an undated note no line dates, and reads a date from front matter', () => {
    expect(resolveLineDates('memory/ideas.md', '- Two weeks ago I read a book.\n')).toEqual([]);
    const withFrontMatter = '---\ntitle: Reading\ndate: 2023-02-04\n---\n- Two weeks ago I read a book.\n';
    expect(noteDay('notes/reading.md', withFrontMatter)).toBe(Date.UTC(2023, 1, 4));
    expect(resolveLineDates('notes/reading.md', withFrontMatter).map((d) => d.line)).toEqual([5]);
    expect(noteDay('notes/x.md', '---\ndate: 2023-02-31\n---\n')).toBeNull(); // impossible date: no note date
  });
});

let ws: TempWorkspace;
let service: MemoryService;

beforeAll(async () => {
  ws = createTempWorkspace({
    'memory/2023-02-04.md': [
      '# 4 February 2023',
      '',
      '- Jolene: The weather has been cold all week, we stayed in mostly.',
      "- Jolene: Two weeks ago I read 'Avalanche' by the fire, could not put it down.",
      '- Jolene: The cat knocked over the plant again.',
    ].join('\n'),
    'memory/2023-01-27.md': ['# 27 January 2023', '', '- Jolene: Went to the market and bought apples.', '- Jolene: Called my sister about the book club next spring.'].join('\n'),
    'memory/ideas.md': '# Ideas\n\n- Some time ago I wanted a reading lamp.\n',
  });
  service = openService(ws);
  await service.invoke('index.sync', { force: false });
}, 60_000);
afterAll(async () => {
  await service.close();
  ws.cleanup();
});

describe('a question\'s date finds lines whose resolved date fits', () => {
  it('stores line dates at index time and drops them with the file', async () => {
    const db = new Database(service.indexPath, { readonly: true });
    try {
      const rows = db.prepare('SELECT path, line, day_from, day_to FROM line_dates ORDER BY path, line').all() as Array<{ path: string; line: number }>;
      expect(rows.map((r) => `${r.path}:${r.line}`)).toEqual(['memory/2023-02-04.md:4']);
    } finally {
      db.close();
    }
  });

  it('"which book did Jolene read in January 2023" shows the line written two weeks before 4 February', async () => {
    const { results } = await service.invoke('memory.search', { query: 'Which book did Jolene read in January 2023?', sources: ['memory'] });
    const shown = results.map((r) => r.snippet).join('\n');
    expect(shown).toContain("Two weeks ago I read 'Avalanche'");
    const avalanche = results.findIndex((r) => r.snippet.includes('Avalanche'));
    expect(avalanche).toBeGreaterThanOrEqual(0);
    expect(avalanche).toBeLessThanOrEqual(1);
  }, 30_000);
});
