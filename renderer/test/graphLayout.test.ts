import { describe, expect, it, vi } from 'vitest';
import { buildGraph, buildGraphOffThread, parallelCurvature } from '../src/views/graph/buildGraph.js';
import { answerLayoutRequest, computeLayout, seededRandom, type LayoutRequest, type LayoutResponse } from '../src/views/graph/graphLayout.js';
import { createLayoutRunner, type LayoutWorker } from '../src/views/graph/layoutOffThread.js';
import { claim, entity, slice, syntheticSlice } from './graphFixtures.js';

describe('buildGraph', () => {
  it('is deterministic: the same slice gives the same positions', () => {
    const data = syntheticSlice(300, 900);
    const a = buildGraph(data);
    const b = buildGraph(data);
    const pos = (g: typeof a.graph) => g.mapNodes((n, attrs) => `${n}:${attrs.x.toFixed(6)},${attrs.y.toFixed(6)}`).join(';');
    expect(pos(a.graph)).toBe(pos(b.graph));
    expect(seededRandom(7)()).toBe(seededRandom(7)());
  });

  it('draws parallel relations as separate curves on alternating sides, skips self-loops, ignores dangling claims', () => {
    const data = slice(
      [entity('entity:1'), entity('entity:2'), entity('entity:3')],
      [
        claim('claim:1', 'entity:1', 'entity:2', { predicate: 'owns' }),
        claim('claim:2', 'entity:2', 'entity:1', { predicate: 'uses' }),
        claim('claim:3', 'entity:1', 'entity:2', { predicate: 'moved_to' }),
        claim('claim:7', 'entity:1', 'entity:2', { predicate: 'visited' }),
        claim('claim:4', 'entity:3', 'entity:3'),
        claim('claim:5', 'entity:1', 'entity:99'),
        claim('claim:6', 'entity:1', null),
      ],
    );
    const built = buildGraph(data);
    expect(built.nodes).toBe(3);
    expect(built.edges).toBe(4);
    expect(built.selfLoops).toBe(1);
    // No helper nodes: one graph node per entity, one graph edge per relation, keyed by claim id.
    expect(built.graph.order).toBe(3);
    expect(built.graph.edges().sort()).toEqual(['claim:1', 'claim:2', 'claim:3', 'claim:7']);
    const edge = (id: string) => built.graph.getEdgeAttributes(id);
    expect(edge('claim:1')).toMatchObject({ type: 'line', curvature: 0, predicate: 'owns' });
    expect(edge('claim:2').type).toBe('curved');
    // Bows are measured from the lower id: claim:2 runs 2→1, so its sign flips to stay on the first side.
    const bow = (id: string) => {
      const { curvature } = edge(id);
      return built.graph.source(id) < built.graph.target(id) ? curvature : -curvature;
    };
    expect(bow('claim:2')).toBeGreaterThan(0);
    expect(bow('claim:3')).toBeLessThan(0);
    expect(bow('claim:7')).toBeGreaterThan(bow('claim:2'));
    expect(new Set([bow('claim:1'), bow('claim:2'), bow('claim:3'), bow('claim:7')]).size).toBe(4);
    expect(parallelCurvature(0, 'entity:1', 'entity:2')).toBe(0);
    expect(parallelCurvature(1, 'entity:1', 'entity:2')).toBe(-parallelCurvature(1, 'entity:2', 'entity:1'));
  });

  it('packs disconnected components side by side without overlap', () => {
    const data = slice(
      ['1', '2', '3', '4', '5', '6'].map((n) => entity(`entity:${n}`)),
      [claim('claim:1', 'entity:1', 'entity:2'), claim('claim:2', 'entity:2', 'entity:3'), claim('claim:3', 'entity:3', 'entity:1'), claim('claim:4', 'entity:4', 'entity:5')],
    );
    const built = buildGraph(data);
    expect(built.components).toBe(3);
    const xs = (ids: string[]) => ids.map((id) => built.graph.getNodeAttributes(id));
    const box = (ids: string[]) => {
      const ps = xs(ids);
      return { minX: Math.min(...ps.map((p) => p.x)), maxX: Math.max(...ps.map((p) => p.x)), minY: Math.min(...ps.map((p) => p.y)), maxY: Math.max(...ps.map((p) => p.y)) };
    };
    const big = box(['entity:1', 'entity:2', 'entity:3']);
    const pair = box(['entity:4', 'entity:5']);
    const apart = big.maxX < pair.minX || pair.maxX < big.minX || big.maxY < pair.minY || pair.maxY < big.minY;
    expect(apart).toBe(true);
  });

  it('handles an empty slice and labels in many scripts', () => {
    expect(buildGraph(slice([], [])).nodes).toBe(0);
    const built = buildGraph(slice([entity('entity:1', { label: 'مرحبا 🌍' }), entity('entity:2', { label: '東京', origin: 'untrusted' })], []));
    expect(built.graph.getNodeAttribute('entity:1', 'label')).toBe('مرحبا 🌍');
    expect(built.graph.getNodeAttribute('entity:2', 'label')).toBe('東京 (untrusted)');
  });

  // Its speed is a bench figure (`npm run bench -- --only desktop-graph`); here only that it lays everything out.
  it('lays out 5,000 entities / 20,000 relations', () => {
    const built = buildGraph(syntheticSlice(5000, 20000));
    expect(built.nodes).toBe(5000);
    expect(built.components).toBeGreaterThan(0);
    // ~1 s on an idle machine; 5 s (the default) was exceeded on a shared, loaded one.
  }, 30_000);
});

