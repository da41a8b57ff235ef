import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { dream, dreamingWorkspaceEachTest, recallOver } from './helpers/dreaming.js';

/**
 * With "review before writing" on, proposals get the judgment direct writes get: a restatement
 * is not proposed, a supersession is proposed as one and retires the older line on approval,
 * and approval judges again against the file as it is then.
 */

const OPEN_GATES = { minScore: 0, minRecallCount: 1, minUniqueQueries: 1 };
const STAGING_LINE = '- The staging database is ledgerd-staging on port 5433. Source: memory/2026-11-20.md#L3-L3';
const MOVED = 'The staging database moved: now ledgerd-staging-2 on port 5434.';
const MOVED_KEY = 'memory/2026-11-28.md:3:3';
const STAGING_RECALLS = [
  { query: 'staging database port', daysAgo: 1 },
  { query: 'ledgerd-staging host', daysAgo: 0 },
];
const AT = new Date(2026, 10, 29, 3, 0, 0).getTime();
const { setup, file, read } = dreamingWorkspaceEachTest(AT, (service) => service.invoke('settings.set', { patch: { dreaming: { reviewBeforeWriting: true } } }));

describe('review before writing: proposals are judged like direct writes', () => {
  it('a restatement of a line already in MEMORY.md is not proposed, nor written', async () => {
    const memory = `# Long-Term Memory\n\n## Infra\n${STAGING_LINE}\n`;
    const { service, clock } = await setup({
      'MEMORY.md': memory,
      'memory/2026-11-28.md': '# 2026-11-28\n\n- Reminder: staging DB is ledgerd-staging, port 5433.\n',
    });
    await recallOver(service, clock, STAGING_RECALLS);
    const run = await dream(service, { thresholds: OPEN_GATES });
    const candidate = run.candidates.find((c) => c.key === 'memory/2026-11-28.md:3:3');
    expect(candidate?.outcome).toBe('duplicate');
    expect(candidate?.gates.find((g) => g.gate === 'judgment')?.detail).toContain('restates');
    expect(run.promoted).toEqual([]);
    expect(run.curation).toMatchObject({ dedupes: 1 });
    // Nothing is written before review: not even the source list a direct write would grow.
    expect(read('MEMORY.md')).toBe(memory);
  });

  it('a fact proposed, approved, then restated in a later note is not proposed a second time', async () => {
    const { service, clock } = await setup({
      'MEMORY.md': '# Long-Term Memory\n',
      'memory/2026-11-28.md': '# 2026-11-28\n\n- The staging database is ledgerd-staging on port 5433.\n',
    });
    await recallOver(service, clock, STAGING_RECALLS);
    const first = await dream(service, { thresholds: OPEN_GATES });
    expect(first.promoted.map((p) => [p.candidateKey, p.decision])).toEqual([['memory/2026-11-28.md:3:3', 'proposed']]);
    await service.invoke('dream.review', { runId: first.id, candidateKey: 'memory/2026-11-28.md:3:3', decision: 'approve' });
    expect(read('MEMORY.md')).toContain('- The staging database is ledgerd-staging on port 5433. Source: memory/2026-11-28.md#L3-L3');

    clock.set(AT + 86_400_000);
    fs.writeFileSync(file('memory/2026-11-29.md'), '# 2026-11-29\n\n- Reminder: staging DB is ledgerd-staging, port 5433.\n');
    await service.sync(false);
    await recallOver(service, clock, STAGING_RECALLS);
    const before = read('MEMORY.md');
    const second = await dream(service, { thresholds: OPEN_GATES });
    expect(second.candidates.find((c) => c.key === 'memory/2026-11-29.md:3:3')?.outcome).toBe('duplicate');
    expect(second.promoted.filter((p) => p.decision === 'proposed')).toEqual([]);
    expect(read('MEMORY.md')).toBe(before);
  });

  it('a supersession is proposed as one, and approving it retires the older line in the same write', async () => {
    const memory = `# Long-Term Memory\n\n## Infra\n${STAGING_LINE}\n`;
    const { service, clock } = await setup({ 'MEMORY.md': memory, 'memory/2026-11-28.md': `# 2026-11-28\n\n- ${MOVED}\n` });
    await recallOver(service, clock, STAGING_RECALLS);
    const run = await dream(service, { thresholds: OPEN_GATES });
    const proposal = run.promoted.find((p) => p.candidateKey === MOVED_KEY);
    expect(proposal).toMatchObject({ decision: 'proposed', action: 'superseded', priorEntries: [STAGING_LINE.slice(2)] });
    expect(read('MEMORY.md')).toBe(memory);

    const approved = await service.invoke('dream.review', { runId: run.id, candidateKey: MOVED_KEY, decision: 'approve' });
    const after = read('MEMORY.md');
    expect(after).toContain(`${STAGING_LINE} <!-- status: superseded -->\n`);
    expect(after).toContain(`- ${MOVED} Source: memory/2026-11-28.md#L3-L3`);
    expect(approved.promoted.find((p) => p.candidateKey === MOVED_KEY)).toMatchObject({ decision: 'approved', action: 'superseded' });

    // Rejecting it afterwards takes the new line out and puts the older one back as it was.
    await service.invoke('dream.review', { runId: run.id, candidateKey: MOVED_KEY, decision: 'reject' });
    expect(read('MEMORY.md')).toContain(`${STAGING_LINE}\n`);
    expect(read('MEMORY.md')).not.toContain('ledgerd-staging-2');
    expect(read('MEMORY.md')).not.toContain('status: superseded');
  });

  it('approval after a hand edit that already added the line writes nothing', async () => {
    const { service, clock } = await setup({
      'MEMORY.md': '# Long-Term Memory\n',
      'memory/2026-11-28.md': '# 2026-11-28\n\n- The staging database is ledgerd-staging on port 5433.\n',
    });
    await recallOver(service, clock, STAGING_RECALLS);
    const run = await dream(service, { thresholds: OPEN_GATES });
    expect(run.promoted.find((p) => p.candidateKey === 'memory/2026-11-28.md:3:3')?.decision).toBe('proposed');
    const byHand = '# Long-Term Memory\n\n- Staging DB: ledgerd-staging, port 5433.\n';
    fs.writeFileSync(file('MEMORY.md'), byHand);
    const approved = await service.invoke('dream.review', { runId: run.id, candidateKey: 'memory/2026-11-28.md:3:3', decision: 'approve' });
    expect(read('MEMORY.md')).toBe(byHand);
    expect(approved.promoted.find((p) => p.candidateKey === 'memory/2026-11-28.md:3:3')).toMatchObject({ decision: 'approved', lines: [] });
    expect(read('DREAMS.md')).toContain('already says it');
  });

  it('approval after a hand edit that wrote a newer value keeps the proposal out and says why', async () => {
    const { service, clock } = await setup({
      'MEMORY.md': '# Long-Term Memory\n',
      'memory/2026-11-27.md': '# 2026-11-27\n\n- The staging database is ledgerd-staging on port 5433.\n',
    });
    await recallOver(service, clock, STAGING_RECALLS);
    const run = await dream(service, { thresholds: OPEN_GATES });
    const byHand = `# Long-Term Memory\n\n- ${MOVED} Source: memory/2026-11-28.md#L3-L3\n`;
    fs.writeFileSync(file('MEMORY.md'), byHand);
    await expect(service.invoke('dream.review', { runId: run.id, candidateKey: 'memory/2026-11-27.md:3:3', decision: 'approve' })).rejects.toThrow(/newer and says otherwise/);
    expect(read('MEMORY.md')).toBe(byHand);
  });
  it('approval after a hand edit with another value the days cannot order queues the contradiction and writes nothing', async () => {
    const { service, clock } = await setup({
      'MEMORY.md': '# Long-Term Memory\n',
      'memory/2026-11-27.md': '# 2026-11-27\n\n- The staging database is ledgerd-staging on port 5433.\n',
    });
    await recallOver(service, clock, STAGING_RECALLS);
    const run = await dream(service, { thresholds: OPEN_GATES });
    // The person's own undated line: its day is unknown, so neither side can retire the other.
    const byHand = '# Long-Term Memory\n\n- The staging database is ledgerd-staging-9 on port 5499.\n';
    fs.writeFileSync(file('MEMORY.md'), byHand);
    await expect(service.invoke('dream.review', { runId: run.id, candidateKey: 'memory/2026-11-27.md:3:3', decision: 'approve' })).rejects.toThrow(/Dreams → Conflicts/);
    expect(read('MEMORY.md')).toBe(byHand);
    const { conflicts } = await service.invoke('dream.conflicts', { status: 'open' });
    expect(conflicts.map((c) => [c.a.text, c.b.text].sort())).toEqual([
      ['The staging database is ledgerd-staging on port 5433.', 'The staging database is ledgerd-staging-9 on port 5499.'],
    ]);
  });
});
