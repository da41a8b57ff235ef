import { useEffect, useRef, useState } from 'react';
import type Sigma from 'sigma';
import type { GraphSlice } from '../../../../core/src/contract/index.js';
import { ErrorNotice } from '../../components/ErrorNotice.js';
import { createCameraMotion, EDGES_DRAWN_WHILE_MOVING } from './cameraMotion.js';
import type { BuiltGraph, EdgeAttributes, NodeAttributes } from './buildGraph.js';

/** What the view exposes for tests and measurements (`window.__reverieGraphStats`). */
export interface GraphStats {
  nodes: number;
  edges: number;
  components: number;
  /** Named clusters (at least three entities each), largest first. */
  clusters: Array<{ name: string; size: number }>;
  /** Labels (cluster names included) the last frame drew. */
  labelsDrawn(): number;
  selfLoops: number;
  /** Building the graph and its force layout (wall time; with a worker, its round trip included). */
  layoutMs: number;
  /** Where the force layout ran: 'worker' normally, 'main' when no worker could start. */
  layoutThread: 'worker' | 'main';
  /** From the data arriving in the view to sigma's first drawn frame (layout included). */
  renderMs: number;
  /** Where an entity is on screen (page coordinates), or null when it is not drawn. */
  positionOf(entityId: string): { x: number; y: number } | null;
  /** Entity ids drawn, in a stable order. */
  entityIds(): string[];
  /** Main-thread milliseconds of each sigma render since the last call (then forgets them). */
  takeRenderTimes(): number[];
  /** Moves the camera by a fraction of the viewport (for pan measurements). */
  panBy(dx: number, dy: number): void;
  /** Multiplies the camera's zoom ratio (for zoom measurements; > 1 zooms out). */
  zoomBy(factor: number): void;
}

declare global {
  interface Window {
    __reverieGraphStats?: GraphStats;
  }
}

interface Props {
  data: GraphSlice;
  selectedId: string | null;
  onSelect(entityId: string): void;
  onClear(): void;
}

const CAMERA_MS = 400;

/** Resolves after the browser painted the next frame (a rAF callback runs before the paint; its timeout after). */
function afterNextPaint(): Promise<void> {
  return new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
}

/** Redraws with the selection highlighted and centres the camera on it. */
function focus(renderer: Sigma<NodeAttributes, EdgeAttributes>, selectedId: string | null, animate: boolean): void {
  renderer.refresh({ skipIndexation: true });
  if (!selectedId) return;
  const display = renderer.getNodeDisplayData(selectedId);
  if (!display) return;
  const camera = renderer.getCamera();
  const target = { x: display.x, y: display.y, ratio: Math.min(camera.ratio, 0.6) };
  if (animate) void camera.animate(target, { duration: CAMERA_MS });
  else camera.setState(target);
}

