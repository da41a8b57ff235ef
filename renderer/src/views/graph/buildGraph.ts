/**
 * Turns a `GraphSlice` into a positioned graphology graph for sigma: a deterministic force
 * layout (seeded starting positions, a fixed iteration count, ForceAtlas2 with Barnes–Hut on
 * large components), each connected component laid out on its own and the components packed
 * side by side, parallel relations between the same two entities bent apart so each shows.
 * Pure (no DOM): runs the same in a unit test as in the view.
 */
import Graph from 'graphology';
import { connectedComponents } from 'graphology-components';
import forceAtlas2 from 'graphology-layout-forceatlas2';
import type { GraphClaim, GraphEntity, GraphSlice } from '../../../../core/src/api/contract.js';
import { ringColorOf, typeColor, EDGE_COLOR, UNTRUSTED_EDGE_COLOR } from './graphStyle.js';

export interface NodeAttributes {
  x: number;
  y: number;
  size: number;
  color: string;
  ringColor: string;
  label: string | null;
  /** The entity's type (absent on bend points). */
  entityType?: string;
  /** A bend point of a parallel relation: not an entity, not clickable. */
  bend?: boolean;
  zIndex?: number;
}

export interface EdgeAttributes {
  size: number;
  color: string;
  /** The claim drawn (a bent relation has two segments carrying the same claim). */
  claimId: string;
  predicate: string;
}

export interface BuiltGraph {
  graph: Graph<NodeAttributes, EdgeAttributes>;
  /** Entities and relations drawn (self-loops are listed in the card, not drawn). */
  nodes: number;
  edges: number;
  selfLoops: number;
  components: number;
  layoutMs: number;
}

/** A small, fast, seedable PRNG (mulberry32): the same seed gives the same layout. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function hashString(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h >>> 0;
}

/** Iterations by component size: fixed for a given size, fewer for very large ones. */
export function iterationsFor(order: number): number {
  if (order <= 2) return 0;
  if (order <= 200) return 150;
  if (order <= 1000) return 100;
  if (order <= 3000) return 60;
  return 40;
}

export function nodeSize(degree: number): number {
  return Math.min(20, 4 + Math.sqrt(Math.max(0, degree)) * 2);
}

interface Placed {
  nodes: string[];
  /** Positions relative to the component's centre. */
  positions: Map<string, { x: number; y: number }>;
  radius: number;
}

/** Lays out one component alone: seeded circle start, then ForceAtlas2 for a fixed number of iterations. */
function layoutComponent(nodes: string[], simple: Graph): Placed {
  const positions = new Map<string, { x: number; y: number }>();
  const sorted = [...nodes].sort();
  if (sorted.length === 1) {
    positions.set(sorted[0]!, { x: 0, y: 0 });
    return { nodes: sorted, positions, radius: 1 };
  }
  if (sorted.length === 2) {
    positions.set(sorted[0]!, { x: -1, y: 0 });
    positions.set(sorted[1]!, { x: 1, y: 0 });
    return { nodes: sorted, positions, radius: 2 };
  }
  const sub = new Graph({ type: 'undirected', multi: false, allowSelfLoops: false });
  const random = seededRandom(hashString(sorted[0]!) ^ sorted.length);
  const spread = Math.sqrt(sorted.length) * 4;
  for (const node of sorted) sub.addNode(node, { x: (random() - 0.5) * spread, y: (random() - 0.5) * spread });
  for (const node of sorted) {
    simple.forEachNeighbor(node, (neighbor) => {
      if (node < neighbor) sub.addEdge(node, neighbor, { weight: simple.getEdgeAttribute(simple.edge(node, neighbor), 'weight') as number });
    });
  }
  const settings = { ...forceAtlas2.inferSettings(sub), barnesHutOptimize: sorted.length > 400 };
  forceAtlas2.assign(sub, { iterations: iterationsFor(sorted.length), settings, getEdgeWeight: null });
  let cx = 0;
  let cy = 0;
  sub.forEachNode((_node, attrs) => {
    cx += attrs.x as number;
    cy += attrs.y as number;
  });
  cx /= sorted.length;
  cy /= sorted.length;
  let extent = 0;
  sub.forEachNode((_node, attrs) => {
    extent = Math.max(extent, Math.hypot((attrs.x as number) - cx, (attrs.y as number) - cy));
  });
  // Every component on the same scale (radius ≈ 2·√n), whatever ForceAtlas2's own units were.
  const radius = 2 * Math.sqrt(sorted.length);
  const scale = extent > 0 ? radius / extent : 1;
  sub.forEachNode((node, attrs) => {
    positions.set(node, { x: ((attrs.x as number) - cx) * scale, y: ((attrs.y as number) - cy) * scale });
  });
  return { nodes: sorted, positions, radius };
}

/**
 * Packs components side by side in rows (largest first), each in a square cell of its
 * diameter; isolated entities share one grid block so thousands of them stay compact.
 */
