import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { dream, dreamingWorkspaces, recallOver } from './helpers/dreaming.js';

/** DREAMS.md as a person left it after editing inside the diary markers. */
const EDITED: Record<string, string> = {
  'a paragraph of their own between two entries': [
    '# Dream Diary',
    '',
    '<!-- openclaw:dreaming:diary:start -->',
    '*November 20, 2026, 3:00 AM UTC*',
    '<!-- reverie:dream-run dream:old -->',
    '',
    'An older night.',
    '',
    'My own note, typed in the middle: the river dream again.',
    '',
    '---',
    '',
    '*November 21, 2026*',
    '',
    'A night OpenClaw wrote.',
    '<!-- openclaw:dreaming:diary:end -->',
    '',
  ].join('\n'),
  'the end marker deleted': ['# Dream Diary', '', '<!-- openclaw:dreaming:diary:start -->', '*November 20, 2026*', '', 'I cut the end marker by accident.', ''].join('\n'),
  'text on the end marker’s line, a stray separator and a fake marker': [
    '# Dream Diary',
    '',
    '<!-- openclaw:dreaming:diary:start -->',
    '---',
    '---',
    '*November 28, 2026, 3:00 AM UTC*',
    '<!-- reverie:dream-run dream:not-a-real-run -->',
    'Written by hand, dated like a run of the same day. <!-- openclaw:dreaming:diary:end -->',
    '',
  ].join('\n'),
  'a date line they rewrote into words': [
    '# Dream Diary',
    '',
    '<!-- openclaw:dreaming:diary:start -->',
    '*the night of the storm*',
    '<!-- reverie:dream-run dream:old -->',
    '',
    'The storm night.',
    '<!-- openclaw:dreaming:diary:end -->',
    '',
  ].join('\n'),
  'CRLF line endings and no final newline': '# Dream Diary\r\n\r\n<!-- openclaw:dreaming:diary:start -->\r\n*November 20, 2026*\r\n\r\nSaved on Windows.\r\n<!-- openclaw:dreaming:diary:end -->',
};

const open = dreamingWorkspaces();

/**
 * True when every line of `before` is still in `after`, in order (the sweep only adds). A
 * marker sharing a line with text is reached by breaking that line before it, so the marker
 * counts as a line of its own on both sides.
 */
function keepsEveryLine(before: string, after: string): boolean {
  const lines = (text: string) => text.replace(/(<!-- openclaw:dreaming:diary:end -->)/g, '\n$1').split(/\r?\n/).map((l) => l.trimEnd());
  const kept = lines(after);
  let at = 0;
  for (const line of lines(before)) {
    if (line.trim() === '') continue;
    while (at < kept.length && kept[at] !== line) at++;
    if (at === kept.length) return false;
    at++;
  }
  return true;
}

describe('a DREAMS.md a person edited inside the diary markers', () => {
  for (const [what, diary] of Object.entries(EDITED)) {
    it(`${what}: the sweep writes its entry, nothing of theirs is lost, and a rollback gives their text back`, async () => {
      const notes = { 'DREAMS.md': diary, 'memory/2026-11-27.md': '# 2026-11-27\n\n- Moved the production deploy target from fly.io to a Hetzner box named ledgerd-prod-2.\n' };
      const { ws, service, clock } = await open(notes, new Date(2026, 10, 28, 15, 0, 0).getTime());
      await recallOver(service, clock, [{ query: 'where does production deploy now', daysAgo: 0 }]);
      const run = await dream(service, { thresholds: { minScore: 0, minRecallCount: 1, minUniqueQueries: 1 } });
      expect(run.writes.find((w) => w.file === 'DREAMS.md')).toMatchObject({ outcome: 'written' });
      const after = fs.readFileSync(path.join(ws.root, 'DREAMS.md'), 'utf8');
      expect(keepsEveryLine(diary, after)).toBe(true);
      const parsed = await service.invoke('dream.diary', {});
      expect(parsed.entries.some((e) => e.runIds?.includes(run.id))).toBe(true);

      // Their later edit inside the sweep's own entry survives the sweep's rollback.
      const edited = after.replace(`<!-- reverie:dream-run ${run.id} -->`, `<!-- reverie:dream-run ${run.id} -->\nAnd I agree with this one.`);
      fs.writeFileSync(path.join(ws.root, 'DREAMS.md'), edited);
      await service.invoke('dream.rollback', { runId: run.id });
      const rolled = fs.readFileSync(path.join(ws.root, 'DREAMS.md'), 'utf8');
      expect(keepsEveryLine(diary, rolled)).toBe(true);
      expect(rolled).toContain('And I agree with this one.');
      expect(rolled).not.toContain(run.id);
    });
  }
});
