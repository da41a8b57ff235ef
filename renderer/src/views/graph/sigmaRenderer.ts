/**
 * Sigma, its WebGL programs and the layout (graphology, ForceAtlas2), loaded on demand (a separate chunk, and never in Node: sigma
 * touches WebGL globals when imported).
 */
import EdgeCurveProgram from '@sigma/edge-curve';
import Graph from 'graphology';
import Sigma from 'sigma';
import { EdgeRectangleProgram } from 'sigma/rendering';
import { skippedWhileMoving, type CameraMotion } from './cameraMotion.js';
import type { BuiltGraph, EdgeAttributes, NodeAttributes } from './buildGraph.js';

import { createLayoutRunner } from './layoutOffThread.js';
import { NodeRingProgram } from './nodeRingProgram.js';
import { nonInstanced } from './nonInstancedProgram.js';

/** Up to this many relations stay drawn while the camera moves; a larger graph shows its entities alone until the camera settles. */
export const EDGES_DRAWN_WHILE_MOVING = 1_000;

export { buildGraphOffThread } from './buildGraph.js';
export { installLabelDrawing } from './drawLabels.js';

/** One layout worker for the page, started on the first layout and kept for the next. */
export const layoutRunner = createLayoutRunner();

/**
 * Sigma with its WebGL programs set up, on an empty graph: `sigma.setGraph(built.graph)` draws
 * the graph, in a later task, so the page can paint between the two (each takes hundreds of
 * milliseconds on a large graph with software WebGL).
 */
export function createSigma(
  built: Pick<BuiltGraph, 'nodes' | 'edges'>,
  element: HTMLElement,
  isSelected: (node: string) => boolean,
  motion: Pick<CameraMotion, 'moving'>,
): Sigma<NodeAttributes, EdgeAttributes> {
  const hideEdges = built.edges > EDGES_DRAWN_WHILE_MOVING ? () => motion.moving : () => false;
  const empty = new Graph<NodeAttributes, EdgeAttributes>({ type: 'directed', multi: true, allowSelfLoops: false });
  return new Sigma<NodeAttributes, EdgeAttributes>(empty, element, {
    defaultNodeType: 'ring',
    // Sigma's programs without instancing: the same drawing, far cheaper with software WebGL (see nonInstancedProgram.ts).
    nodeProgramClasses: { ring: nonInstanced(NodeRingProgram) },
    // Parallel relations between two entities are curves (`type: 'curved'`, signed `curvature`).
    edgeProgramClasses: {
      line: skippedWhileMoving(nonInstanced(EdgeRectangleProgram), hideEdges),
      curved: skippedWhileMoving(nonInstanced(EdgeCurveProgram), hideEdges),
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
