import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { OperationInput, OperationOutput } from '../../core/src/contract/index.js';
import { MemoryClientError } from '../src/client/clientError.js';
import { GRAPH_NODE_BUDGET, claimsOf, evidenceRef, graphFiltersOf, observedRange } from '../src/store/graphSlice.js';
import { createReverieStore, type ReverieStore } from '../src/store/store.js';
import { StoreContext } from '../src/store/useReverie.js';
import { GraphDetailCard } from '../src/views/graph/GraphDetailCard.js';
import { GraphView } from '../src/views/graph/GraphView.js';
import { addDays, daysBetween } from '../src/views/graph/graphTime.js';
import { createFakeClient, deferred } from './fakeClient.js';
import { claim, entity, evidence, slice } from './graphFixtures.js';

const ADA = entity('entity:1', { label: 'Ada Marlowe', aliases: ['Ada'], degree: 2, evidence: [evidence('USER.md', 3)] });
const PORTO = entity('entity:2', { type: 'place', label: 'Porto', degree: 1 });
const QUILL = entity('entity:3', { type: 'project', label: 'Quillfeather', degree: 1, sources: ['workspace', 'codex'] });
const LIVES = claim('claim:1', 'entity:1', 'entity:2', { predicate: 'lives_in', validFrom: '2026-03-01' });
const WORKS = claim('claim:2', 'entity:3', 'entity:1', { predicate: 'owned_by', validFrom: '2026-03-09' });
const OVERVIEW = slice([ADA, PORTO, QUILL], [LIVES, WORKS]);

type Handlers = Parameters<typeof createFakeClient>[0];

function setup(handlers: Handlers): { store: ReverieStore; calls: Array<{ name: string; input: unknown }> } {
  const calls: Array<{ name: string; input: unknown }> = [];
  const wrapped: Handlers = {};
  for (const [name, handler] of Object.entries(handlers)) {
    (wrapped as Record<string, unknown>)[name] = (input: unknown) => {
      calls.push({ name, input });
      return (handler as (i: unknown) => Promise<unknown>)(input);
    };
  }
  const store = createReverieStore(createFakeClient(wrapped), { confirm: () => true });
  return { store, calls };
}

const neighborsOf = (center = ADA): OperationOutput<'graph.neighbors'> => ({
  ...slice([ADA, PORTO, QUILL], [LIVES, WORKS, claim('claim:9', 'entity:2', 'entity:3')]),
  center,
  facts: [claim('claim:20', center.id, null, { predicate: 'timezone', literal: 'Europe/Lisbon' })],
});

const render = (store: ReverieStore, view: 'view' | 'card' = 'view'): string =>
  renderToStaticMarkup(createElement(StoreContext.Provider, { value: { ...store, getInitialState: store.getState } }, createElement(view === 'view' ? GraphView : GraphDetailCard)));