function pack(components: Placed[]): Map<string, { x: number; y: number }> {
  const out = new Map<string, { x: number; y: number }>();
  const singles = components.filter((c) => c.nodes.length === 1).flatMap((c) => c.nodes);
  const groups = components.filter((c) => c.nodes.length > 1).sort((a, b) => b.nodes.length - a.nodes.length || (a.nodes[0]! < b.nodes[0]! ? -1 : 1));
  if (singles.length > 0) {
    const columns = Math.ceil(Math.sqrt(singles.length));
    const positions = new Map<string, { x: number; y: number }>();
    singles.forEach((node, i) => positions.set(node, { x: (i % columns) * 2, y: Math.floor(i / columns) * 2 }));
    const half = (columns - 1);
    for (const p of positions.values()) {
      p.x -= half;
      p.y -= (Math.ceil(singles.length / columns) - 1);
    }
    groups.push({ nodes: singles, positions, radius: Math.max(1, Math.hypot(half, Math.ceil(singles.length / columns) - 1)) });
  }
  const totalArea = groups.reduce((sum, g) => sum + (2 * g.radius + 2) ** 2, 0);
  const rowWidth = Math.max(Math.sqrt(totalArea) * 1.2, groups[0] ? 2 * groups[0].radius + 2 : 1);
  let x = 0;
  let y = 0;
  let rowHeight = 0;
  for (const group of groups) {
    const cell = 2 * group.radius + 2;
    if (x > 0 && x + cell > rowWidth) {
      x = 0;
      y += rowHeight;
      rowHeight = 0;
    }
    const cx = x + cell / 2;
    const cy = y + cell / 2;
    for (const [node, p] of group.positions) out.set(node, { x: cx + p.x, y: cy + p.y });
    x += cell;
    rowHeight = Math.max(rowHeight, cell);
  }
  return out;
}

function pairKey(a: string, b: string): string {
  return a < b ? `${a}\u0000${b}` : `${b}\u0000${a}`;
}

/** Builds the positioned graph sigma draws. `now` only feeds the layout timing. */
export function buildGraph(data: GraphSlice, now: () => number = () => performance.now()): BuiltGraph {
  const started = now();
  const entities = new Map<string, GraphEntity>();
  for (const entity of data.entities) if (!entities.has(entity.id)) entities.set(entity.id, entity);

  // Relations between drawn entities, grouped by unordered pair (parallel relations share a pair).
  const pairs = new Map<string, GraphClaim[]>();
  let selfLoops = 0;
  for (const claim of data.edges) {
    if (!claim.object || !entities.has(claim.subject) || !entities.has(claim.object)) continue;
    if (claim.subject === claim.object) {
      selfLoops++;
      continue;
    }
    const key = pairKey(claim.subject, claim.object);
    const list = pairs.get(key);
    if (list) list.push(claim);
    else pairs.set(key, [claim]);
  }

  // The simple graph the layout works on: one weighted edge per pair.
  const simple = new Graph({ type: 'undirected', multi: false, allowSelfLoops: false });
  for (const id of entities.keys()) simple.addNode(id);
  for (const claims of pairs.values()) {
    const first = claims[0]!;
    simple.addEdge(first.subject, first.object!, { weight: claims.reduce((sum, c) => sum + Math.max(1, c.weight), 0) });
  }
  const components = connectedComponents(simple);
  const placed = pack(components.map((nodes) => layoutComponent(nodes, simple)));

  const graph = new Graph<NodeAttributes, EdgeAttributes>({ type: 'directed', multi: true, allowSelfLoops: false });
  // Dense overviews get smaller discs so clusters stay readable (sigma sizes are in pixels).
  const sizeScale = entities.size > 1000 ? 0.45 : entities.size > 300 ? 0.7 : 1;
  for (const [id, entity] of entities) {
    const p = placed.get(id) ?? { x: 0, y: 0 };
    graph.addNode(id, {
      x: p.x,
      y: p.y,
      size: nodeSize(entity.degree) * sizeScale,
      color: typeColor(entity.type),
      ringColor: ringColorOf(entity),
      label: entity.origin === 'untrusted' ? `${entity.label} (untrusted)` : entity.label,
      entityType: entity.type,
      zIndex: 1,
    });
  }
  let drawnEdges = 0;
  for (const claims of pairs.values()) {
    claims.forEach((claim, index) => {
      const attrs: EdgeAttributes = {
        size: Math.min(4, 0.6 + Math.log2(1 + Math.max(1, claim.weight)) * 0.5),
        color: claim.origin === 'untrusted' ? UNTRUSTED_EDGE_COLOR : EDGE_COLOR,
        claimId: claim.id,
        predicate: claim.predicate,
      };
      drawnEdges++;
      if (index === 0) {
        graph.addEdgeWithKey(claim.id, claim.subject, claim.object!, attrs);
        return;
      }
      // The k-th parallel relation bends through a point off the straight line, alternating sides.
      const a = graph.getNodeAttributes(claim.subject);
      const b = graph.getNodeAttributes(claim.object!);
      const dx = b.x - a.x;
      const dy = b.y - a.y;
      const length = Math.hypot(dx, dy) || 1;
      const side = index % 2 === 1 ? 1 : -1;
      const offset = side * Math.ceil(index / 2) * 0.18 * length;
      // Perpendicular to the pair's line, measured from the lower id so both directions agree.
      const sign = claim.subject < claim.object! ? 1 : -1;
      const bendId = `bend:${claim.id}`;
      graph.addNode(bendId, {
        x: (a.x + b.x) / 2 + (-dy / length) * offset * sign,
        y: (a.y + b.y) / 2 + (dx / length) * offset * sign,
        size: 0.5,
        color: attrs.color,
        ringColor: attrs.color,
        label: null,
        bend: true,
        zIndex: 0,
      });
      graph.addEdgeWithKey(`${claim.id}:a`, claim.subject, bendId, attrs);
      graph.addEdgeWithKey(`${claim.id}:b`, bendId, claim.object!, attrs);
    });
  }
  return { graph, nodes: entities.size, edges: drawnEdges, selfLoops, components: components.length, layoutMs: now() - started };
}
