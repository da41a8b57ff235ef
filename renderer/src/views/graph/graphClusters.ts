/**
 * Clusters of the drawn graph, each named after its central entity: weighted label propagation
 * (each entity joins the cluster its neighbours weigh most for), deterministic (entities visited
 * most important first, ties to the lower cluster), then the most important member names it.
 * Pure: runs the same in a unit test as in the view.
 */

export interface ClusterInput {
  /** Entity ids. */
  nodes: readonly string[];
  /** Indices into `nodes`, one weighted edge per related pair. */
  sources: readonly number[];
  targets: readonly number[];
  weights: readonly number[];
  /** How important each entity is (the weight of its stated relations), by index. */
  importance: readonly number[];
}

export interface Cluster {
  /** The central entity (most important member): the cluster is named after it. */
  centerId: string;
  members: string[];
}

/** Rounds of propagation: small graphs settle in a few; the cap bounds the work on large ones. */
const MAX_ROUNDS = 12;
/** Smaller groups are not named (a pair needs no name beyond its two labels). */
export const MIN_CLUSTER_SIZE = 3;

export function findClusters(input: ClusterInput): Cluster[] {
  const n = input.nodes.length;
  const neighbours: Array<Array<{ other: number; weight: number }>> = Array.from({ length: n }, () => []);
  input.sources.forEach((s, i) => {
    const t = input.targets[i]!;
    const w = Math.max(1, input.weights[i] ?? 1);
    if (s === t) return;
    neighbours[s]!.push({ other: t, weight: w });
    neighbours[t]!.push({ other: s, weight: w });
  });
  const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => (input.importance[b] ?? 0) - (input.importance[a] ?? 0) || a - b);
  // A cluster is known by the position (in `order`) of the entity it started from: lower is more important.
  const rank = new Int32Array(n);
  order.forEach((node, position) => (rank[node] = position));
  const cluster = Int32Array.from(rank);
  for (let round = 0; round < MAX_ROUNDS; round++) {
    let changed = false;
    for (const node of order) {
      const list = neighbours[node]!;
      if (list.length === 0) continue;
      const pull = new Map<number, number>();
      for (const { other, weight } of list) pull.set(cluster[other]!, (pull.get(cluster[other]!) ?? 0) + weight);
      let best = cluster[node]!;
      let bestPull = pull.get(best) ?? 0;
      for (const [candidate, weight] of pull) {
        if (weight > bestPull || (weight === bestPull && candidate < best)) {
          best = candidate;
          bestPull = weight;
        }
      }
      if (best !== cluster[node]) {
        cluster[node] = best;
        changed = true;
      }
    }
    if (!changed) break;
  }
  const groups = new Map<number, number[]>();
  for (const node of order) {
    const list = groups.get(cluster[node]!);
    if (list) list.push(node);
    else groups.set(cluster[node]!, [node]);
  }
  return [...groups.values()]
    .filter((members) => members.length >= MIN_CLUSTER_SIZE)
    .map((members) => ({ centerId: input.nodes[members[0]!]!, members: members.map((m) => input.nodes[m]!) }))
    .sort((a, b) => b.members.length - a.members.length || (a.centerId < b.centerId ? -1 : 1));
}