/** The WebGL drawing (sigma.js): laid out once per data, camera follows selection. */
export function GraphCanvas({ data, selectedId, onSelect, onClear }: Props) {
  const container = useRef<HTMLDivElement>(null);
  const sigmaRef = useRef<Sigma<NodeAttributes, EdgeAttributes> | null>(null);
  const selectedRef = useRef<string | null>(selectedId);
  const handlers = useRef({ onSelect, onClear });
  handlers.current = { onSelect, onClear };
  const [failure, setFailure] = useState<string | null>(null);
  /** Entities being laid out (the worker is running), or null once drawn. */
  const [layingOut, setLayingOut] = useState<number | null>(null);

  useEffect(() => {
    const element = container.current;
    if (!element) return;
    for (const name of ['graph-render', 'graph-sigma', 'graph-draw']) {
      performance.clearMarks(`${name}-start`);
      performance.clearMeasures(name);
    }
    performance.clearMarks('graph-render-end');
    performance.mark('graph-render-start');
    const started = performance.now();
    let renderer: Sigma<NodeAttributes, EdgeAttributes> | null = null;
    let labelsDrawn = (): number => 0;
    let frame = 0;
    let cancelled = false;
    const motion = createCameraMotion();
    /** Relations drawn (known once laid out): above EDGES_DRAWN_WHILE_MOVING they are left out while the camera moves. */
    let drawnEdges = 0;
    let stopFollowing = (): void => {};
    /** Main-thread time of sigma's last renders (the GPU work is not in it). */
    const frameCpu: number[] = [];

    function publish(built: BuiltGraph, sigma: Sigma<NodeAttributes, EdgeAttributes>, el: HTMLElement): void {
      performance.mark('graph-render-end');
      performance.measure('graph-render', 'graph-render-start', 'graph-render-end');
      const renderMs = performance.now() - started;
      el.dataset.rendered = 'true';
      window.__reverieGraphStats = {
        nodes: built.nodes,
        edges: built.edges,
        components: built.components,
        clusters: built.clusters.map((c) => ({ name: c.name, size: c.size })),
        labelsDrawn: () => labelsDrawn(),
        selfLoops: built.selfLoops,
        layoutMs: built.layoutMs,
        layoutThread: built.layoutThread,
        renderMs,
        positionOf(entityId) {
          if (!built.graph.hasNode(entityId)) return null;
          const display = sigma.getNodeDisplayData(entityId);
          if (!display) return null;
          const viewport = sigma.framedGraphToViewport({ x: display.x, y: display.y });
          const box = el.getBoundingClientRect();
          return { x: box.left + viewport.x, y: box.top + viewport.y };
        },
        entityIds: () => built.graph.nodes(),
        takeRenderTimes() {
          return frameCpu.splice(0);
        },
        panBy(dx, dy) {
          const camera = sigma.getCamera();
          const state = camera.getState();
          camera.setState({ x: state.x + dx * state.ratio, y: state.y + dy * state.ratio });
        },
        zoomBy(factor) {
          const camera = sigma.getCamera();
          camera.setState({ ratio: camera.getState().ratio * factor });
        },
      };
    }

    setLayingOut(data.entities.length);
    void import('./sigmaRenderer.js')
      .then(async ({ buildGraphOffThread, createSigma, installLabelDrawing, layoutRunner }) => {
        if (cancelled) return;
        // The layout runs in its worker while this thread sets up sigma's WebGL (on an empty graph): neither waits for the other.
        const building = buildGraphOffThread(data, layoutRunner);
        building.catch(() => {}); // its failure is reported where it is awaited, below
        await afterNextPaint();
        if (cancelled) return;
        performance.mark('graph-sigma-start');
        const sigma = createSigma(element, (node) => node === selectedRef.current, () => drawnEdges > EDGES_DRAWN_WHILE_MOVING && motion.moving);
        renderer = sigma;
        sigmaRef.current = sigma;
        stopFollowing = motion.follow(sigma);
        performance.measure('graph-sigma', 'graph-sigma-start');
        const built = await building;
        if (cancelled) return;
        setLayingOut(null);
        drawnEdges = built.edges;
        labelsDrawn = installLabelDrawing(sigma, built, (node) => node === selectedRef.current);
        setFailure(null);
        sigma.on('clickNode', ({ node }) => handlers.current.onSelect(node));
        sigma.on('clickStage', () => handlers.current.onClear());
        let renderStart = 0;
        sigma.on('beforeRender', () => (renderStart = performance.now()));
        sigma.on('afterRender', () => {
          frameCpu.push(performance.now() - renderStart);
          if (frameCpu.length > 600) frameCpu.shift();
        });
        // Drawing the graph in its own task after a painted frame: the page stalls for it alone.
        await afterNextPaint();
        if (cancelled) return;
        performance.mark('graph-draw-start');
        sigma.setGraph(built.graph);
        performance.measure('graph-draw', 'graph-draw-start');
        // setGraph drew it; a selection is drawn again, highlighted and centred.
        if (selectedRef.current) focus(sigma, selectedRef.current, false);
        frame = requestAnimationFrame(() => {
          // Sigma draws in this frame's callbacks; the next frame starts once it is on screen.
          frame = requestAnimationFrame(() => publish(built, sigma, element));
        });
      })
      .catch((error: unknown) => {
        if (cancelled) return;
        setLayingOut(null);
        setFailure(error instanceof Error ? error.message : String(error));
      });

    return () => {
      cancelled = true;
      cancelAnimationFrame(frame);
      delete element.dataset.rendered;
      if (window.__reverieGraphStats) delete window.__reverieGraphStats;
      sigmaRef.current = null;
      stopFollowing();
      renderer?.kill();
    };
  }, [data]);

  // The selected entity grows and the camera centres on it.
  useEffect(() => {
    selectedRef.current = selectedId;
    const renderer = sigmaRef.current;
    if (!renderer) return;
    focus(renderer, selectedId, true);
  }, [selectedId]);

  return (
    <div className="graph-canvas-wrap">
      <div ref={container} className="graph-canvas" data-testid="graph-canvas" aria-label="Knowledge graph drawing" role="img" />
      {layingOut !== null && (
        <p className="graph-layout-progress" role="status" data-testid="graph-layout-progress">
          Laying out {layingOut.toLocaleString('en-US')} {layingOut === 1 ? 'entity' : 'entities'}…
        </p>
      )}
      {failure && (
        <ErrorNotice className="graph-canvas-error" title="The graph could not be drawn" error={failure} testId="graph-render-error" />
      )}
    </div>
  );
}
