import { describe, expect, it } from 'vitest';
import { buildGraph, seededRandom } from '../src/views/graph/buildGraph.js';
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

  it('draws parallel relations as separate bent edges, skips self-loops, ignores dangling claims', () => {
    const data = slice(
      [entity('entity:1'), entity('entity:2'), entity('entity:3')],
      [
        claim('claim:1', 'entity:1', 'entity:2', { predicate: 'owns' }),
        claim('claim:2', 'entity:2', 'entity:1', { predicate: 'uses' }),
        claim('claim:3', 'entity:1', 'entity:2', { predicate: 'moved_to' }),
        claim('claim:4', 'entity:3', 'entity:3'),
        claim('claim:5', 'entity:1', 'entity:99'),
        claim('claim:6', 'entity:1', null),
      ],
    );
    const built = buildGraph(data);
    expect(built.nodes).toBe(3);
    expect(built.edges).toBe(3);
    expect(built.selfLoops).toBe(1);
    expect(built.graph.hasEdge('claim:1')).toBe(true);
    expect(built.graph.hasNode('bend:claim:2')).toBe(true);
    expect(built.graph.hasNode('bend:claim:3')).toBe(true);
    // The two bends lie on opposite sides of the straight line.
    const a = built.graph.getNodeAttributes('entity:1');
    const b = built.graph.getNodeAttributes('entity:2');
    const side = (id: string) => {
      const p = built.graph.getNodeAttributes(id);
      return Math.sign((b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x));
    };
    expect(side('bend:claim:2') * side('bend:claim:3')).toBe(-1);
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

  it('lays out 5,000 entities / 20,000 relations', () => {
    const started = performance.now();
    const built = buildGraph(syntheticSlice(5000, 20000));
    console.log(`layout 5000/20000: ${built.layoutMs.toFixed(0)} ms (${built.components} components)`);
    expect(built.nodes).toBe(5000);
    expect(performance.now() - started).toBeLessThan(20_000);
  });
});
