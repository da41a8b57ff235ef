import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { DreamRun } from '../src/contract/index.js';
import { formatDiaryDate } from '../src/dreaming/diary/formatDiaryDate.js';
import { quoteEntry } from '../src/dreaming/diary/quoteEntry.js';
import type { MemoryService } from '../src/engine/memoryService.js';
import { dream, dreamingWorkspaces, recallOver } from './helpers/dreaming.js';

/**
 * Approve one promotion, reject another, roll the run back: in every order, each file ends
 * exactly as it should, byte for byte. The expected texts are built from what the files held
 * before the sweep and right after it, never from the code under test.
 */

const MEMORY = '# Long-Term Memory\n\n## Kestrel\n- Kestrel is the billing service.\n\n## People\n- Dana runs the platform team.\n';
const USER = '# User\n\n- Always answer in under ten lines unless asked for detail. <!-- observed: 2026-03-01 --> <!-- status: active -->\n';
const OPENCLAW_DIARY = [
  '# Dream Diary',
  '',
  '<!-- openclaw:dreaming:diary:start -->',
  '---',
  '',
  '*November 20, 2026*',
  '',
  'The invoices kept coming back to me, like a tide.',
  '<!-- openclaw:dreaming:diary:end -->',
  '',
].join('\n');
const NOTES = {
  'memory/2026-11-27.md': '# 2026-11-27\n\n- Moved the production deploy target from fly.io to a Hetzner box named ledgerd-prod-2.\n',
  'memory/2026-11-28.md': '# 2026-11-28\n\n- The staging database is ledgerd-staging on port 5433.\n- Always answer in under five lines.\n',
};
const PRODUCTION = 'memory/2026-11-27.md:3:3';
const STAGING = 'memory/2026-11-28.md:3:3';
const PREFERENCE = 'memory/2026-11-28.md:4:4';
const SWEEP_AT = new Date(2026, 10, 29, 3, 0, 0).getTime();
const ALL_PASS = { minScore: 0, minRecallCount: 1, minUniqueQueries: 1 };

type Op = 'approve' | 'reject' | 'rollback';
const ORDERS: Op[][] = [
  ['approve', 'reject', 'rollback'],
  ['approve', 'rollback', 'reject'],
  ['reject', 'approve', 'rollback'],
  ['reject', 'rollback', 'approve'],
  ['rollback', 'approve', 'reject'],
  ['rollback', 'reject', 'approve'],
];
type Files = Record<'MEMORY.md' | 'USER.md' | 'DREAMS.md', string | null>;

interface Scenario {
  name: string;
  files: Record<string, string>;
  reviewBeforeWriting: boolean;
  /** The candidate approved and the one rejected. */
  approve: string;
  reject: string;
  queries: string[];
}

const SCENARIOS: Scenario[] = [
  {
    name: 'both written at once, DREAMS.md made by the sweep (the issue)',
    files: { 'MEMORY.md': MEMORY, ...NOTES },
    reviewBeforeWriting: false,
    approve: PRODUCTION,
    reject: STAGING,
    queries: ['where does production deploy now', 'staging database port 5433'],
  },
  {
    name: "both written at once, into OpenClaw's own diary",
    files: { 'MEMORY.md': MEMORY, 'DREAMS.md': OPENCLAW_DIARY, ...NOTES },
    reviewBeforeWriting: false,
    approve: PRODUCTION,
    reject: STAGING,
    queries: ['where does production deploy now', 'staging database port 5433'],
  },
  {
    name: 'both proposed for review first',
    files: { 'MEMORY.md': MEMORY, 'DREAMS.md': OPENCLAW_DIARY, ...NOTES },
    reviewBeforeWriting: true,
    approve: PRODUCTION,
    reject: STAGING,
    queries: ['where does production deploy now', 'staging database port 5433'],
  },
  {
    name: 'an approved USER.md supersession, a rejected MEMORY.md line',
    files: { 'MEMORY.md': MEMORY, 'USER.md': USER, ...NOTES },
    reviewBeforeWriting: false,
    approve: PREFERENCE,
    reject: STAGING,
    queries: ['answer in under five lines', 'staging database port 5433'],
  },
];

const open = dreamingWorkspaces();
let root = '';
let service: MemoryService | null = null;

function readFiles(): Files {
  const read = (name: string) => {
    const abs = path.join(root, name);
    return fs.existsSync(abs) ? fs.readFileSync(abs, 'utf8') : null;
  };
  return { 'MEMORY.md': read('MEMORY.md'), 'USER.md': read('USER.md'), 'DREAMS.md': read('DREAMS.md') };
}

