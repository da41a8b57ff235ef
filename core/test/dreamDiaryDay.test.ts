import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { appendDiaryEntry } from '../src/dreaming/diary/appendDiaryEntry.js';
import { parseDreamDiary } from '../src/dreaming/diary/parseDiary.js';
import { undoDiaryRun } from '../src/dreaming/diary/undoDiaryRun.js';
import { DAY_MS, dream, dreamingWorkspaces, recallOver } from './helpers/dreaming.js';

const MORNING = { dateLine: 'November 29, 2026, 3:00 AM UTC', runId: 'dream:one', narrative: 'The first look.' };
const AFTERNOON = { dateLine: 'November 29, 2026, 3:40 PM UTC', runId: 'dream:two', narrative: 'The second look.' };
const NEXT_DAY = { dateLine: 'November 30, 2026, 3:00 AM UTC', runId: 'dream:three', narrative: 'The next night.' };

describe('one entry per day', () => {
  it('a second run on the same day extends that day’s entry with its own marked paragraph', () => {
    const first = appendDiaryEntry('', MORNING);
    const second = appendDiaryEntry(first.text, AFTERNOON);
    expect(second.text).toBe(
      [
        '# Dream Diary',
        '',
        '<!-- openclaw:dreaming:diary:start -->',
        '*November 29, 2026, 3:00 AM UTC*',
        '<!-- reverie:dream-run dream:one -->',
        '',
        'The first look.',
        '',
        '<!-- reverie:dream-run dream:two -->',
        '',
        'At 3:40 PM UTC: The second look.',
        '<!-- openclaw:dreaming:diary:end -->',
        '',
      ].join('\n'),
    );
    const diary = parseDreamDiary(second.text);
    expect(diary.entries).toHaveLength(1);
    expect(diary.entries[0]).toMatchObject({ runId: 'dream:one', runIds: ['dream:one', 'dream:two'], body: 'The first look.\n\n\nAt 3:40 PM UTC: The second look.' });
    expect(diary.problems).toEqual([]);
  });

  it('a new day opens a new entry; so does a day before the last one (the clock went back), after it, nothing lost', () => {
    const morning = appendDiaryEntry('', MORNING).text;
    const nextDay = appendDiaryEntry(morning, NEXT_DAY).text;
    expect(parseDreamDiary(nextDay).entries.map((e) => e.runIds)).toEqual([['dream:one'], ['dream:three']]);
    const back = appendDiaryEntry(nextDay, AFTERNOON).text;
    expect(parseDreamDiary(back).entries.map((e) => e.runIds)).toEqual([['dream:one'], ['dream:three'], ['dream:two']]);
    expect(back.startsWith(nextDay.replace('<!-- openclaw:dreaming:diary:end -->\n', ''))).toBe(true);
  });

  it("never extends OpenClaw's own entry or a backfill entry of the same day", () => {
    const openclaw = '# Dream Diary\n\n<!-- openclaw:dreaming:diary:start -->\n---\n\n*November 29, 2026, 1:00 AM UTC*\n\nA tide of invoices.\n<!-- openclaw:dreaming:diary:end -->\n';
    expect(parseDreamDiary(appendDiaryEntry(openclaw, MORNING).text).entries).toHaveLength(2);
  });

  it('rolling back the first run of the day keeps the date line the second run’s paragraph needs', () => {
    const first = appendDiaryEntry('', MORNING);
    const second = appendDiaryEntry(first.text, AFTERNOON);
    const undone = undoDiaryRun(second.text, first);
    expect(undone.text).toBe(
      '# Dream Diary\n\n<!-- openclaw:dreaming:diary:start -->\n*November 29, 2026, 3:00 AM UTC*\n\n<!-- reverie:dream-run dream:two -->\n\nAt 3:40 PM UTC: The second look.\n<!-- openclaw:dreaming:diary:end -->\n',
    );
    expect(undoDiaryRun(second.text, { added: second.added, changed: [] }).text).toBe(first.text);
  });
});

const open = dreamingWorkspaces();

describe('sweeps through the engine', () => {
  const THRESHOLDS = { minScore: 0, minRecallCount: 1, minUniqueQueries: 1 };
  const notes = {
    'memory/2026-11-27.md': '# 2026-11-27\n\n- Moved the production deploy target from fly.io to a Hetzner box named ledgerd-prod-2.\n',
    'memory/2026-11-28.md': '# 2026-11-28\n\n- The staging database is ledgerd-staging on port 5433.\n',
  };

  it('a second sweep on the same day writes into that day’s entry', async () => {
    const { service, clock } = await open(notes, new Date(2026, 10, 29, 3, 0, 0).getTime());
    await recallOver(service, clock, [{ query: 'where does production deploy now', daysAgo: 0 }]);
    const first = await dream(service, { thresholds: THRESHOLDS });
    clock.set(clock.now() + 5 * 3_600_000);
    await recallOver(service, clock, [{ query: 'staging database port 5433', daysAgo: 0 }]);
    const second = await dream(service, { thresholds: THRESHOLDS });
    expect(second.promoted).toHaveLength(1);
    const { entries } = await service.invoke('dream.diary', {});
    expect(entries.map((e) => e.runIds)).toEqual([[first.id, second.id]]);
  });

  it('the clock set back a day between two sweeps: a new entry, the earlier one untouched, both readable', async () => {
    const { ws, service, clock } = await open(notes, new Date(2026, 10, 29, 3, 0, 0).getTime());
    await recallOver(service, clock, [{ query: 'where does production deploy now', daysAgo: 0 }]);
    const first = await dream(service, { thresholds: THRESHOLDS });
    const afterFirst = fs.readFileSync(path.join(ws.root, 'DREAMS.md'), 'utf8');
    clock.set(clock.now() - DAY_MS);
    await recallOver(service, clock, [{ query: 'staging database port 5433', daysAgo: 0 }]);
    const second = await dream(service, { thresholds: THRESHOLDS });
    expect(second.status).toBe('ok');
    const diary = await service.invoke('dream.diary', {});
    expect(diary.entries.map((e) => e.runIds)).toEqual([[first.id], [second.id]]);
    expect(diary.problems).toEqual([]);
    const text = fs.readFileSync(path.join(ws.root, 'DREAMS.md'), 'utf8');
    for (const line of afterFirst.split('\n').filter((l) => l.trim() !== '' && !l.startsWith('- ') && !l.startsWith('  - ') && !l.startsWith('###'))) expect(text).toContain(line);
  });
});
