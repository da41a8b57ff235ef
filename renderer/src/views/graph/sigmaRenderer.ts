/**
 * Sigma, its WebGL programs and the layout (graphology, ForceAtlas2), loaded on demand (a separate chunk, and never in Node: sigma
 * touches WebGL globals when imported).
 */
import EdgeCurveProgram from '@sigma/edge-curve';
import Graph from 'graphology';
import Sigma from 'sigma';
import type { BuiltGraph, EdgeAttributes, NodeAttributes } from './buildGraph.js';

import { createLayoutRunner } from './layoutOffThread.js';
import { NodeRingProgram } from './nodeRingProgram.js';

export { buildGraphOffThread } from './buildGraph.js';

/** One layout worker for the page, started on the first layout and kept for the next. */
export const layoutRunner = createLayoutRunner();

/**
 * Sigma with its WebGL programs set up, on an empty graph: `sigma.setGraph(built.graph)` draws
 * the graph, in a later task, so the page can paint between the two (each takes hundreds of
 * milliseconds on a large graph with software WebGL).
 */
export function createSigma(built: Pick<BuiltGraph, 'nodes'>, element: HTMLElement, isSelected: (node: string) => boolean): Sigma<NodeAttributes, EdgeAttributes> {
  const empty = new Graph<NodeAttributes, EdgeAttributes>({ type: 'directed', multi: true, allowSelfLoops: false });
  return new Sigma<NodeAttributes, EdgeAttributes>(empty, element, {
    defaultNodeType: 'ring',
    nodeProgramClasses: { ring: NodeRingProgram },
    // Parallel relations between two entities are curves (`type: 'curved'`, signed `curvature`).
    edgeProgramClasses: { curved: EdgeCurveProgram },
    renderEdgeLabels: false,
    // Small graphs: every label (density still avoids overlaps); large ones: the bigger nodes first.
    labelRenderedSizeThreshold: built.nodes <= 300 ? 0 : 8,
    labelDensity: 0.6,
    zIndex: true,
    minCameraRatio: 0.02,
    maxCameraRatio: 20,
    allowInvalidContainer: true,
    labelFont: 'system-ui, sans-serif',
    nodeReducer: (node, attrs) => {
      if (!isSelected(node)) return attrs;
      return { ...attrs, highlighted: true, size: attrs.size * 1.4, zIndex: 2 };
    },
  });
}
