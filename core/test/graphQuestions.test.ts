import { afterEach, describe, expect, it } from 'vitest';
import type { GraphEntity } from '../src/contract/index.js';
import type { MemoryService } from '../src/engine/memoryService.js';
import { cliEnv, runCli } from './helpers/cli.js';
import { createTempWorkspace, openService, type TempWorkspace } from './helpers/workspace.js';

let ws: TempWorkspace | undefined;
let service: MemoryService | undefined;
afterEach(async () => {
  await service?.close();
  ws?.cleanup();
  service = undefined;
  ws = undefined;
});

/** An invented team: the staging box is known by its alias only; its owner changes once. */
const NOTES = {
  'memory/hosts/stg-01.md': '---\ntitle: stg-01\naliases: [staging box]\n---\n\nThe shared staging machine in the rack.\n',
  'memory/2026-10-01.md': [
    '# 2026-10-01',
    '',
    '- Marco Bellini owns stg-01 until the reorg.',
    '- Marco Bellini leads Kestrel; Kestrel runs on kube-east.',
    '- Priya Raman uses pnpm.',
  ].join('\n'),
  'memory/2026-10-20.md': ['# 2026-10-20', '', '- Dana Okafor owns stg-01 now.', '- Dana rebooted stg-01 after the disk filled.', '- Sam Reyes owns payments-gateway.'].join('\n'),
};

async function graphHits(query: string): Promise<GraphEntity[]> {
  const result = await service!.invoke('memory.search', { query, graph: true });
  return result.graph ?? [];
}

describe('graph-aware search: entities by alias and relation words', () => {
  it('answers "who owns the staging box" with Dana (its owner now) before Marco (its owner before)', async () => {
    ws = createTempWorkspace(NOTES);
    service = openService(ws);
    await service.invoke('index.sync', {});

    const hits = await graphHits('who owns the staging box');
    expect(hits.map((e) => e.label).slice(0, 3)).toEqual(['Dana Okafor', 'Marco Bellini', 'stg-01']);
    expect(hits[0]!.answer).toMatchObject({ predicate: 'owns', role: 'subject', through: 'stg-01', validUntil: null, claimId: expect.stringMatching(/^claim:\d+$/) });
    expect(hits[1]!.answer?.validUntil).toMatch(/^2026-10-20/);
    // The named box itself is found (by its alias), but it answers nothing.
    expect(hits[2]!.answer).toBeUndefined();

    // A name before the relation word is its subject: where Kestrel runs.
    const runsOn = await graphHits('what does Kestrel run on?');
    expect(runsOn[0]).toMatchObject({ label: 'kube-east', answer: { predicate: 'runs_on', role: 'object', through: 'Kestrel' } });
    // "who leads" asks for the subject; Sam's project is not in the answer.
    const leads = await graphHits('who leads kestrel');
    expect(leads[0]).toMatchObject({ label: 'Marco Bellini', answer: { predicate: 'leads' } });
    expect(leads.map((e) => e.label)).not.toContain('Sam Reyes');
  }, 120_000);

  it('finds nothing through relation words alone, and keeps the plain name search', async () => {
    ws = createTempWorkspace(NOTES);
    service = openService(ws);
    await service.invoke('index.sync', {});
    // A relation word with no name in the question answers nothing (no owner of everything).
    expect((await graphHits('who owns what')).filter((e) => e.answer)).toEqual([]);
    // A name without a relation word: the entity itself, as before.
    const named = await graphHits('pnpm');
    expect(named[0]).toMatchObject({ label: 'pnpm' });
    expect(named[0]!.answer).toBeUndefined();
    // A possessive spells the name: "Priya Raman's tools" finds Priya Raman.
    expect((await graphHits("Priya Raman's tools")).map((e) => e.label)).toContain('Priya Raman');
  }, 120_000);

  it('`reverie search --graph` prints the answer and the relation it came through', async () => {
    ws = createTempWorkspace(NOTES);
    const env = cliEnv(ws.dataDir);
    const text = await runCli(['search', 'who owns the staging box', '--graph', '--workspace', ws.root], env);
    expect(text.code).toBe(0);
    const graph = text.stdout.slice(text.stdout.indexOf('\nGraph\n'));
    expect(graph).toMatch(/entity:\d+ {2}Dana Okafor {2}\(person/);
    expect(graph).toMatch(/owns stg-01 {2}\[claim:\d+\]/);
    expect(graph).toMatch(/owns stg-01 \(until 2026-10-20\)/);
    const json = await runCli(['search', 'who owns the staging box', '--graph', '--json', '--workspace', ws.root], env);
    const parsed = JSON.parse(json.stdout) as { graph: GraphEntity[] };
    expect(parsed.graph[0]).toMatchObject({ label: 'Dana Okafor', answer: { predicate: 'owns', through: 'stg-01' } });
  }, 180_000);
});
