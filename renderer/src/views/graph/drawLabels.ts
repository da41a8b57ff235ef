/**
 * Draws the labels of the graph on sigma's label canvas after each render, placed by
 * labelPlacement.ts so they never overlap: cluster names first (larger, muted, at the middle of
 * their cluster), then entity labels by importance, the selected entity's always first.
 */
import type Sigma from 'sigma';
import type { BuiltGraph, EdgeAttributes, NodeAttributes } from './buildGraph.js';
import { placeLabels, type LabelCandidate } from './labelPlacement.js';

const FONT = 'system-ui, sans-serif';
const LABEL_SIZE = 12;
const CLUSTER_SIZE = 15;
/** Enough to read a screenful; more labels would be culled as collisions anyway. */
const MAX_LABELS = 220;
const MAX_CLUSTER_NAMES = 24;
/** Entities drawn smaller than this (pixels) get no label unless zoomed in. */
const MIN_LABELLED_SIZE = 2.5;

/** Text widths by font and text: measuring is most of the cost of placing labels each frame. */
function widthCache(context: CanvasRenderingContext2D): (font: string, text: string) => number {
  const widths = new Map<string, number>();
  return (font, text) => {
    const key = `${font}\u0000${text}`;
    let width = widths.get(key);
    if (width === undefined) {
      context.font = font;
      width = context.measureText(text).width;
      widths.set(key, width);
    }
    return width;
  };
}

/** Installs the label drawing on `sigma` (whose own label rendering is off). Returns how many labels the last frame drew. */
export function installLabelDrawing(sigma: Sigma<NodeAttributes, EdgeAttributes>, built: Pick<BuiltGraph, 'graph' | 'clusters'>, isSelected: (node: string) => boolean): () => number {
  const context = sigma.getCanvases().labels!.getContext('2d')!;
  const width = widthCache(context);
  const clusterFont = `600 ${CLUSTER_SIZE}px ${FONT}`;
  const labelFont = `400 ${LABEL_SIZE}px ${FONT}`;
  let drawn = 0;
  sigma.on('afterRender', () => {
    const { width: w, height: h } = sigma.getDimensions();
    const clusterCandidates: LabelCandidate[] = built.clusters.slice(0, MAX_CLUSTER_NAMES * 2).map((c) => {
      const p = sigma.graphToViewport({ x: c.x, y: c.y });
      return { id: `cluster:${c.centerId}`, text: c.name, x: p.x, y: p.y, priority: c.size, offset: 'centre' };
    });
    const clusters = placeLabels(clusterCandidates, { width: w, height: h, fontSize: CLUSTER_SIZE, measure: (t) => width(clusterFont, t), maxLabels: MAX_CLUSTER_NAMES, padding: 4 });
    const entityCandidates: LabelCandidate[] = [];
    built.graph.forEachNode((node, attrs) => {
      const display = sigma.getNodeDisplayData(node);
      if (!display || display.hidden || !attrs.label) return;
      const size = sigma.scaleSize(display.size);
      const selected = isSelected(node);
      if (!selected && size < MIN_LABELLED_SIZE) return;
      const p = sigma.framedGraphToViewport(display);
      if (p.x < -200 || p.y < -20 || p.x > w + 20 || p.y > h + 20) return;
      entityCandidates.push({ id: node, text: attrs.label, x: p.x, y: p.y, priority: selected ? Number.MAX_VALUE : attrs.importance, offset: size + 3 });
    });
    // Cluster names go first and keep their room: an entity label never covers one.
    const labels = placeLabels(entityCandidates, {
      width: w,
      height: h,
      fontSize: LABEL_SIZE,
      measure: (t) => width(labelFont, t),
      maxLabels: MAX_LABELS,
      reservedBoxes: clusters.map((c) => ({ x: c.x - 4, y: c.y - 4, width: c.width + 8, height: c.height + 8 })),
    });
    context.lineJoin = 'round';
    context.font = clusterFont;
    context.fillStyle = '#5b6270';
    context.strokeStyle = 'rgba(255,255,255,0.85)';
    context.lineWidth = 4;
    for (const c of clusters) {
      context.strokeText(c.text, c.x, c.y + c.height * 0.75);
      context.fillText(c.text, c.x, c.y + c.height * 0.75);
    }
    context.font = labelFont;
    context.fillStyle = '#1f2430';
    context.lineWidth = 3;
    for (const l of labels) {
      context.strokeText(l.text, l.x, l.y + l.height * 0.75);
      context.fillText(l.text, l.x, l.y + l.height * 0.75);
    }
    drawn = clusters.length + labels.length;
  });
  return () => drawn;
}
