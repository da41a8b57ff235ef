import { describe, expect, it } from 'vitest';
import type { DreamRun } from '../../core/src/contract/index.js';
import type { Fold } from '../bench/curation/folds.js';
import { normalise, writtenLines } from '../bench/curation/match.js';
import { scoreFold } from '../bench/curation/score.js';
import type { SimulationResult } from '../bench/curation/simulate.js';

const START_MEMORY = '# Long-Term Memory\n\n## Infra\n- Deploys are run by hand from the bastion.\n';
const START_USER = '# User\n\n- I work in Lisbon time.\n';

const fold: Fold = {
  name: 'tiny',
  persona: 'test',
  workspaceDir: '/nonexistent',
  // One sweep on 09-10: its week is 09-03 … 09-10. Staging is asked by 3 queries on 2 days of it (one through its
  // duplicate), Dana's rule by 3 on 2; argocd by 3 queries but only one inside the week.
  use: {
    sweeps: ['2026-09-10'],
    searches: {
      '2026-08-20': ['argocd deploys'],
      '2026-08-21': ['how do we deploy'],
      '2026-09-02': ['staging host'],
      '2026-09-03': ['Staging host', '>staging port'],
      '2026-09-04': ['which vpn', 'lunch'],
      '2026-09-09': ['dana migrations', 'migration PR rule', 'deploy now'],
      '2026-09-10': ['dana PR rule'],
    },
    asks: {
      'argocd deploys': ['argocd'],
      'how do we deploy': ['argocd'],
      'deploy now': ['argocd'],
      'staging host': ['staging'],
      'Staging host': ['staging2'],
      'staging port': ['staging'],
      'which vpn': ['staging2'],
      lunch: [],
      'dana migrations': ['dana'],
      'migration PR rule': ['dana'],
      'dana PR rule': ['dana'],
    },
  },
  files: new Map([
    ['MEMORY.md', START_MEMORY],
    ['USER.md', START_USER],
    ['memory/2026-09-01.md', '# 1 Sep\n\n- The staging box is stg-01, port 8443.\n- [ ] ask Dana about the reset\n- Prefer Jest for tests.\n- Wiki says metrics port 9102.\n- Jun says metrics port 9464.\n'],
    ['memory/2026-09-08.md', '# 8 Sep\n\n- staging = stg-01:8443\n- Prefer Vitest over Jest now.\n- Deploys now go through ArgoCD.\n- Dana prefers migrations in their own PR.\n'],
  ]),
  labels: [
    { id: 'old-deploy', file: 'MEMORY.md', match: 'Deploys are run by hand', verdict: 'existing' },
    { id: 'staging', file: 'memory/2026-09-01.md', match: 'The staging box is stg-01', verdict: 'promote', target: 'MEMORY.md' },
    { id: 'task', file: 'memory/2026-09-01.md', match: 'ask Dana about the reset', verdict: 'never', why: 'task' },
    { id: 'jest', file: 'memory/2026-09-01.md', match: 'Prefer Jest for tests', verdict: 'promote', target: 'USER.md' },
    { id: 'wiki', file: 'memory/2026-09-01.md', match: 'Wiki says metrics port', verdict: 'promote', target: 'MEMORY.md', contradicts: 'jun' },
    { id: 'jun', file: 'memory/2026-09-01.md', match: 'Jun says metrics port', verdict: 'promote', target: 'MEMORY.md', contradicts: 'wiki' },
    { id: 'staging2', file: 'memory/2026-09-08.md', match: 'staging = stg-01', verdict: 'promote', target: 'MEMORY.md', duplicateOf: 'staging' },
    { id: 'vitest', file: 'memory/2026-09-08.md', match: 'Prefer Vitest over Jest', verdict: 'promote', target: 'USER.md', supersedes: 'jest' },
    { id: 'argocd', file: 'memory/2026-09-08.md', match: 'Deploys now go through ArgoCD', verdict: 'promote', target: 'MEMORY.md', supersedes: 'old-deploy' },
    { id: 'dana', file: 'memory/2026-09-08.md', match: 'Dana prefers migrations', verdict: 'promote', target: 'MEMORY.md' },
  ],
};

