import { afterEach, describe, expect, it } from 'vitest';
import { cliEnv, runCli } from './helpers/cli.js';
import { createTempWorkspace, type TempWorkspace } from './helpers/workspace.js';

let ws: TempWorkspace | undefined;
afterEach(() => ws?.cleanup());

const NOTES = {
  'MEMORY.md': '# Memory\n\n## People\n- Marek Nowak owns the tax module.\n- Lunch with Dana; she moved to Lisbon.\n',
  'memory/2026-03-01.md': '# 2026-03-01\n\n- Dana moved to Porto.\n- Dana and Marek Nowak reviewed [[ledgerd]].\n',
  'memory/projects/atlas.md': '---\ntitle: Project Atlas\nstatus: active\n---\n\nDana runs the backups.\n',
};

/** Every line carries where it is and who extracted it (no chat model here: the rules). */
const evidenceShape = { path: expect.any(String), startLine: expect.any(Number), endLine: expect.any(Number), byModel: false };

function oneJson(stdout: string): unknown {
  expect(stdout.trim().split('\n')).toHaveLength(1);
  return JSON.parse(stdout);
}

describe('reverie graph', () => {
  // Seven CLI runs, each opening the engine: the 180 s limit is a safety net at load 20+, not the check.
  it('search, neighbors, explain and overview print one JSON value whose items carry evidence', async () => {
    ws = createTempWorkspace(NOTES);
    const env = cliEnv(ws.dataDir);
    const at = ['--workspace', ws.root];
    const found = await runCli(['graph', 'search', 'dana', '--json', ...at], env);
    expect(found.code).toBe(0);
    const entities = oneJson(found.stdout) as Array<{ id: string; label: string; evidence: unknown[] }>;
    expect(entities[0]).toMatchObject({ id: expect.stringMatching(/^entity:\d+$/), label: 'Dana', type: 'person' });
    expect(entities[0]!.evidence[0]).toMatchObject(evidenceShape);

    const near = await runCli(['graph', 'neighbors', 'Dana', '--hops', '2', '--json', ...at], env);
    expect(near.code).toBe(0);
    const slice = oneJson(near.stdout) as { center: { label: string }; entities: Array<{ evidence: unknown[] }>; edges: Array<{ id: string; predicate: string; evidence: unknown[] }>; omitted: object; totals: object };
    expect(slice.center.label).toBe('Dana');
    expect(slice).toMatchObject({ evidence: 'included' });
    for (const item of [...slice.entities, ...slice.edges]) expect(item.evidence[0]).toMatchObject(evidenceShape);
    const moved = slice.edges.find((c) => c.predicate === 'moved_to')!;

    const explained = await runCli(['graph', 'explain', moved.id, '--json', ...at], env);
    expect(explained.code).toBe(0);
    const claim = oneJson(explained.stdout) as { subjectLabel: string; lines: Array<{ path: string; line: number; text: string }>; evidence: unknown[] };
    expect(claim.subjectLabel).toBe('Dana');
    expect(claim.lines[0]).toMatchObject({ path: expect.any(String), line: expect.any(Number), text: expect.stringContaining('moved to') });
    expect(claim.evidence[0]).toMatchObject(evidenceShape);

    const overview = await runCli(['graph', 'overview', '--limit', '3', '--json', ...at], env);
    expect(overview.code).toBe(0);
    // The overview says it leaves evidence lines out; neighbors (above) carries them on every item.
    expect(oneJson(overview.stdout)).toMatchObject({ entities: expect.any(Array), edges: expect.any(Array), omitted: { entities: expect.any(Number), edges: expect.any(Number) }, totals: expect.any(Object), evidence: 'omitted' });

    const text = await runCli(['graph', 'neighbors', 'Dana', ...at], env);
    expect(text.stdout).toContain('Dana');
    expect(text.stdout).toContain('moved_to');

    // A centre's facts (literal claims), with where they were written.
    const atlas = oneJson((await runCli(['graph', 'neighbors', 'Project Atlas', '--json', ...at], env)).stdout) as { facts: Array<{ predicate: string; literal: string; evidence: unknown[] }> };
    expect(atlas.facts).toContainEqual(expect.objectContaining({ predicate: 'status', literal: 'active', evidence: [expect.objectContaining({ ...evidenceShape, path: 'memory/projects/atlas.md' })] }));
    const atlasText = (await runCli(['graph', 'neighbors', 'Project Atlas', ...at], env)).stdout;
    expect(atlasText).toMatch(/^Facts:\n {2}status: active {2}\[claim:\d+, memory\/projects\/atlas\.md:1-4\]$/m);

    const missing = await runCli(['graph', 'neighbors', 'Nobody Here', ...at], env);
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toContain('No entity called "Nobody Here"');
    expect((await runCli(['graph', 'neighbors', 'Dana', '--hops', '9', ...at], env)).code).toBe(1);
    expect((await runCli(['graph', 'frobnicate', ...at], env)).code).toBe(1);
  }, 180_000);

  it('search --graph adds a Graph group, and wraps --json as {results, graph} only when asked', async () => {
    ws = createTempWorkspace(NOTES);
    const env = cliEnv(ws.dataDir);
    const at = ['--workspace', ws.root];
    const plain = await runCli(['search', 'Dana', '--json', ...at], env);
    expect(Array.isArray(oneJson(plain.stdout))).toBe(true);
    const withGraph = await runCli(['search', 'Dana', '--graph', '--json', ...at], env);
    const both = oneJson(withGraph.stdout) as { results: unknown[]; graph: Array<{ label: string; evidence: unknown[] }> };
    expect(both.results.length).toBeGreaterThan(0);
    expect(both.graph.map((e) => e.label)).toContain('Dana');
    expect(both.graph[0]!.evidence[0]).toMatchObject(evidenceShape);
    const human = await runCli(['search', 'Dana', '--graph', ...at], env);
    expect(human.stdout).toMatch(/\nGraph\n/);
    expect(human.stdout).toMatch(/entity:\d+ {2}Dana/);
  });
});
