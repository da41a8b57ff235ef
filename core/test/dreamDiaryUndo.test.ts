import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { appendBackfillEntry } from '../src/dreaming/diary/appendBackfillEntry.js';
import { undoDiaryRun } from '../src/dreaming/diary/undoDiaryRun.js';
import { planDiaryEdit } from '../src/dreaming/diaryUpdate.js';
import { dream, dreamingWorkspaces, recallOver } from './helpers/dreaming.js';

const THRESHOLDS = { minScore: 0, minRecallCount: 1, minUniqueQueries: 1, maxPromotions: 10 };

/** A diary edit as a sweep plans it, with a fixed narrative. */
function sweepEdit(text: string, runId: string, at: Date, narrative: string, written = 1) {
  return planDiaryEdit(
    text,
    {
      id: runId,
      startedAt: at.toISOString(),
      narrative,
      candidates: [],
      thresholds: THRESHOLDS,
      promoted: Array.from({ length: written }, (_, i) => ({
        candidateKey: `memory/2026-11-2${i}.md:3:3`,
        target: 'MEMORY.md' as const,
        action: 'added' as const,
        lines: [`- Fact ${i} of ${runId}.`],
        priorEntries: [],
        decision: 'auto' as const,
        decidedAt: null,
      })),
    },
    'UTC',
  );
}

describe('taking one run out of a diary that changed after it', () => {
  const first = new Date('2026-11-28T03:00:00Z');
  const second = new Date('2026-11-29T03:00:00Z');

  it('the first of two sweeps: its entry and history item go, the later sweep keeps its entry, markers, Deep Sleep and history', () => {
    const one = sweepEdit('', 'dream:one', first, 'The first night.');
    const two = sweepEdit(one.text, 'dream:two', second, 'The second night.');
    const alone = sweepEdit('', 'dream:two', second, 'The second night.');
    const undone = undoDiaryRun(two.text, one);
    // What the second sweep would have written alone, but for its separator (OpenClaw's own entries start with one).
    expect(undone.text).toBe(alone.text.replace('<!-- openclaw:dreaming:diary:start -->\n', '<!-- openclaw:dreaming:diary:start -->\n\n---\n\n'));
    expect(undone.removed).toContain('The first night.');
    expect(undone.removed).not.toContain('# Dream Diary');
  });

  it('the second of two sweeps: only its own entry, history item and Deep Sleep lines go', () => {
    const one = sweepEdit('', 'dream:one', first, 'The first night.');
    const two = sweepEdit(one.text, 'dream:two', second, 'The second night.', 2);
    expect(undoDiaryRun(two.text, two).text).toBe(one.text);
  });

  it("a line the person typed inside the run's entry is kept, and so is the entry's date line it needs", () => {
    const one = sweepEdit('', 'dream:one', first, 'The first night.');
    const edited = one.text.replace('The first night.\n', 'The first night.\nMy own thought about that night.\n');
    const undone = undoDiaryRun(edited, one);
    expect(undone.text).toContain('*November 28, 2026, 3:00 AM UTC*\n');
    expect(undone.text).toContain('My own thought about that night.');
    expect(undone.text).not.toContain('The first night.');
    expect(undone.text).not.toContain('reverie:dream-run dream:one');
    expect(undone.text.startsWith('# Dream Diary\n\n<!-- openclaw:dreaming:diary:start -->\n')).toBe(true);
  });

  it("a backfill's entries go, a later sweep's entry stays", () => {
    const backfill = appendBackfillEntry('', { day: '2026-11-20', source: 'memory/2026-11-20.md', whatHappened: ['Moved staging. [memory/2026-11-20.md:3]'], reflections: [], candidates: [], possibleUpdates: [] });
    const sweep = sweepEdit(backfill.text, 'dream:two', second, 'The second night.');
    const undone = undoDiaryRun(sweep.text, backfill);
    expect(undone.text).not.toContain('backfill-entry');
    expect(undone.text).not.toContain('Moved staging.');
    expect(undone.text).toContain('<!-- reverie:dream-run dream:two -->\n\nThe second night.\n<!-- openclaw:dreaming:diary:end -->');
    expect(undone.text.startsWith('# Dream Diary\n\n<!-- openclaw:dreaming:diary:start -->\n')).toBe(true);
  });

  it('a run that made the whole file and nothing else was added leaves nothing behind', () => {
    const one = sweepEdit('', 'dream:one', first, 'The first night.');
    expect(undoDiaryRun(one.text, one).text).toBe('');
  });
});

const open = dreamingWorkspaces();

describe('rolling back an older sweep after a newer one wrote the diary', () => {
  it('DREAMS.md keeps its title, markers, the newer entry, its Deep Sleep block and history; MEMORY.md loses only the older lines', async () => {
    const files = {
      'MEMORY.md': '# Long-Term Memory\n',
      'memory/2026-11-27.md': '# 2026-11-27\n\n- Moved the production deploy target from fly.io to a Hetzner box named ledgerd-prod-2.\n',
      'memory/2026-11-28.md': '# 2026-11-28\n\n- The staging database is ledgerd-staging on port 5433.\n',
    };
    const { ws, service, clock } = await open(files, new Date(2026, 10, 28, 3, 0, 0).getTime());
    const read = (rel: string) => fs.readFileSync(path.join(ws.root, rel), 'utf8');
    await recallOver(service, clock, [{ query: 'where does production deploy now', daysAgo: 0 }]);
    const older = await dream(service, { thresholds: THRESHOLDS });
    clock.advanceDays(1);
    await recallOver(service, clock, [{ query: 'staging database port 5433', daysAgo: 0 }]);
    const diaryBefore = read('DREAMS.md');
    const newer = await dream(service, { thresholds: THRESHOLDS });
    expect(newer.promoted.map((p) => p.candidateKey)).toEqual(['memory/2026-11-28.md:3:3']);
    const diaryAfterNewer = read('DREAMS.md');

    const rolled = await service.invoke('dream.rollback', { runId: older.id });
    expect(rolled.rolledBack?.files?.find((f) => f.file === 'DREAMS.md')?.mode).toBe('lines-removed');
    const diary = read('DREAMS.md');
    expect(diary.startsWith('# Dream Diary\n\n<!-- openclaw:dreaming:diary:start -->\n')).toBe(true);
    expect(diary).not.toContain(older.id);
    expect(diary).toContain(`<!-- reverie:dream-run ${newer.id} -->`);
    // Everything the newer sweep added is still there, line for line.
    const newerLines = diaryAfterNewer.split('\n').filter((l) => l.trim() !== '' && !diaryBefore.split('\n').includes(l));
    for (const line of newerLines) expect(diary.split('\n')).toContain(line);
    expect(diary).toContain('## Deep Sleep\n<!-- openclaw:dreaming:deep:start -->\n');
    expect(diary).toContain('<!-- openclaw:dreaming:diary:end -->');
    expect(read('MEMORY.md')).not.toContain('ledgerd-prod-2');
    expect(read('MEMORY.md')).toContain('The staging database is ledgerd-staging on port 5433.');
  });
});