// What the searches showed (used only by the per-miss diagnostic): the asked figures come from use.asks above.
const SHOWN: SimulationResult['shown'] = [
  { query: 'staging host', day: '2026-09-02', results: [{ path: 'memory/2026-09-01.md', startLine: 1, endLine: 4 }] },
  { query: 'Staging host', day: '2026-09-03', results: [{ path: 'memory/2026-09-01.md', startLine: 3, endLine: 3 }] },
  { query: 'staging port', day: '2026-09-03', results: [{ path: 'memory/2026-09-01.md', startLine: 2, endLine: 5 }] },
  { query: 'which vpn', day: '2026-09-04', results: [{ path: 'memory/2026-09-01.md', startLine: 3, endLine: 3 }, { path: 'memory/2026-09-08.md', startLine: 6, endLine: 6 }] },
  { query: 'dana migrations', day: '2026-09-09', results: [{ path: 'memory/2026-09-08.md', startLine: 6, endLine: 6 }] },
  { query: 'migration PR rule', day: '2026-09-09', results: [{ path: 'memory/2026-09-08.md', startLine: 6, endLine: 6 }] },
];

function simulated(memory: string, user: string): SimulationResult {
  return { startFiles: { 'MEMORY.md': START_MEMORY, 'USER.md': START_USER }, finalFiles: { 'MEMORY.md': memory, 'USER.md': user }, runs: [], sweepSeconds: [0.5, 0.25], searches: 0, opened: 0, shown: SHOWN };
}