async function sweep(scenario: Scenario): Promise<{ run: DreamRun; before: Files; swept: Files }> {
  const opened = await open(scenario.files, SWEEP_AT);
  ({ service } = opened);
  root = opened.ws.root;
  const clock = opened.clock;
  if (scenario.reviewBeforeWriting) await service.invoke('settings.set', { patch: { dreaming: { reviewBeforeWriting: true } } });
  await recallOver(service, clock, scenario.queries.map((query) => ({ query, daysAgo: 1 })));
  const before = readFiles();
  const run = await dream(service, { thresholds: ALL_PASS });
  const keys = run.promoted.map((p) => p.candidateKey);
  expect(keys).toEqual(expect.arrayContaining([scenario.approve, scenario.reject]));
  return { run, before, swept: readFiles() };
}

async function apply(op: Op, run: DreamRun, scenario: Scenario, rolledBack: boolean): Promise<void> {
  const call =
    op === 'rollback'
      ? service!.invoke('dream.rollback', { runId: run.id })
      : service!.invoke('dream.review', { runId: run.id, candidateKey: op === 'approve' ? scenario.approve : scenario.reject, decision: op });
  // After the rollback the run can no longer be reviewed, and saying so changes nothing.
  if (rolledBack) await expect(call).rejects.toThrow(/rolled back/);
  else await call;
}

/** The promotion's lines as one block of text, as the sweep wrote them (consecutive). */
function block(run: DreamRun, key: string): string {
  return run.promoted.find((p) => p.candidateKey === key)!.lines.map((l) => `${l}\n`).join('');
}

describe('review and rollback in any order leave every file exactly as it should be', () => {
  for (const scenario of SCENARIOS) {
    describe(scenario.name, () => {
      for (const order of ORDERS) {
        it(order.join(' → '), async () => {
          const { run, before, swept } = await sweep(scenario);
          let rolledBack = false;
          for (const op of order) {
            await apply(op, run, scenario, rolledBack);
            rolledBack ||= op === 'rollback';
          }
          const after = readFiles();
          const approvedFirst = order.indexOf('approve') < order.indexOf('rollback');

          if (!approvedFirst) {
            // Nothing the person kept: the run is gone without a trace, review included.
            expect(after).toEqual(before);
            return;
          }
          const approved = run.promoted.find((p) => p.candidateKey === scenario.approve)!;
          if (approved.target === 'USER.md') {
            // The approved preference stays, and so does the retired line it replaced.
            expect(after['USER.md']).toBe(swept['USER.md']);
            expect(after['MEMORY.md']).toBe(before['MEMORY.md']);
          } else if (scenario.reviewBeforeWriting) {
            const day = '2026-11-29';
            expect(after['MEMORY.md']).toBe(`${before['MEMORY.md']}\n## Promoted From Short-Term Memory (${day})\n${block(run, scenario.approve)}`);
          } else {
            // The approved line stays under its own heading, not under "## People".
            expect(after['MEMORY.md']).toBe(swept['MEMORY.md']!.replace(block(run, scenario.reject), ''));
            expect(after['MEMORY.md']).toContain(`## Promoted From Short-Term Memory (2026-11-29)\n${block(run, scenario.approve)}`);
          }
          expect(after['USER.md']).toBe(approved.target === 'USER.md' ? swept['USER.md'] : before['USER.md']);
          expect(after['DREAMS.md']).toBe(diaryWithRollbackNote(before['DREAMS.md'], run, scenario));
        });
      }
    });
  }
});

/** The diary as before the run, plus the one entry saying what the person approved stays. */
function diaryWithRollbackNote(before: string | null, run: DreamRun, scenario: Scenario): string {
  const date = formatDiaryDate(new Date(SWEEP_AT));
  const approved = run.promoted.find((p) => p.candidateKey === scenario.approve)!;
  const text = quoteEntry(run.candidates.find((c) => c.key === scenario.approve)!.text);
  const touched = [approved.target === 'USER.md' ? 'MEMORY.md and USER.md' : 'MEMORY.md', 'this diary'].join(' and ');
  const note = [
    `*${date}*`,
    `<!-- reverie:dream-run ${run.id} -->`,
    '',
    `You rolled back the dream run of ${date} (${run.id}): I took its lines back out of ${touched.replace('MEMORY.md and USER.md and', 'MEMORY.md, USER.md and')}. What you had approved stays: ${text} in ${approved.target}.`,
  ];
  if (before === null) return ['# Dream Diary', '', '<!-- openclaw:dreaming:diary:start -->', ...note, '<!-- openclaw:dreaming:diary:end -->', ''].join('\n');
  return before.replace('<!-- openclaw:dreaming:diary:end -->', ['', '---', '', ...note, '<!-- openclaw:dreaming:diary:end -->'].join('\n'));
}

describe('reject', () => {
  it('of a USER.md supersession brings back the directive it had retired, byte for byte', async () => {
    const scenario = SCENARIOS.find((s) => s.approve === PREFERENCE)!;
    const { run, before } = await sweep(scenario);
    expect(run.promoted.find((p) => p.candidateKey === PREFERENCE)).toMatchObject({ action: 'superseded', target: 'USER.md' });
    await service!.invoke('dream.review', { runId: run.id, candidateKey: PREFERENCE, decision: 'reject' });
    expect(readFiles()['USER.md']).toBe(before['USER.md']);
  });
});
