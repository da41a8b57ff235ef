/**
 * The deterministic force layout, as plain data in and out so it can run in a worker
 * (layoutWorker.ts) or on the calling thread: seeded starting positions, a fixed iteration
 * count, ForceAtlas2 with Barnes–Hut on large components, each connected component laid out on
 * its own and the components packed side by side. Pure (no DOM): the same input always gives
 * the same positions, on any thread.
 */
import Graph from 'graphology';
import { connectedComponents } from 'graphology-components';
import forceAtlas2 from 'graphology-layout-forceatlas2';

/** What the layout needs: entity ids, and one weighted edge per related pair (indices into `nodes`). */
export interface LayoutInput {
  nodes: string[];
  sources: number[];
  targets: number[];
  weights: number[];
}

/** Positions in the order of `LayoutInput.nodes`. */
export interface LayoutResult {
  x: Float64Array;
  y: Float64Array;
  components: number;
  /** Time spent computing, on whichever thread ran it. */
  computeMs: number;
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

/**
 * Barnes–Hut approximation of the repulsion on large components (Gephi's ForceAtlas2 uses 1.2):
 * 1.0 costs half the CPU of graphology's default 0.5 at 2,000 entities, and the clusters come out
 * as tight (same edge length and cluster spread relative to the drawing's size).
 */
export const BARNES_HUT_THETA = 1.0;

/** Iterations by component size: fixed for a given size, fewer for very large ones. */
export function iterationsFor(order: number): number {
  if (order <= 2) return 0;
  if (order <= 200) return 150;
  if (order <= 1000) return 100;
  if (order <= 3000) return 60;
  return 40;
}

interface Placed {
  nodes: string[];
  /** Positions relative to the component's centre. */
  positions: Map<string, { x: number; y: number }>;
  radius: number;
}

/** Lays out one component alone: seeded start, then ForceAtlas2 for a fixed number of iterations. */
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
  const settings = { ...forceAtlas2.inferSettings(sub), barnesHutOptimize: sorted.length > 400, barnesHutTheta: BARNES_HUT_THETA };
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

/** Lays out the whole graph. `now` only feeds `computeMs`. */
export function computeLayout(input: LayoutInput, now: () => number = () => performance.now()): LayoutResult {
  const started = now();
  // Insertion order matters to ForceAtlas2's neighbour walk: nodes, then edges, exactly as given.
  const simple = new Graph({ type: 'undirected', multi: false, allowSelfLoops: false });
  for (const id of input.nodes) simple.addNode(id);
  for (let i = 0; i < input.sources.length; i++) {
    simple.addEdge(input.nodes[input.sources[i]!]!, input.nodes[input.targets[i]!]!, { weight: input.weights[i]! });
  }
  const components = connectedComponents(simple);
  const placed = pack(components.map((nodes) => layoutComponent(nodes, simple)));
  const x = new Float64Array(input.nodes.length);
  const y = new Float64Array(input.nodes.length);
  input.nodes.forEach((id, i) => {
    const p = placed.get(id);
    x[i] = p?.x ?? 0;
    y[i] = p?.y ?? 0;
  });
  return { x, y, components: components.length, computeMs: now() - started };
}

/** One request to the layout worker and its answer (`id` pairs them up). */
export interface LayoutRequest {
  id: number;
  input: LayoutInput;
}

export type LayoutResponse = { id: number; ok: true; result: LayoutResult } | { id: number; ok: false; error: string };

/** What the worker does with a message (kept here so a test can run it without a worker). */
export function answerLayoutRequest(request: LayoutRequest): LayoutResponse {
  try {
    return { id: request.id, ok: true, result: computeLayout(request.input) };
  } catch (error) {
    return { id: request.id, ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}
