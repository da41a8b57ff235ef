import { describe, expect, it } from 'vitest';
import { enforceMemoryBudget } from '../src/dreaming/curated/budget.js';
import { appendPromotionSection, curatedFacts, promotedKeys } from '../src/dreaming/curated/memoryFile.js';
import { removeRunChanges } from '../src/dreaming/curated/undo.js';
import { applyDirective, isDirective } from '../src/dreaming/curated/userFile.js';
import type { PromotionToWrite } from '../src/dreaming/types.js';

const MEMORY = [
  '# Long-Term Memory',
  '',
  '- Keep the gateway on loopback. <!-- trigger: gateway setup, network safety --> <!-- importance: 9 -->',
  '- Use the release helper for package validation. <!-- project: github.com/example/ledger -->',
  '',
].join('\n');

const USER = [
  '# User',
  '',
  '- Always answer in under ten lines unless asked for detail. <!-- observed: 2026-03-01 --> <!-- status: active -->',
  '- Prefer British spelling in prose. <!-- observed: 2026-03-02 --> <!-- status: active -->',
  '- Never schedule deploys on Fridays. <!-- observed: 2026-04-01 --> <!-- status: active -->',
  '',
].join('\n');

function promotion(overrides: Partial<PromotionToWrite> = {}): PromotionToWrite {
  return {
    candidateKey: 'memory/2026-04-04.md:3:3',
    path: 'memory/2026-04-04.md',
    startLine: 3,
    endLine: 3,
    text: 'Moved the production deploy target from fly.io to a Hetzner box named ledger-prod-2.',
    annotations: [],
    score: 0.8123,
    recallCount: 3,
    meanScore: 0.7,
    signalCount: 5,
    lineageKey: 'production-deploy-target',
    ...overrides,
  };
}

const STAGING = promotion({
  candidateKey: 'sessions/abc123.jsonl:10:12',
  path: 'sessions/abc123.jsonl',
  startLine: 10,
  endLine: 12,
  text: 'The staging database is on port 5433.',
  annotations: ['<!-- trigger: staging, port -->'],
  score: 0.66,
  recallCount: 4,
  meanScore: 0.5,
  signalCount: 6,
});