describe('graph slice', () => {
  it('loads the overview with the node budget when the Graph view opens', async () => {
    const { store, calls } = setup({ 'graph.overview': async () => OVERVIEW });
    store.getState().app.setView('graph');
    expect(store.getState().graph.state).toBe('loading');
    await Promise.resolve();
    await new Promise((r) => setTimeout(r, 0));
    const graph = store.getState().graph;
    expect(graph.state).toBe('ready');
    expect(graph.data?.entities).toHaveLength(3);
    expect(calls).toEqual([{ name: 'graph.overview', input: { limit: GRAPH_NODE_BUDGET, mentionedWith: false } }]);
    expect(graph.dateRange).toEqual({ min: '2026-03-01', max: '2026-03-09' });
  });

  it('selects an entity (graph.neighbors), explains a claim, clears', async () => {
    const { store, calls } = setup({
      'graph.overview': async () => OVERVIEW,
      'graph.neighbors': async () => neighborsOf(),
      'graph.explain': async (input: OperationInput<'graph.explain'>) => ({
        ...LIVES,
        id: input.claimId,
        subjectLabel: 'Ada Marlowe',
        objectLabel: 'Porto',
        lines: [{ path: 'USER.md', line: 4, text: '- Lives in Porto' }],
      }),
    });
    await store.getState().graph.load();
    await store.getState().graph.select('entity:1');
    let graph = store.getState().graph;
    expect(graph.selectedId).toBe('entity:1');
    expect(graph.detail?.state).toBe('ready');
    expect(calls.at(-1)).toEqual({ name: 'graph.neighbors', input: { entity: 'entity:1', hops: 1, limit: 200 } });
    // Only the claims touching the centre, either direction.
    expect(claimsOf(graph.detail!.neighbors!).map((c) => c.id)).toEqual(['claim:1', 'claim:2']);

    await store.getState().graph.explainClaim('claim:1');
    graph = store.getState().graph;
    expect(graph.explain?.state).toBe('ready');
    expect(graph.explain?.explanation?.lines[0]?.text).toBe('- Lives in Porto');

    const card = render(store, 'card');
    expect(card).toContain('Ada Marlowe');
    expect(card).toContain('Also: </span>Ada');
    expect(card).toContain('data-ref="USER.md:3-3"');
    expect(card).toContain('lives in');
    expect(card).toContain('- Lives in Porto');
    // The centre's facts (literal claims) under their own heading.
    expect(card).toContain('Facts</h3>');
    expect(card).toContain('Europe/Lisbon');

    store.getState().graph.clearSelection();
    graph = store.getState().graph;
    expect(graph.selectedId).toBeNull();
    expect(graph.detail).toBeNull();
    expect(graph.explain).toBeNull();
  });

  it('a late neighbors answer does not land after the selection was cleared or changed', async () => {
    const first = deferred<OperationOutput<'graph.neighbors'>>();
    let call = 0;
    const { store } = setup({
      'graph.overview': async () => OVERVIEW,
      'graph.neighbors': () => (++call === 1 ? first.promise : Promise.resolve(neighborsOf(PORTO))),
    });
    const pending = store.getState().graph.select('entity:1');
    await store.getState().graph.select('entity:2');
    first.resolve(neighborsOf(ADA));
    await pending;
    expect(store.getState().graph.detail?.entityId).toBe('entity:2');
    expect(store.getState().graph.detail?.neighbors?.center.id).toBe('entity:2');
  });

  it('re-queries the overview with filters.validAt, and keeps the unfiltered date range', async () => {
    const { store, calls } = setup({
      'graph.overview': async (input: OperationInput<'graph.overview'>) => (input.filters?.validAt ? slice([ADA, PORTO], [LIVES]) : OVERVIEW),
      'graph.neighbors': async () => neighborsOf(),
    });
    await store.getState().graph.load();
    await store.getState().graph.select('entity:3');
    await store.getState().graph.setValidAt('2026-03-05');
    const graph = store.getState().graph;
    expect(calls.filter((c) => c.name === 'graph.overview').at(-1)?.input).toEqual({ limit: GRAPH_NODE_BUDGET, mentionedWith: false, filters: { validAt: '2026-03-05' } });
    expect(graph.data?.entities).toHaveLength(2);
    expect(graph.dateRange).toEqual({ min: '2026-03-01', max: '2026-03-09' });
    // The selected entity is gone from the filtered graph: its card closes.
    expect(graph.selectedId).toBeNull();
    await store.getState().graph.setValidAt(null);
    expect(calls.filter((c) => c.name === 'graph.overview').at(-1)?.input).toEqual({ limit: GRAPH_NODE_BUDGET, mentionedWith: false });
  });

  it('re-queries with filters.tools and filters.origins, shows what is shown, and the neighbours follow', async () => {
    const { store, calls } = setup({
      'graph.overview': async (input: OperationInput<'graph.overview'>) => (input.filters?.tools ? slice([QUILL], []) : OVERVIEW),
      'graph.neighbors': async () => neighborsOf(QUILL),
    });
    const overviews = () => calls.filter((c) => c.name === 'graph.overview').map((c) => c.input);
    await store.getState().graph.load();
    expect(render(store)).toContain('Showing: all sources; all origins');

    await store.getState().graph.setTools(['codex']);
    expect(overviews().at(-1)).toEqual({ limit: GRAPH_NODE_BUDGET, mentionedWith: false, filters: { tools: ['codex'] } });
    expect(store.getState().graph.data?.entities.map((e) => e.id)).toEqual(['entity:3']);
    // Origins are sent in the contract's order whatever order they were ticked in.
    await store.getState().graph.setOrigins(['agent', 'owner']);
    expect(overviews().at(-1)).toEqual({ limit: GRAPH_NODE_BUDGET, mentionedWith: false, filters: { tools: ['codex'], origins: ['owner', 'agent'] } });
    const html = render(store);
    expect(html).toContain('Showing: Codex; Owner, Agent');
    expect(html).toMatch(/data-testid="graph-filter-tool-codex" disabled="" checked=""/);
    expect(html).not.toMatch(/data-testid="graph-filter-origin-system"[^>]*checked/);

    await store.getState().graph.select('entity:3');
    expect(calls.at(-1)).toEqual({ name: 'graph.neighbors', input: { entity: 'entity:3', hops: 1, limit: 200, filters: { tools: ['codex'], origins: ['owner', 'agent'] } } });

    // The last source cannot be removed (an empty filter would show nothing), and repeating a choice does not re-query.
    const before = overviews().length;
    await store.getState().graph.setTools([]);
    await store.getState().graph.setOrigins(['owner', 'agent']);
    expect(overviews()).toHaveLength(before);
    expect(store.getState().graph.tools).toEqual(['codex']);

    // Ticking everything again means no filter at all.
    await store.getState().graph.setTools(['workspace', 'codex', 'claude-code', 'hermes']);
    await store.getState().graph.setOrigins(['owner', 'agent', 'untrusted', 'system']);
    expect(overviews().at(-1)).toEqual({ limit: GRAPH_NODE_BUDGET, mentionedWith: false });
  });

  it('an empty filtered graph says so and offers to clear the filters', async () => {
    const { store, calls } = setup({
      'graph.overview': async (input: OperationInput<'graph.overview'>) =>
        input.filters ? slice([], [], { totals: { entities: 0, claims: 0 } }) : OVERVIEW,
    });
    await store.getState().graph.load();
    await store.getState().graph.setOrigins(['untrusted']);
    await store.getState().graph.setValidAt('2026-03-01');
    const html = render(store);
    expect(html).toContain('Nothing in the graph matches these filters (of origin untrusted, valid on 2026-03-01).');
    expect(html).toContain('data-testid="graph-clear-filters"');
    expect(html).not.toContain('No entities yet');

    await store.getState().graph.clearFilters();
    const graph = store.getState().graph;
    expect(calls.at(-1)).toEqual({ name: 'graph.overview', input: { limit: GRAPH_NODE_BUDGET, mentionedWith: false } });
    expect(graph.validAt).toBeNull();
    expect(graph.data?.entities).toHaveLength(3);
    expect(render(store)).not.toContain('graph-empty');
    // Clearing nothing does not re-query.
    const count = calls.length;
    await store.getState().graph.clearFilters();
    expect(calls).toHaveLength(count);
  });

  it('shows errors inline: overview, neighbors and explain', async () => {
    const { store } = setup({
      'graph.overview': async () => {
        throw new MemoryClientError('internal', 'graph.overview: the graph store is locked');
      },
      'graph.neighbors': async () => {
        throw new Error('no such entity');
      },
      'graph.explain': async () => {
        throw new Error('no such claim');
      },
    });
    await store.getState().graph.load();
    expect(store.getState().graph.state).toBe('error');
    expect(store.getState().graph.error).toContain('locked');
    expect(render(store)).toContain('data-testid="graph-error"');

    await store.getState().graph.select('entity:1');
    expect(store.getState().graph.detail?.state).toBe('error');
    expect(store.getState().graph.detail?.error).toContain('no such entity');
    await store.getState().graph.explainClaim('claim:1');
    expect(store.getState().graph.explain?.error).toContain('no such claim');
  });

  it('says so when the workspace has no entities, and what the budget left out', async () => {
    let answer = slice([], []);
    const { store } = setup({ 'graph.overview': async () => answer });
    await store.getState().graph.load();
    expect(render(store)).toContain('No entities yet — write notes with names, <code>[[links]]</code> or <code>#tags</code>');

    answer = slice([ADA, PORTO], [LIVES], { omitted: { entities: 3210, edges: 9000 }, totals: { entities: 3212, claims: 9500 } });
    await store.getState().graph.load();
    expect(render(store)).toContain('Showing 2 of 3,212 entities');
  });

  it('reloads when the graph was updated, only while the view is open (not on index-ready, which comes first)', async () => {
    const { store, calls } = setup({ 'graph.overview': async () => OVERVIEW, 'status': async () => Promise.reject(new Error('x')) } as Handlers);
    const updated = { type: 'graph-updated', extracted: 1, removed: 0, entities: 3, claims: 2 } as never;
    const ready = { type: 'index-ready', report: { added: 0, updated: 0, removed: 0, unchanged: 0, skipped: 0, failed: 0, chunks: 0, tookMs: 1 } } as never;
    store.getState().app.handleEvent(updated);
    expect(calls.filter((c) => c.name === 'graph.overview')).toHaveLength(0);
    store.getState().app.setView('graph');
    store.getState().app.handleEvent(ready);
    expect(calls.filter((c) => c.name === 'graph.overview')).toHaveLength(1);
    store.getState().app.handleEvent(updated);
    expect(calls.filter((c) => c.name === 'graph.overview')).toHaveLength(2);
  });
});

