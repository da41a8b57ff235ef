/**
 * Sigma, its WebGL programs and the layout (graphology, ForceAtlas2), loaded on demand (a separate chunk, and never in Node: sigma
 * touches WebGL globals when imported).
 */
import EdgeCurveProgram from '@sigma/edge-curve';
import Graph from 'graphology';
import Sigma from 'sigma';
import { EdgeRectangleProgram } from 'sigma/rendering';
import { skippedWhileMoving } from './cameraMotion.js';
import type { EdgeAttributes, NodeAttributes } from './buildGraph.js';

import { createLayoutRunner } from './layoutOffThread.js';
import { NodeRingProgram } from './nodeRingProgram.js';
import { nonInstanced } from './nonInstancedProgram.js';

export { buildGraphOffThread } from './buildGraph.js';
export { installLabelDrawing } from './drawLabels.js';

/** One layout worker for the page, started on the first layout and kept for the next. */
export const layoutRunner = createLayoutRunner();

/**
 * Sigma with its WebGL programs set up, on an empty graph: `sigma.setGraph(built.graph)` draws
 * the graph, in a later task, so the page can paint between the two (each takes hundreds of
 * milliseconds on a large graph with software WebGL). Relations are not drawn while
 * `skipEdges()` is true (see cameraMotion.ts).
 */
export function createSigma(element: HTMLElement, isSelected: (node: string) => boolean, skipEdges: () => boolean): Sigma<NodeAttributes, EdgeAttributes> {
  const empty = new Graph<NodeAttributes, EdgeAttributes>({ type: 'directed', multi: true, allowSelfLoops: false });
  return new Sigma<NodeAttributes, EdgeAttributes>(empty, element, {
    defaultNodeType: 'ring',
    // Sigma's programs without instancing: the same drawing, far cheaper with software WebGL (see nonInstancedProgram.ts).
    nodeProgramClasses: { ring: nonInstanced(NodeRingProgram) },
    // Parallel relations between two entities are curves (`type: 'curved'`, signed `curvature`).
    edgeProgramClasses: {
      line: skippedWhileMoving(nonInstanced(EdgeRectangleProgram), skipEdges),
      curved: skippedWhileMoving(nonInstanced(EdgeCurveProgram), skipEdges),
    },
    renderEdgeLabels: false,
    // Labels are placed by drawLabels.ts (never overlapping, cluster names first), not by sigma's label grid.
    renderLabels: false,
    zIndex: true,
    minCameraRatio: 0.02,
    maxCameraRatio: 20,
    allowInvalidContainer: true,
    nodeReducer: (node, attrs) => {
      if (!isSelected(node)) return attrs;
      return { ...attrs, highlighted: true, size: attrs.size * 1.4, zIndex: 2 };
    },
  });
}
