/**
 * Turns a `GraphSlice` into a positioned graphology graph for sigma: the relations grouped by
 * entity pair, the deterministic layout of graphLayout.ts (here or in its worker), parallel
 * relations between the same two entities drawn as curves of different bends so each shows.
 * Pure (no DOM): runs the same in a unit test as in the view.
 */
import Graph from 'graphology';
import { MENTIONED_WITH, type GraphClaim, type GraphEntity, type GraphSlice } from '../../../../core/src/contract/index.js';
import { findClusters } from './graphClusters.js';
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
  /** Label priority: the weight of its stated relations drawn, then its degree (see entityImportance). */
  importance: number;
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
  /** Groups of at least three entities, each named after its central entity (graph coordinates of its middle). */
  clusters: DrawnCluster[];
}

export interface DrawnCluster {
  name: string;
  centerId: string;
  size: number;
  x: number;
  y: number;
}

/**
 * How much an entity matters in the drawing: the weight of its stated relations (each counted
 * as often as it was stated), co-mentions a tenth as much, then its degree as a tie-break.
 */
export function entityImportance(entity: Pick<GraphEntity, 'degree'>, relations: readonly Pick<GraphClaim, 'predicate' | 'weight'>[]): number {
  let weight = 0;
  for (const r of relations) weight += (r.predicate === MENTIONED_WITH ? 0.1 : 1) * Math.max(1, r.weight);
  return weight + entity.degree / 1000;
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
  /** By index of `layoutInput.nodes`. */
  importance: number[];
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
  const relationsOf = new Map<string, GraphClaim[]>(nodes.map((id) => [id, []]));
  for (const claims of pairs.values()) {
    const first = claims[0]!;
    layoutInput.sources.push(index.get(first.subject)!);
    layoutInput.targets.push(index.get(first.object!)!);
    layoutInput.weights.push(claims.reduce((sum, c) => sum + Math.max(1, c.weight), 0));
    relationsOf.get(first.subject)!.push(...claims);
    relationsOf.get(first.object!)!.push(...claims);
  }
  const importance = nodes.map((id) => entityImportance(entities.get(id)!, relationsOf.get(id)!));
  return { entities, pairs, selfLoops, layoutInput, importance };
}

function assembleGraph({ entities, pairs, selfLoops, layoutInput, importance }: PreparedGraph, layout: LayoutResult): Omit<BuiltGraph, 'layoutMs' | 'layoutThread'> {
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
      importance: importance[i]!,
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
  const position = new Map(layoutInput.nodes.map((id, i) => [id, { x: layout.x[i]!, y: layout.y[i]! }]));
  const clusters = findClusters({ ...layoutInput, importance }).map(({ centerId, members }) => {
    let x = 0;
    let y = 0;
    for (const id of members) {
      x += position.get(id)!.x;
      y += position.get(id)!.y;
    }
    return { name: entities.get(centerId)!.label, centerId, size: members.length, x: x / members.length, y: y / members.length };
  });
  return { graph, nodes: entities.size, edges: drawnEdges, selfLoops, components: layout.components, clusters };
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