/** A stand-in for the module worker: the same message handler, answers after a tick, messages cloned like postMessage does. */
function fakeWorker(options: { failOnStart?: boolean } = {}): LayoutWorker & { posted: number } {
  const listeners = { message: [] as Array<(event: { data: LayoutResponse }) => void>, error: [] as Array<(event: { message?: string }) => void> };
  const worker = {
    posted: 0,
    postMessage(message: LayoutRequest) {
      worker.posted++;
      const request = structuredClone(message);
      setTimeout(() => {
        if (options.failOnStart) for (const listener of listeners.error) listener({ message: 'blocked by CSP' });
        else for (const listener of listeners.message) listener({ data: structuredClone(answerLayoutRequest(request)) });
      }, 0);
    },
    addEventListener(type: 'message' | 'error', listener: never) {
      (listeners[type] as unknown[]).push(listener);
    },
    terminate() {},
  };
  return worker;
}

describe('layout off the main thread', () => {
  const positions = (built: { graph: ReturnType<typeof buildGraph>['graph'] }) => built.graph.mapNodes((n, attrs) => `${n}:${attrs.x},${attrs.y}`).join(';');

  it('the pure layout gives the positions buildGraph draws, from plain arrays', () => {
    const data = syntheticSlice(400, 1200);
    const built = buildGraph(data);
    const nodes = data.entities.map((e) => e.id);
    const sources: number[] = [];
    const targets: number[] = [];
    const weights: number[] = [];
    const seen = new Set<string>();
    for (const c of data.edges) {
      const key = [c.subject, c.object].sort().join('|');
      if (c.subject === c.object || seen.has(key)) continue;
      seen.add(key);
      sources.push(nodes.indexOf(c.subject));
      targets.push(nodes.indexOf(c.object!));
      // Each pair's weight is the sum of its relations' weights (all 1 here).
      weights.push(data.edges.filter((d) => [d.subject, d.object].sort().join('|') === key).length);
    }
    const layout = computeLayout({ nodes, sources, targets, weights });
    expect(layout.components).toBe(built.components);
    nodes.forEach((id, i) => {
      expect(layout.x[i]).toBe(built.graph.getNodeAttribute(id, 'x'));
      expect(layout.y[i]).toBe(built.graph.getNodeAttribute(id, 'y'));
    });
  });

  it('without a Worker (Node, Vitest) lays out on this thread, identically', async () => {
    expect(typeof Worker).toBe('undefined');
    const data = syntheticSlice(300, 900);
    const runner = createLayoutRunner();
    const off = await buildGraphOffThread(data, runner);
    expect(off.layoutThread).toBe('main');
    expect(positions(off)).toBe(positions(buildGraph(data)));
    expect(off.nodes).toBe(300);
  });

  it('through the worker protocol: identical positions, answers matched to their requests', async () => {
    const worker = fakeWorker();
    const runner = createLayoutRunner(() => worker);
    const small = syntheticSlice(60, 150);
    const large = syntheticSlice(300, 900);
    const [a, b] = await Promise.all([buildGraphOffThread(large, runner), buildGraphOffThread(small, runner)]);
    expect(worker.posted).toBe(2);
    expect(a.layoutThread).toBe('worker');
    expect(positions(a)).toBe(positions(buildGraph(large)));
    expect(positions(b)).toBe(positions(buildGraph(small)));
    runner.dispose();
  });

  it('falls back to this thread when the worker fails (a CSP block, a missing file), and stays there', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const worker = fakeWorker({ failOnStart: true });
    const runner = createLayoutRunner(() => worker);
    const data = syntheticSlice(120, 300);
    const first = await buildGraphOffThread(data, runner);
    const second = await buildGraphOffThread(data, runner);
    expect([first.layoutThread, second.layoutThread]).toEqual(['main', 'main']);
    expect(worker.posted).toBe(1);
    expect(positions(first)).toBe(positions(buildGraph(data)));
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('blocked by CSP'));
    warn.mockRestore();
  });
});