describe('MEMORY.md promotion section', () => {
  it('appends a section in OpenClaw fallback format, byte for byte', () => {
    const edit = appendPromotionSection(MEMORY, [promotion(), STAGING], '2026-04-05');
    const section = [
      '## Promoted From Short-Term Memory (2026-04-05)',
      '<!-- openclaw-memory-promotion:memory:memory/2026-04-04.md:3:3 -->',
      '- Moved the production deploy target from fly.io to a Hetzner box named ledger-prod-2. Source: memory/2026-04-04.md#L3-L3',
      '<!-- openclaw-memory-promotion:memory:sessions/abc123.jsonl:10:12 -->',
      '- The staging database is on port 5433. Source: sessions/abc123.jsonl#L10-L12 <!-- trigger: staging, port -->',
    ];
    expect(edit.text).toBe(`${MEMORY}\n${section.join('\n')}\n`);
    expect(edit.text.startsWith(MEMORY)).toBe(true);
    expect(edit.added).toEqual(section);
    expect(edit.changed).toEqual([]);
  });

  it('adds exactly one blank line before the heading when the file has no final newline', () => {
    const edit = appendPromotionSection('# Long-Term Memory\n\n- A fact.', [promotion()], '2026-04-05');
    expect(edit.text).toMatch(/^# Long-Term Memory\n\n- A fact\.\n\n## Promoted From Short-Term Memory \(2026-04-05\)\n<!--.*-->\n- .* Source: memory\/2026-04-04\.md#L3-L3\n$/);
  });

  it('starts an empty file with the Long-Term Memory title', () => {
    const edit = appendPromotionSection('', [promotion()], '2026-04-05');
    expect(edit.text).toBe(
      '# Long-Term Memory\n\n## Promoted From Short-Term Memory (2026-04-05)\n<!-- openclaw-memory-promotion:memory:memory/2026-04-04.md:3:3 -->\n' +
        '- Moved the production deploy target from fly.io to a Hetzner box named ledger-prod-2. Source: memory/2026-04-04.md#L3-L3\n',
    );
    expect(edit.added[0]).toBe('# Long-Term Memory');
    expect(edit.added).toHaveLength(4);
  });

  it('leaves the file alone when there is nothing to promote', () => {
    expect(appendPromotionSection(MEMORY, [], '2026-04-05')).toEqual({ text: MEMORY, added: [], changed: [] });
  });

  it('reads promoted keys and curated facts back', () => {
    const { text } = appendPromotionSection(MEMORY, [promotion(), STAGING], '2026-04-05');
    expect(promotedKeys(text)).toEqual(new Set(['memory/2026-04-04.md:3:3', 'sessions/abc123.jsonl:10:12']));
    const facts = curatedFacts(text);
    expect(facts.has('keep the gateway on loopback')).toBe(true);
    expect(facts.has('the staging database is on port 5433')).toBe(true);
    expect([...facts].some((f) => f.includes('score') || f.includes('source'))).toBe(false);
  });

  it('a restatement that reinforced an entry (named in its source list) is in memory already', () => {
    const text = '# Long-Term Memory\n\n- Troponins are drawn at 04:00. Source: memory/2027-05-14.md#L5-L5, memory/2027-05-28.md#L4-L6\n';
    expect(promotedKeys(text)).toEqual(new Set(['memory/2027-05-14.md:5:5', 'memory/2027-05-28.md:4:6']));
  });
});

describe('directive detection', () => {
  it.each([
    'Always answer in under five lines.',
    'Never schedule deploys on Fridays.',
    "Don't use emoji in commit messages.",
    'Do not page me after 22:00.',
    'Call me Sam.',
    'I prefer tabs over spaces.',
    "I'd rather get the summary first.",
    'My preference is short answers.',
    'The user prefers short answers.',
  ])('"%s" is a directive', (text) => expect(isDirective(text)).toBe(true));

  it.each(['The staging database is on port 5433.', 'Moved the deploy target to Hetzner.', 'Users can sign in with passkeys.', 'Kept the old API for a week.', 'Priya prefers async standups over calls.', 'Dana prefers pnpm to npm.'])(
    '"%s" is not a directive',
    (text) => expect(isDirective(text)).toBe(false),
  );
});

describe('USER.md directives', () => {
  it('supersedes the same-lineage directive in place and inserts the new one right after it', () => {
    const edit = applyDirective(USER, { text: 'Always answer in under five lines.', observed: '2026-04-05' });
    const lines = edit.text.split('\n');
    expect(lines[2]).toBe('- Always answer in under ten lines unless asked for detail. <!-- observed: 2026-03-01 --> <!-- status: superseded -->');
    expect(lines[3]).toBe('- Always answer in under five lines. <!-- observed: 2026-04-05 --> <!-- status: active -->');
    expect(lines[4]).toBe('- Prefer British spelling in prose. <!-- observed: 2026-03-02 --> <!-- status: active -->');
    expect(edit.text.match(/status: active/g)).toHaveLength(3);
    expect(edit.added).toEqual(['- Always answer in under five lines. <!-- observed: 2026-04-05 --> <!-- status: active -->']);
    expect(edit.changed).toEqual([
      {
        before: '- Always answer in under ten lines unless asked for detail. <!-- observed: 2026-03-01 --> <!-- status: active -->',
        after: '- Always answer in under ten lines unless asked for detail. <!-- observed: 2026-03-01 --> <!-- status: superseded -->',
      },
    ]);
    expect(edit.superseded).toEqual(['Always answer in under ten lines unless asked for detail.']);
    expect(edit.text.endsWith('<!-- status: active -->\n')).toBe(true);
  });

  it('does not supersede an unrelated directive; appends after the last directive', () => {
    const base = '# User\n\n- Prefer British spelling in prose. <!-- observed: 2026-03-02 --> <!-- status: active -->\n\nNotes written by hand.\n';
    const edit = applyDirective(base, { text: 'Never schedule deploys on Fridays.', observed: '2026-04-05', annotations: ['<!-- trigger: deploy -->'] });
    expect(edit.changed).toEqual([]);
    expect(edit.superseded).toEqual([]);
    expect(edit.text).toBe(
      '# User\n\n- Prefer British spelling in prose. <!-- observed: 2026-03-02 --> <!-- status: active -->\n' +
        '- Never schedule deploys on Fridays. <!-- trigger: deploy --> <!-- observed: 2026-04-05 --> <!-- status: active -->\n\nNotes written by hand.\n',
    );
  });

  it('is a no-op for a directive that is already active', () => {
    const edit = applyDirective(USER, { text: 'prefer british spelling in prose', observed: '2026-04-05' });
    expect(edit).toEqual({ text: USER, added: [], changed: [], superseded: [] });
  });

  it('creates the User heading in an empty file', () => {
    const edit = applyDirective('', { text: 'Call me Sam.', observed: '2026-04-05' });
    expect(edit.text).toBe('# User\n\n- Call me Sam. <!-- observed: 2026-04-05 --> <!-- status: active -->\n');
    expect(edit.added).toEqual(['# User', '- Call me Sam. <!-- observed: 2026-04-05 --> <!-- status: active -->']);
  });
});

describe('MEMORY.md budget', () => {
  const handWritten = '# Long-Term Memory\n\n- Keep the gateway on loopback.\n- Use the release helper.\n';
  // Sections as OpenClaw (and Reverie before it wrote `Source:`) left them, with `[score=…]` metadata to give up.
  const legacy = (day: string, key: string, line: string) => `\n## Promoted From Short-Term Memory (${day})\n<!-- openclaw-memory-promotion:memory:${key} -->\n${line}\n`;
  const older = `${handWritten}${legacy('2026-04-01', 'memory/2026-04-04.md:3:3', '- Moved the production deploy target from fly.io to a Hetzner box named ledger-prod-2. [score=0.812 (signals=5) recalls=3 avg=0.700 source=memory/2026-04-04.md:3-3]')}`;
  const both = `${older}${legacy('2026-04-05', 'sessions/abc123.jsonl:10:12', '- The staging database is on port 5433. <!-- trigger: staging, port --> [score=0.660 (signals=6) recalls=4 avg=0.500 source=sessions/abc123.jsonl:10-12]')}`;
  const withTrailingHandWritten = `${both}\n## My own notes\n\n- Written by hand. [score=keep me]\n`;

  it('compacts the oldest generated section first and never touches hand-written text', () => {
    const edit = enforceMemoryBudget(withTrailingHandWritten, withTrailingHandWritten.length - 10);
    expect(edit.overBudget).toBe(false);
    expect(edit.compacted).toBe(1);
    expect(edit.changed).toHaveLength(1);
    expect(edit.changed[0]!.after).toBe('- Moved the production deploy target from fly.io to a Hetzner box named ledger-prod-2.');
    expect(edit.text).toContain('source=sessions/abc123.jsonl:10-12]');
    expect(edit.text.startsWith(handWritten)).toBe(true);
    expect(edit.text.endsWith('\n## My own notes\n\n- Written by hand. [score=keep me]\n')).toBe(true);
    expect(edit.added).toEqual([]);
  });

  it('moves on to the next oldest section when one is not enough', () => {
    const oldestOnly = enforceMemoryBudget(withTrailingHandWritten, withTrailingHandWritten.length - 1);
    const savedByOldest = withTrailingHandWritten.length - oldestOnly.text.length;
    const edit = enforceMemoryBudget(withTrailingHandWritten, withTrailingHandWritten.length - savedByOldest - 1);
    expect(edit.compacted).toBe(2);
    expect(edit.changed.map((c) => c.after)).toEqual([oldestOnly.changed[0]!.after, '- The staging database is on port 5433. <!-- trigger: staging, port -->']);
    expect(edit.text).not.toContain('source=');
    expect(edit.text).toContain('- Written by hand. [score=keep me]');
    expect(edit.overBudget).toBe(false);
  });

  it('leaves a file within budget unchanged', () => {
    expect(enforceMemoryBudget(both, both.length)).toEqual({ text: both, added: [], changed: [], compacted: 0, overBudget: false });
  });

  it('reports overBudget when only hand-written text is too large', () => {
    const edit = enforceMemoryBudget(handWritten, 20);
    expect(edit).toEqual({ text: handWritten, added: [], changed: [], compacted: 0, overBudget: true });
  });
});

describe('undo of a run', () => {
  it('round trips: apply then undo on an unedited file gives the original bytes back', () => {
    const memory = appendPromotionSection(MEMORY, [promotion(), STAGING], '2026-04-05');
    expect(removeRunChanges(memory.text, memory)).toEqual({ text: MEMORY, removed: 5, reverted: 0, missing: [] });

    const user = applyDirective(USER, { text: 'Always answer in under five lines.', observed: '2026-04-05' });
    expect(removeRunChanges(user.text, user)).toEqual({ text: USER, removed: 1, reverted: 1, missing: [] });

    const empty = appendPromotionSection('', [promotion()], '2026-04-05');
    expect(removeRunChanges(empty.text, empty).text).toBe('');
    const emptyUser = applyDirective('', { text: 'Call me Sam.', observed: '2026-04-05' });
    expect(removeRunChanges(emptyUser.text, emptyUser).text).toBe('');
  });

  it('round trips a budget compaction', () => {
    const legacyLine = '- Moved the production deploy target from fly.io to a Hetzner box named ledger-prod-2. [score=0.812 (signals=5) recalls=3 avg=0.700 source=memory/2026-04-04.md:3-3]';
    const text = `${MEMORY}\n## Promoted From Short-Term Memory (2026-04-05)\n<!-- openclaw-memory-promotion:memory:memory/2026-04-04.md:3:3 -->\n${legacyLine}\n`;
    const edit = enforceMemoryBudget(text, 10);
    expect(removeRunChanges(edit.text, edit)).toEqual({ text, removed: 0, reverted: 1, missing: [] });
  });

  it("keeps the person's edits made after the run", () => {
    const run = appendPromotionSection(MEMORY, [promotion()], '2026-04-05');
    const edited = run.text.replace('- Keep the gateway on loopback.', '- Keep the gateway on loopback, always.') + '\n## Mine\n\n- My own note.\n';
    const undone = removeRunChanges(edited, run);
    expect(undone.missing).toEqual([]);
    expect(undone.removed).toBe(3);
    expect(undone.text).toBe(MEMORY.replace('- Keep the gateway on loopback.', '- Keep the gateway on loopback, always.') + '\n## Mine\n\n- My own note.\n');
  });

  it('removes the run’s copy of a repeated line, not an identical earlier one', () => {
    const first = appendPromotionSection(MEMORY, [promotion()], '2026-04-05');
    const second = appendPromotionSection(first.text, [STAGING], '2026-04-05');
    const undone = removeRunChanges(second.text, first);
    expect(undone.missing).toEqual([]);
    expect(undone.text).toContain('## Promoted From Short-Term Memory (2026-04-05)\n<!-- openclaw-memory-promotion:memory:sessions/abc123.jsonl:10:12 -->');
    expect(undone.text).not.toContain('ledger-prod-2');
    expect(undone.text.match(/## Promoted/g)).toHaveLength(1);
  });

  it('reports lines the person already deleted as missing and removes the rest', () => {
    const run = applyDirective(USER, { text: 'Always answer in under five lines.', observed: '2026-04-05' });
    const edited = run.text.replace(`${run.added[0]}\n`, '').replace('- Never schedule', '- Never ever schedule');
    const undone = removeRunChanges(edited, run);
    expect(undone.missing).toEqual([run.added[0]]);
    expect(undone.reverted).toBe(1);
    expect(undone.removed).toBe(0);
    expect(undone.text).toBe(USER.replace('- Never schedule', '- Never ever schedule'));
  });

  it('removes only one line per added line and never touches unrelated blank runs', () => {
    const text = '# Notes\n\n\n- kept\n- added\n- added\n';
    const undone = removeRunChanges(text, { added: ['- added'], changed: [] });
    expect(undone.text).toBe('# Notes\n\n\n- kept\n- added\n');
    expect(undone.removed).toBe(1);
  });

  it('collapses the blank lines a removed section leaves in the middle of the file', () => {
    const text = '# Notes\n\n- a\n\n## Generated\n- g\n\n## Mine\n- b\n';
    const undone = removeRunChanges(text, { added: ['## Generated', '- g'], changed: [] });
    expect(undone.text).toBe('# Notes\n\n- a\n\n## Mine\n- b\n');
  });
});
