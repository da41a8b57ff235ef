/**
 * Turns a `GraphSlice` into a positioned graphology graph for sigma: the relations grouped by
 * entity pair, the deterministic layout of graphLayout.ts (here or in its worker), parallel
 * relations between the same two entities drawn as curves of different bends so each shows.
 * Pure (no DOM): runs the same in a unit test as in the view.
 */
import Graph from 'graphology';
import type { GraphClaim, GraphEntity, GraphSlice } from '../../../../core/src/contract/index.js';
import { computeLayout, type LayoutInput, type LayoutResult } from './graphLayout.js';
import type { LayoutRunner } from './layoutOffThread.js';
import { ringColorOf, typeColor, EDGE_COLOR, UNTRUSTED_EDGE_COLOR } from './graphStyle.js';

export interface NodeAttributes {
  x: number;
  y: number;
  size: number;
  color: string;
  ringColor: string;
  label: string | null;
  /** The entity's type. */
  entityType: string;
  zIndex?: number;
}

export interface EdgeAttributes {
  size: number;
  color: string;
  /** The claim drawn (edge keys are claim ids too). */
  claimId: string;
  predicate: string;
  /** Sigma's edge program: the first relation of a pair is a straight line, the others curves. */
  type: 'line' | 'curved';
  /** How far a curve bows out, relative to its length; the sign says which side (@sigma/edge-curve). */
  curvature: number;
}

/** Each further parallel relation bows this much more than the last pair of them. */
const CURVATURE_STEP = 0.3;

/**
 * The k-th relation between two entities (0 straight, then alternating sides, bowing further
 * each pair), signed from the lower entity id so A→B and B→A relations do not overlap.
 */
export function parallelCurvature(index: number, subject: string, object: string): number {
  if (index === 0) return 0;
  const side = index % 2 === 1 ? 1 : -1;
  const fromLowerId = subject < object ? 1 : -1;
  return side * fromLowerId * Math.ceil(index / 2) * CURVATURE_STEP;
}

export interface BuiltGraph {
  graph: Graph<NodeAttributes, EdgeAttributes>;
  /** Entities and relations drawn (self-loops are listed in the card, not drawn). */
  nodes: number;
  edges: number;
  selfLoops: number;
  components: number;
  /** Wall time from the data to the positioned graph (a worker's layout included, with its round trip). */
  layoutMs: number;
  /** Where the force layout ran. */
  layoutThread: 'worker' | 'main';
}

export function nodeSize(degree: number): number {
  return Math.min(20, 4 + Math.sqrt(Math.max(0, degree)) * 2);
}

function pairKey(a: string, b: string): string {
  return a < b ? `${a}\u0000${b}` : `${b}\u0000${a}`;
}

/** The slice sorted out for drawing: entities once each, relations by pair, and what the layout needs. */
interface PreparedGraph {
  entities: Map<string, GraphEntity>;
  pairs: Map<string, GraphClaim[]>;
  selfLoops: number;
  layoutInput: LayoutInput;
}

function prepareGraph(data: GraphSlice): PreparedGraph {
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
  const nodes = [...entities.keys()];
  const index = new Map(nodes.map((id, i) => [id, i]));
  const layoutInput: LayoutInput = { nodes, sources: [], targets: [], weights: [] };
  for (const claims of pairs.values()) {
    const first = claims[0]!;
    layoutInput.sources.push(index.get(first.subject)!);
    layoutInput.targets.push(index.get(first.object!)!);
    layoutInput.weights.push(claims.reduce((sum, c) => sum + Math.max(1, c.weight), 0));
  }
  return { entities, pairs, selfLoops, layoutInput };
}

function assembleGraph({ entities, pairs, selfLoops, layoutInput }: PreparedGraph, layout: LayoutResult): Omit<BuiltGraph, 'layoutMs' | 'layoutThread'> {
  const graph = new Graph<NodeAttributes, EdgeAttributes>({ type: 'directed', multi: true, allowSelfLoops: false });
  // Dense overviews get smaller discs so clusters stay readable (sigma sizes are in pixels).
  const sizeScale = entities.size > 1000 ? 0.45 : entities.size > 300 ? 0.7 : 1;
  layoutInput.nodes.forEach((id, i) => {
    const entity = entities.get(id)!;
    graph.addNode(id, {
      x: layout.x[i]!,
      y: layout.y[i]!,
      size: nodeSize(entity.degree) * sizeScale,
      color: typeColor(entity.type),
      ringColor: ringColorOf(entity),
      label: entity.origin === 'untrusted' ? `${entity.label} (untrusted)` : entity.label,
      entityType: entity.type,
      zIndex: 1,
    });
  });
  let drawnEdges = 0;
  for (const claims of pairs.values()) {
    claims.forEach((claim, index) => {
      graph.addEdgeWithKey(claim.id, claim.subject, claim.object!, {
        size: Math.min(4, 0.6 + Math.log2(1 + Math.max(1, claim.weight)) * 0.5),
        color: claim.origin === 'untrusted' ? UNTRUSTED_EDGE_COLOR : EDGE_COLOR,
        claimId: claim.id,
        predicate: claim.predicate,
        type: index === 0 ? 'line' : 'curved',
        curvature: parallelCurvature(index, claim.subject, claim.object!),
      });
      drawnEdges++;
    });
  }
  return { graph, nodes: entities.size, edges: drawnEdges, selfLoops, components: layout.components };
}

/** Builds the positioned graph sigma draws, layout on this thread. `now` only feeds the timing. */
export function buildGraph(data: GraphSlice, now: () => number = () => performance.now()): BuiltGraph {
  const started = now();
  const prepared = prepareGraph(data);
  const built = assembleGraph(prepared, computeLayout(prepared.layoutInput, now));
  return { ...built, layoutMs: now() - started, layoutThread: 'main' };
}

/** The same graph as `buildGraph`, with the layout done by `runner` (a worker when there is one). */
export async function buildGraphOffThread(data: GraphSlice, runner: LayoutRunner, now: () => number = () => performance.now()): Promise<BuiltGraph> {
  const started = now();
  const prepared = prepareGraph(data);
  const layout = await runner.layout(prepared.layoutInput);
  const built = assembleGraph(prepared, layout);
  return { ...built, layoutMs: now() - started, layoutThread: layout.thread };
}