describe('graph from Search', () => {
  it('asks memory.search for graph hits and keeps them as a separate group', async () => {
    const { store, calls } = setup({
      'memory.search': async () => ({ results: [], tookMs: 1, graph: [QUILL] }),
    });
    store.getState().search.setQuery('quill');
    await new Promise((r) => setTimeout(r, 200));
    expect(calls.at(-1)).toMatchObject({ name: 'memory.search', input: { query: 'quill', graph: true } });
    expect(store.getState().search.graphHits.map((e) => e.id)).toEqual(['entity:3']);
    expect(store.getState().search.results).toEqual([]);
  });

  it('opens the Graph view on an entity outside the overview and keeps it selected', async () => {
    const { store } = setup({
      'graph.overview': async () => slice([ADA, PORTO], [LIVES]),
      'graph.neighbors': async () => neighborsOf(QUILL),
    });
    await store.getState().graph.showEntity('entity:3');
    await new Promise((r) => setTimeout(r, 0));
    const graph = store.getState().graph;
    expect(store.getState().app.view).toBe('graph');
    expect(graph.state).toBe('ready');
    expect(graph.selectedId).toBe('entity:3');
    expect(graph.detail?.neighbors?.center.label).toBe('Quillfeather');
  });
});

describe('graph helpers', () => {
  it('builds provenance refs and date ranges', () => {
    expect(evidenceRef({ path: 'memory/2026-03-02.md', startLine: 3, endLine: 5 })).toBe('memory/2026-03-02.md:3-5');
    expect(observedRange(slice([], []))).toBeNull();
    expect(observedRange(OVERVIEW)).toEqual({ min: '2026-03-01', max: '2026-03-09' });
    expect(daysBetween('2026-02-27', '2026-03-02')).toBe(3);
    expect(addDays('2026-02-27', 3)).toBe('2026-03-02');
    expect(graphFiltersOf({ validAt: null, tools: ['workspace', 'codex', 'claude-code', 'hermes'], origins: ['owner', 'agent', 'untrusted', 'system'] })).toBeUndefined();
    expect(graphFiltersOf({ validAt: '2026-03-02', tools: ['hermes', 'workspace'], origins: ['system', 'owner', 'agent', 'untrusted'] })).toEqual({
      tools: ['workspace', 'hermes'],
      validAt: '2026-03-02',
    });
  });
});

