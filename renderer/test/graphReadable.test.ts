import { describe, expect, it } from 'vitest';
import { formatRoute, parseRoute } from '../src/routing/route.js';
import { buildGraph, entityImportance } from '../src/views/graph/buildGraph.js';
import { entityTimeline } from '../src/views/graph/entityTimeline.js';
import { findClusters } from '../src/views/graph/graphClusters.js';
import { overlaps, placeLabels, type LabelCandidate } from '../src/views/graph/labelPlacement.js';
import { claim, entity, slice } from './graphFixtures.js';

/** 7 px per character, as a monospace font would measure. */
const measure = (text: string): number => text.length * 7;
const screen = { width: 800, height: 600, fontSize: 12, measure, maxLabels: 1000 };

describe('label placement: labels never overlap', () => {
  it('keeps the more important of two colliding labels and culls the other', () => {
    const placed = placeLabels(
      [
        { id: 'minor', text: 'Tuesday standup', x: 100, y: 100, priority: 1, offset: 5 },
        { id: 'major', text: 'Dana Okafor', x: 110, y: 104, priority: 9, offset: 5 },
        { id: 'apart', text: 'kube-east', x: 400, y: 300, priority: 0.5, offset: 5 },
      ],
      screen,
    );
    expect(placed.map((p) => p.id)).toEqual(['major', 'apart']);
  });

  it('places no two overlapping boxes among 3,000 crowded candidates, and none off screen', () => {
    let seed = 11;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
    const candidates: LabelCandidate[] = Array.from({ length: 3000 }, (_, i) => ({
      id: `entity:${i}`,
      text: `Entity ${i} ${'x'.repeat(i % 12)}`,
      x: random() * 900 - 50,
      y: random() * 700 - 50,
      priority: random(),
      offset: 4,
    }));
    const placed = placeLabels(candidates, { ...screen, maxLabels: 400 });
    expect(placed.length).toBeGreaterThan(30);
    expect(placed.length).toBeLessThanOrEqual(400);
    for (let i = 0; i < placed.length; i++) {
      const a = placed[i]!;
      expect(a.x >= 0 && a.y >= 0 && a.x + a.width <= 800 && a.y + a.height <= 600).toBe(true);
      for (let j = i + 1; j < placed.length; j++) expect(overlaps(a, placed[j]!)).toBe(false);
    }
  });

  it('leaves reserved boxes (cluster names) free', () => {
    const placed = placeLabels([{ id: 'a', text: 'Kestrel', x: 100, y: 100, priority: 1, offset: 0 }], { ...screen, reservedBoxes: [{ x: 90, y: 90, width: 100, height: 20 }] });
    expect(placed).toEqual([]);
  });
});

