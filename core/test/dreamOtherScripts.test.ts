import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { entriesAnsweringQuery } from '../src/dreaming/recall/queryMatch.js';
import { parseMarkdownEntries } from '../src/workspace/markdownEntries.js';
import { dream, dreamingWorkspaces, recallOver } from './helpers/dreaming.js';

/**
 * Entries in other languages and scripts (issue 18, bad input): a Russian fact recalled by
 * Russian questions is promoted like any other, as a fact; a Japanese sentence, written without
 * spaces, is credited when a question's word is inside it.
 */

const open = dreamingWorkspaces();
const SWEEP_AT = new Date(2026, 10, 29, 3, 0, 0).getTime();
const RUSSIAN = 'Банк-партнёр переходит на новый формат выписок с января; парсер выписок надо будет поменять.';
const JAPANESE = '倉庫の棚卸しは毎月第一月曜日に行うこと（物流チームの決定）。';
const NOTE = `# 2026-11-25\n\n- ${RUSSIAN}\n- ${JAPANESE}\n- The inventory export lands in s3://stock-exports every Monday.\n`;

describe('entries in other languages and scripts', () => {
  it('a word of an unspaced script is found inside the sentence it is part of', () => {
    const entries = parseMarkdownEntries(NOTE);
    // "棚卸し" (stocktaking) is inside the Japanese sentence's one long token; "inventory" is in the English line.
    expect(entriesAnsweringQuery('棚卸し', entries).map((e) => e.body)).toEqual([JAPANESE]);
    expect(entriesAnsweringQuery('inventory 棚卸し', entries).map((e) => e.body)).toEqual([JAPANESE, 'The inventory export lands in s3://stock-exports every Monday.']);
  });

  it('a Russian fact recalled by three Russian questions on three days is promoted as a fact; nothing crashes', async () => {
    const { ws, service, clock } = await open({ 'MEMORY.md': '# Long-Term Memory\n', 'memory/2026-11-25.md': NOTE }, SWEEP_AT);
    await recallOver(service, clock, [
      { query: 'формат выписок банк', daysAgo: 3 },
      { query: 'когда меняется формат выписок', daysAgo: 2 },
      { query: 'парсер выписок январь', daysAgo: 1 },
      { query: '棚卸し 毎月', daysAgo: 1 },
    ]);
    const run = await dream(service);
    expect(run.status).toBe('ok');
    const russian = run.candidates.find((c) => c.text === RUSSIAN);
    expect(russian).toMatchObject({ kind: 'fact', outcome: 'promoted' });
    expect(run.candidates.find((c) => c.text === JAPANESE)?.kind).toBe('fact');
    expect(fs.readFileSync(path.join(ws.root, 'MEMORY.md'), 'utf8')).toContain(`- ${RUSSIAN} Source: memory/2026-11-25.md#L3-L3`);
  });
});