describe('merge and split on the entity page', () => {
  it('writes a merge through graph.merge and says what changed; a refusal shows the engine sentence', async () => {
    let refuse = false;
    const { store, calls } = setup({
      'graph.merge': async (input: OperationInput<'graph.merge'>) => {
        if (refuse) throw new MemoryClientError('invalid-input', `Merging ${input.names.join(' and ')} would make a cycle of aliases; nothing was written.`);
        return { path: 'ALIASES.md', exists: true, sha256: 'x', rules: [{ line: 1, kind: 'merge', names: [...input.names] }], notices: [] };
      },
      'graph.split': async (input: OperationInput<'graph.split'>) => ({ path: 'ALIASES.md', exists: true, sha256: 'y', rules: [{ line: 2, kind: 'split', names: [input.name, input.from] }], notices: [] }),
    });
    await store.getState().graph.mergeNames(['Dana Okafor', 'Dana']);
    expect(calls).toEqual([{ name: 'graph.merge', input: { names: ['Dana Okafor', 'Dana'] } }]);
    expect(store.getState().graph.aliasEdit).toEqual({ state: 'done', message: expect.stringContaining('Merged into Dana Okafor: Dana') });
    refuse = true;
    await store.getState().graph.mergeNames(['Dana', 'Dana Okafor']);
    expect(store.getState().graph.aliasEdit).toEqual({ state: 'error', message: expect.stringContaining('would make a cycle') });
    await store.getState().graph.splitName('Sam', 'Sam Reyes');
    expect(calls.at(-1)).toEqual({ name: 'graph.split', input: { name: 'Sam', from: 'Sam Reyes' } });
    expect(store.getState().graph.aliasEdit?.state).toBe('done');
  });
});