describe('clusters named after their central entity', () => {
  it('splits two groups joined by one weak edge and names each after its most important member', () => {
    // 0–3: Dana's group (Dana most related); 4–7: Kestrel's group; one weak bridge 3–4.
    const nodes = ['dana', 'stg-01', 'payments', 'priya', 'kestrel', 'kube-east', 'fly.io', 'heroku'];
    const edges: Array<[number, number, number]> = [
      [0, 1, 3], [0, 2, 3], [0, 3, 2], [1, 2, 1], [2, 3, 1],
      [4, 5, 3], [4, 6, 3], [4, 7, 2], [5, 6, 1], [6, 7, 1],
      [3, 4, 1],
    ];
    const importance = nodes.map((_, i) => edges.filter(([s, t]) => s === i || t === i).reduce((sum, [, , w]) => sum + w, 0));
    const clusters = findClusters({ nodes, sources: edges.map((e) => e[0]), targets: edges.map((e) => e[1]), weights: edges.map((e) => e[2]), importance });
    expect(clusters.map((c) => c.centerId).sort()).toEqual(['dana', 'kestrel']);
    const dana = clusters.find((c) => c.centerId === 'dana')!;
    expect([...dana.members].sort()).toEqual(['dana', 'payments', 'priya', 'stg-01']);
    // The same input always gives the same clusters.
    expect(findClusters({ nodes, sources: edges.map((e) => e[0]), targets: edges.map((e) => e[1]), weights: edges.map((e) => e[2]), importance })).toEqual(clusters);
  });

  it('names no pair and no lone entity', () => {
    expect(findClusters({ nodes: ['a', 'b', 'c'], sources: [0], targets: [1], weights: [1], importance: [1, 1, 0] })).toEqual([]);
  });

  it('buildGraph ranks by stated relations over co-mentions and names the clusters it draws', () => {
    const hub = entity('entity:1', { label: 'Monday', degree: 6 });
    const dana = entity('entity:2', { label: 'Dana Okafor', degree: 3 });
    const others = [3, 4, 5, 6].map((n) => entity(`entity:${n}`, { label: `E${n}`, degree: 2 }));
    const edges = [
      claim('claim:1', 'entity:2', 'entity:3', { predicate: 'owns', weight: 2 }),
      claim('claim:2', 'entity:2', 'entity:4', { predicate: 'leads' }),
      claim('claim:3', 'entity:3', 'entity:4', { predicate: 'runs_on' }),
      ...[2, 3, 4, 5, 6].map((n, i) => claim(`claim:${10 + i}`, 'entity:1', `entity:${n}`, { predicate: 'mentioned_with', weight: 3 })),
      claim('claim:20', 'entity:5', 'entity:6', { predicate: 'uses' }),
    ];
    const built = buildGraph(slice([hub, dana, ...others], edges));
    const importance = (id: string) => built.graph.getNodeAttribute(id, 'importance');
    // The weekday hub has the most co-mentions; Dana's stated relations weigh more.
    expect(importance('entity:2')).toBeGreaterThan(importance('entity:1'));
    expect(entityImportance(dana, [{ predicate: 'owns', weight: 1 }])).toBeGreaterThan(entityImportance(hub, [{ predicate: 'mentioned_with', weight: 5 }]));
    expect(built.clusters.map((c) => c.name)).toContain('Dana Okafor');
    expect(built.clusters.map((c) => c.name)).not.toContain('Monday');
  });
});

describe('entity page', () => {
  it('has an address of its own that survives a reload', () => {
    const hash = formatRoute({ view: 'graph', entityId: 'entity:12', page: true });
    expect(hash).toBe('#/graph/entity/entity%3A12');
    expect(parseRoute(hash)).toEqual({ view: 'graph', entityId: 'entity:12', page: true });
    // The drawing with a selection keeps its own address.
    expect(parseRoute('#/graph/entity%3A12')).toEqual({ view: 'graph', entityId: 'entity:12' });
  });

  it('lists stated relations oldest first with their periods, co-mentions apart by weight', () => {
    const center = entity('entity:1', { label: 'stg-01', type: 'machine' });
    const marco = entity('entity:2', { label: 'Marco Bellini' });
    const dana = entity('entity:3', { label: 'Dana Okafor' });
    const rack = entity('entity:4', { label: 'rack-2', type: 'place' });
    const edges = [
      claim('claim:7', 'entity:3', 'entity:1', { predicate: 'owns', validFrom: '2026-10-20' }),
      claim('claim:5', 'entity:2', 'entity:1', { predicate: 'owns', validFrom: '2026-10-01', validUntil: '2026-10-20' }),
      claim('claim:6', 'entity:1', 'entity:4', { predicate: 'located_in', validFrom: null }),
      claim('claim:8', 'entity:1', 'entity:2', { predicate: 'mentioned_with', weight: 1 }),
      claim('claim:9', 'entity:1', 'entity:3', { predicate: 'mentioned_with', weight: 4 }),
    ];
    const { relations, mentionedWith } = entityTimeline('entity:1', edges, new Map([center, marco, dana, rack].map((e) => [e.id, e])));
    expect(relations.map((r) => [r.other?.label, r.direction, r.period, r.isCurrent])).toEqual([
      ['Marco Bellini', 'incoming', '2026-10-01 – 2026-10-20', false],
      ['Dana Okafor', 'incoming', 'since 2026-10-20', true],
      ['rack-2', 'outgoing', null, true],
    ]);
    expect(mentionedWith.map((r) => r.other?.label)).toEqual(['Dana Okafor', 'Marco Bellini']);
  });
});
