import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { restoreRemovedLines } from '../src/dreaming/curated/restoreRemoved.js';
import { dream, dreamingWorkspaces, recallOver } from './helpers/dreaming.js';

/**
 * A sweep that retires entries to make room in MEMORY.md (superseded, expired) and is then
 * rolled back line by line (the file was edited since, or a promotion was approved) puts each
 * retired line back exactly where it was, byte for byte, not under a heading of its own.
 */

const open = dreamingWorkspaces();
const AT = new Date(2026, 10, 29, 3, 0, 0).getTime();
const OPEN_GATES = { minScore: 0, minRecallCount: 1, minUniqueQueries: 1 };

const SUPERSEDED = '- The staging database was ledgerd-old on port 5400. Source: memory/2026-10-01.md#L3-L3 <!-- status: superseded -->';
const EXPIRED_MARKER = '<!-- openclaw-memory-promotion:memory:memory/2026-11-01.md:4:4 -->';
const EXPIRED = '- Priya is on holiday Nov 2–6; Marco approves deploys meanwhile. Source: memory/2026-11-01.md#L4-L4';

function fullMemory(): string {
  const fact = (section: string, i: number) => `- Hand-written fact ${i} about the ${section} and what grows there.`;
  const garden: string[] = [];
  const orchard: string[] = [];
  for (let i = 0; i < 70; i++) garden.push(fact('garden', i));
  for (let i = 0; i < 60; i++) orchard.push(fact('orchard', i));
  // The retired lines sit mid-section, between hand-written ones, with a blank line and a marker around them.
  const lines = () => ['# Long-Term Memory', '', '## Garden', ...garden.slice(0, 30), SUPERSEDED, ...garden.slice(30), '', '## Orchard', ...orchard.slice(0, 20), '', EXPIRED_MARKER, EXPIRED, ...orchard.slice(20), ''].join('\n');
  // Up to just under the 10,000-character budget, so the promotion needs the retired lines' room.
  for (let i = 0; lines().length < 9_950; i++) orchard.push(`- Pad ${i}.`);
  return lines();
}

async function sweptAtBudget() {
  const memory = fullMemory();
  expect(memory.length).toBeGreaterThan(9_900);
  expect(memory.length).toBeLessThanOrEqual(10_000);
  const { ws, service, clock } = await open(
    {
      'MEMORY.md': memory,
      'memory/2026-11-28.md': '# 2026-11-28\n\n- The invoice worker runs on port 7001 behind nginx.\n',
    },
    AT,
  );
  await recallOver(service, clock, [
    { query: 'invoice worker port', daysAgo: 1 },
    { query: 'which port invoice worker nginx', daysAgo: 0 },
  ]);
  const run = await dream(service, { thresholds: OPEN_GATES });
  const file = path.join(ws.root, 'MEMORY.md');
  const after = fs.readFileSync(file, 'utf8');
  // The sweep did retire both entries (the expired one with its marker) to make room.
  expect(run.writes.find((w) => w.file === 'MEMORY.md')?.removed).toEqual([SUPERSEDED, EXPIRED_MARKER, EXPIRED]);
  expect(after).toContain('The invoice worker runs on port 7001');
  return { memory, service, run, file, after };
}

describe('rollback of a sweep that retired entries for the budget', () => {
  it('restores the retired lines in place when the file was edited since (only the run is undone)', async () => {
    const { memory, service, run, file, after } = await sweptAtBudget();
    // The person edits MEMORY.md after the sweep: one line added to the Garden section.
    const personal = '- The quince tree needs netting in March.';
    fs.writeFileSync(file, after.replace('\n## Orchard', `\n${personal}\n## Orchard`));
    const rolled = await service.invoke('dream.rollback', { runId: run.id });
    expect(rolled.rolledBack?.files?.find((f) => f.file === 'MEMORY.md')?.mode).toBe('lines-removed');
    expect(fs.readFileSync(file, 'utf8')).toBe(memory.replace('\n## Orchard', `\n${personal}\n## Orchard`));
  });

  it('restores them in place when an approved promotion stays', async () => {
    const { memory, service, run, file } = await sweptAtBudget();
    const promotion = run.promoted.find((p) => p.target === 'MEMORY.md')!;
    await service.invoke('dream.review', { runId: run.id, candidateKey: promotion.candidateKey, decision: 'approve' });
    await service.invoke('dream.rollback', { runId: run.id });
    const text = fs.readFileSync(file, 'utf8');
    // Every retired line is back at its own place; the approved promotion is all that differs from before the sweep.
    const kept = new Set(promotion.lines);
    const withoutKept = text.split('\n').filter((line) => !kept.has(line));
    const before = memory.split('\n');
    for (const line of [SUPERSEDED, EXPIRED_MARKER, EXPIRED]) expect(withoutKept.indexOf(line)).toBe(before.indexOf(line));
    expect(text).not.toContain('Restored by rollback');
  });
});

describe('restoreRemovedLines', () => {
  const before = ['# M', '', '## A', '- a1', '- old', '- a2', '', '## B', '- b1', ''].join('\n');
  const removed = ['- old'];
  const after = before.replace('- old\n', '');

  it('puts a removed line back after the line that preceded it, whatever was added elsewhere', () => {
    const edited = after.replace('- b1', '- b0\n- b1');
    expect(restoreRemovedLines(edited, removed, before)).toEqual({ text: before.replace('- b1', '- b0\n- b1'), unplaced: [] });
  });

  it('keeps the file’s CRLF line ends and a removed block at the very start or end', () => {
    const crlf = before.replace(/\n/g, '\r\n');
    const withoutEdges = crlf.replace('# M\r\n', '').replace('- b1\r\n', '');
    expect(restoreRemovedLines(withoutEdges, ['# M', '- b1'], crlf)).toEqual({ text: crlf, unplaced: [] });
  });

  it('returns the line unplaced when both its neighbours were edited away, and a line the pre-image never held', () => {
    const edited = after.replace('- a1\n- a2\n', '- a9\n');
    expect(restoreRemovedLines(edited, [...removed, '- never there'], before)).toEqual({ text: edited, unplaced: ['- never there', '- old'] });
  });
});