describe('curation scoring', () => {
  it('matches a written line by its source marker first, then by normalised text, else not at all', () => {
    const memory = `${START_MEMORY}\n## Promoted\n<!-- openclaw-memory-promotion:memory:memory/2026-09-08.md:3:3 -->\n- staging on port 8443 [score=0.9 recalls=4 source=memory/2026-09-08.md:3-3]\n- THE STAGING BOX is stg-01,   port 8443!\n- Something nobody wrote.\n`;
    const lines = writtenLines(fold, 'MEMORY.md', START_MEMORY, memory);
    expect(lines.map((l) => [l.label?.id ?? null, l.matchedBy])).toEqual([['staging2', 'source'], ['staging', 'text'], [null, 'none']]);
    expect(normalise('- [ ] Ask   Dana! <!-- kind: task -->')).toBe('ask dana');
  });

  it('counts wrong promotions, duplicates, inverted supersessions, kept contradictions and score text', () => {
    const memory =
      `${START_MEMORY}\n## Promoted From Short-Term Memory (2026-09-10)\n` +
      '- The staging box is stg-01, port 8443. [score=0.9 (signals=3) recalls=3 avg=0.5 source=memory/2026-09-01.md:3-3]\n' +
      '- staging = stg-01:8443 [score=0.8 (signals=3) recalls=3 avg=0.5 source=memory/2026-09-08.md:3-3]\n' +
      '- ask Dana about the reset [score=0.8 (signals=3) recalls=3 avg=0.5 source=memory/2026-09-01.md:4-4]\n' +
      '- Wiki says metrics port 9102. [score=0.8 (signals=3) recalls=3 avg=0.5 source=memory/2026-09-01.md:6-6]\n' +
      '- Jun says metrics port 9464. [score=0.8 (signals=3) recalls=3 avg=0.5 source=memory/2026-09-01.md:7-7]\n';
    const user = `${START_USER}- Dana prefers migrations in their own PR. <!-- status: active -->\n- Prefer Vitest over Jest now. <!-- status: superseded -->\n- Prefer Jest for tests. <!-- status: active -->\n`;
    const score = scoreFold(fold, simulated(memory, user));
    expect(score).toMatchObject({
      lines_written: 8,
      lines_correct: 6, // staging, staging2, wiki, jun, vitest and jest (the superseded jest is still a durable entry)
      lines_wrong_file: 1, // Dana's preference in USER.md
      tasks_promoted: 1,
      duplicate_lines: 1,
      supersessions: 2,
      supersessions_inverted: 1, // vitest retired in favour of the older jest
      supersessions_applied: 0,
      supersessions_both_active: 0,
      contradictions: 1,
      contradictions_both_active: 1,
      contradictions_queued: 0,
      signal_text_lines: 5,
      sweep_s_max: 0.5,
      recall_targets: 4, // staging, vitest, argocd, dana (jest and old-deploy are superseded, wiki/jun contradict)
      recall_hits: 1, // only staging: vitest is retired, argocd missing, dana in the wrong file
      recall_targets_asked: 2, // staging (3 queries on 09-03/04 through itself and staging2) and dana (3 on 09-09/10); argocd has 1 in the week
      recall_hits_asked: 1,
    });
  });

  it('calls a supersession applied when only the newer fact is active', () => {
    const memory = '# Long-Term Memory\n\n## Infra\n- Deploys now go through ArgoCD. <!-- supersedes the bastion -->\n';
    const user = `${START_USER}- Prefer Jest for tests. <!-- status: superseded -->\n- Prefer Vitest over Jest now. <!-- status: active -->\n`;
    const score = scoreFold(fold, simulated(memory, user));
    expect(score).toMatchObject({ supersessions_applied: 2, supersessions_inverted: 0, supersessions_both_active: 0, duplicate_lines: 0, signal_text_lines: 0 });
  });

  it('in a chain of supersessions, the middle one holds when the oldest is retired and the newest is active', () => {
    // The bastion → GitHub Actions (09-01) → ArgoCD (09-08): the middle fact is never written, which is right.
    const chain: Fold = {
      ...fold,
      files: new Map([...fold.files, ['memory/2026-09-01.md', `${fold.files.get('memory/2026-09-01.md')!}- Deploys now go through GitHub Actions.\n`]]),
      labels: [
        ...fold.labels.map((l) => (l.id === 'argocd' ? { ...l, supersedes: 'gha' } : l)),
        { id: 'gha', file: 'memory/2026-09-01.md', match: 'Deploys now go through GitHub Actions', verdict: 'promote', target: 'MEMORY.md', supersedes: 'old-deploy' },
      ],
    };
    const user = `${START_USER}- Prefer Vitest over Jest now.\n`;
    const newest = '- Deploys now go through ArgoCD. Source: memory/2026-09-08.md#L5-L5';
    const retired = scoreFold(chain, simulated(`# Long-Term Memory\n\n## Infra\n- Deploys are run by hand from the bastion. <!-- status: superseded -->\n${newest}\n`, user));
    expect(retired).toMatchObject({ supersessions: 3, supersessions_applied: 3, supersessions_inverted: 0, supersessions_both_active: 0 });
    // The oldest still active beside the newest: the middle supersession did not hold, and the mistakes say so.
    const kept = scoreFold(chain, simulated(`${START_MEMORY}${newest}\n`, user));
    expect(kept).toMatchObject({ supersessions_applied: 2, supersessions_inverted: 0, supersessions_both_active: 0 });
    expect(kept.mistakes).toContain('gha over old-deploy: not applied (only the older active)');
  });

  it('a contradiction is queued when a run lists both entries, one on each side, whatever quotes the labels hold', () => {
    const quoted: Fold = {
      ...fold,
      files: new Map([...fold.files, ['memory/2026-09-01.md', fold.files.get('memory/2026-09-01.md')!.replace('Wiki says metrics port 9102.', 'Wiki says "metrics" port 9102.')]]),
      labels: fold.labels.map((l) => (l.id === 'wiki' ? { ...l, match: 'Wiki says "metrics" port' } : l)),
    };
    const side = (text: string) => ({ text, path: 'memory/2026-09-01.md', line: 6, day: '2026-09-01' });
    const runWith = (a: string, b: string, reason: string) =>
      ({ startedAt: '2026-09-10T03:00:00.000', promoted: [], candidates: [], contradictions: [{ id: 'c', a: side(a), b: side(b), reason, runId: 'r', detectedAt: '', status: 'open', resolvedAt: null }] }) as unknown as DreamRun;
    const score = (runs: DreamRun[]) => scoreFold(quoted, { ...simulated(START_MEMORY, START_USER), runs });
    expect(score([runWith('Jun says metrics port 9464.', 'Wiki says "metrics" port 9102.', 'differs in 9102, 9464')]).contradictions_queued).toBe(1);
    // Both texts in one record, but not as its two sides: the Jun line only quoted in the reason.
    expect(score([runWith('Wiki says "metrics" port 9102.', 'The metrics port is 9102.', 'unlike "Jun says metrics port 9464."')]).contradictions_queued).toBe(0);
  });

  it('an older fact written before the newer note existed is a supersession not applied, not an inverted one', () => {
    const user = `${START_USER}- Prefer Jest for tests. Source: memory/2026-09-01.md#L5-L5\n`;
    const wroteJestOn = (startedAt: string) =>
      [{ startedAt, promoted: [{ candidateKey: 'memory/2026-09-01.md:5:5', target: 'USER.md', action: 'added', lines: [], priorEntries: [], decision: 'auto', decidedAt: null }], candidates: [] }] as unknown as DreamRun[];
    const early = scoreFold(fold, { ...simulated(START_MEMORY, user), runs: wroteJestOn('2026-09-05T03:00:00.000') });
    expect(early).toMatchObject({ supersessions_inverted: 0 });
    expect(early.mistakes).toContain('vitest over jest: not applied (only the older active)');
    const late = scoreFold(fold, { ...simulated(START_MEMORY, user), runs: wroteJestOn('2026-09-10T03:00:00.000') });
    expect(late).toMatchObject({ supersessions_inverted: 1 });
  });
});
