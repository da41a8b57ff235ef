/**
 * The Graph view at 2,000 entities in headless Chromium (software WebGL, `--disable-gpu`): first
 * draw (data in the view → first frame, layout included) and the frame times of a pan and of a
 * zoom. The engine's `graph.overview` answer is replaced (page.route) by an invented, contract-valid
 * slice of typed relations in clusters, so the figure is the window's alone, at exactly that size.
 */
import os from 'node:os';
import type { Page } from 'playwright-core';
import { chromiumPath, launchChromium } from '../../e2e/support/browser.js';
import { ensureRendererBuilt } from '../../e2e/support/build.js';
import { startServe } from '../../e2e/support/server.js';
import { makeTempWorkspace, removeTempWorkspace } from './engine.js';
import { Rng } from './prng.js';
import { log, percentile, round } from './stats.js';

export interface GraphViewFigures {
  desktop_graph_entities: number;
  desktop_graph_relations: number;
  /** `graph-render`: the overview's answer in the view → sigma's first frame on screen (layout in its worker included). Target ≤ 1,000. */
  desktop_graph_first_draw_ms: number | null;
  /** Pan: frame interval median / p95 while the camera moves every frame. Target median ≤ 33. */
  desktop_graph_pan_frame_p50_ms: number | null;
  desktop_graph_pan_frame_p95_ms: number | null;
  /** Main-thread milliseconds of sigma's render per pan frame (labels included), median: what is not the GPU emulation's. */
  desktop_graph_pan_render_cpu_p50_ms: number | null;
  desktop_graph_zoom_frame_p50_ms: number | null;
  desktop_graph_zoom_frame_p95_ms: number | null;
  /** Labels (cluster names included) the last frame drew, none overlapping; and the named clusters. */
  desktop_graph_labels_drawn: number | null;
  desktop_graph_clusters: number | null;
  /** The machine's 1-minute load average when measured (the 2 cores are shared). */
  desktop_graph_load: number;
}

const FIRST = ['Dana', 'Marco', 'Priya', 'Sam', 'Lena', 'Omar', 'Ines', 'Tomas', 'Yuki', 'Ravi'];
const LAST = ['Okafor', 'Bellini', 'Raman', 'Reyes', 'Novak', 'Haddad', 'Silva', 'Berg', 'Tanaka', 'Iyer'];
const THINGS = ['gateway', 'ledger', 'billing', 'search', 'kestrel', 'atlas', 'harbor', 'quill', 'tidewater', 'driftwood'];
const PREDICATES: Array<[string, string, string]> = [
  ['person', 'owns', 'project'],
  ['person', 'leads', 'project'],
  ['project', 'runs_on', 'machine'],
  ['project', 'uses', 'tool'],
  ['project', 'depends_on', 'project'],
  ['person', 'member_of', 'organization'],
];

/** Invented entities in clusters of ~40 (people, their projects, hosts, tools), related by typed claims. */
export function syntheticGraphSlice(entities: number, relations: number, seed = 19): unknown {
  const rng = new Rng(seed);
  const random = (): number => rng.next();
  const types = ['person', 'project', 'machine', 'tool', 'organization'];
  const labelOf = (i: number, type: string): string => {
    const k = Math.floor(i / types.length);
    if (type === 'person') return `${FIRST[k % 10]} ${LAST[Math.floor(k / 10) % 10]}${k >= 100 ? ` ${Math.floor(k / 100)}` : ''}`;
    if (type === 'machine') return `${THINGS[k % 10]}-${String(k).padStart(3, '0')}.internal`;
    return `${THINGS[k % 10]}-${type}-${k}`;
  };
  const list = Array.from({ length: entities }, (_, i) => {
    const type = types[i % types.length]!;
    return { id: `entity:${i + 1}`, type, label: labelOf(i, type), aliases: [], degree: 0, sources: ['workspace'], origin: 'owner', evidence: [] };
  });
  const cluster = 40;
  const claims = Array.from({ length: relations }, (_, i) => {
    const [, predicate] = PREDICATES[i % PREDICATES.length]!;
    const a = Math.floor(random() * entities);
    let b = random() < 0.9 ? Math.min(entities - 1, Math.floor(a / cluster) * cluster + Math.floor(random() * cluster)) : Math.floor(random() * entities);
    if (b === a) b = (a + 1) % entities;
    list[a]!.degree++;
    list[b]!.degree++;
    const ended = random() < 0.15;
    return {
      id: `claim:${i + 1}`,
      subject: `entity:${a + 1}`,
      predicate,
      object: `entity:${b + 1}`,
      literal: null,
      confidence: 0.9,
      origin: 'owner',
      validFrom: '2026-03-01',
      validUntil: ended ? '2026-06-01' : null,
      weight: 1 + Math.floor(random() * 4),
      evidence: [],
    };
  });
  return { entities: list, edges: claims, omitted: { entities: 0, edges: 0 }, totals: { entities, claims: relations }, evidence: 'omitted' };
}

/**
 * Frame intervals over `ms` while the camera pans (or zooms in and out) every frame. A script
 * string, not a function: tsx would wrap a function's inner functions in a helper the page lacks.
 */
async function frameIntervals(page: Page, ms: number, motion: 'pan' | 'zoom'): Promise<number[]> {
  return page.evaluate(`new Promise((resolve) => {
    const stats = globalThis.__reverieGraphStats;
    const intervals = [];
    let first = 0, last = 0, step = 0;
    function tick(now) {
      if (first === 0) first = now; else intervals.push(now - last);
      last = now;
      step++;
      if (${JSON.stringify(motion)} === 'pan') stats.panBy(Math.cos(step / 20) * 0.01, Math.sin(step / 20) * 0.01);
      else stats.zoomBy(Math.floor(step / 30) % 2 === 0 ? 0.97 : 1 / 0.97);
      if (now - first < ${ms}) requestAnimationFrame(tick); else resolve(intervals);
    }
    requestAnimationFrame(tick);
  })`) as Promise<number[]>;
}

export async function runDesktopGraphViewBench(entities = 2_000, relations = 8_000): Promise<GraphViewFigures> {
  const load = round(os.loadavg()[0]!, 1);
  const empty: GraphViewFigures = {
    desktop_graph_entities: entities,
    desktop_graph_relations: relations,
    desktop_graph_first_draw_ms: null,
    desktop_graph_pan_frame_p50_ms: null,
    desktop_graph_pan_frame_p95_ms: null,
    desktop_graph_pan_render_cpu_p50_ms: null,
    desktop_graph_zoom_frame_p50_ms: null,
    desktop_graph_zoom_frame_p95_ms: null,
    desktop_graph_labels_drawn: null,
    desktop_graph_clusters: null,
    desktop_graph_load: load,
  };
  if (!chromiumPath) {
    log('desktop graph view: no Chromium installed; skipped');
    return empty;
  }
  ensureRendererBuilt();
  const ws = makeTempWorkspace('desktop-graph');
  const serve = await startServe(ws.workspace, ws.dataDir);
  const browser = await launchChromium();
  try {
    const page = await browser.context.newPage();
    const answer = JSON.stringify({ ok: true, result: syntheticGraphSlice(entities, relations) });
    await page.route('**/api/graph.overview', (route) => route.fulfill({ status: 200, contentType: 'application/json', body: answer }));
    await page.goto(serve.launchUrl);
    await page.waitForSelector('body[data-index-state="ready"]', { state: 'attached', timeout: 120_000 });
    await page.click('[data-testid=nav-graph]');
    // Polled with string evaluations: a function would be wrapped by tsx, and waitForFunction's string form needs eval (the page's CSP forbids it).
    for (const deadline = Date.now() + 120_000; !(await page.evaluate(`globalThis.__reverieGraphStats?.nodes === ${entities}`)); ) {
      if (Date.now() > deadline) throw new Error('The Graph view did not draw within 120 s.');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const firstDraw = (await page.evaluate(`performance.getEntriesByName('graph-render', 'measure').at(-1)?.duration ?? NaN`)) as number;
    await frameIntervals(page, 500, 'pan'); // warm-up: shaders, label widths
    await page.evaluate('globalThis.__reverieGraphStats.takeRenderTimes()');
    const pan = await frameIntervals(page, 3_000, 'pan');
    const panCpu = (await page.evaluate('globalThis.__reverieGraphStats.takeRenderTimes()')) as number[];
    const zoom = await frameIntervals(page, 3_000, 'zoom');
    const labels = (await page.evaluate('globalThis.__reverieGraphStats.labelsDrawn()')) as number;
    const clusters = (await page.evaluate('globalThis.__reverieGraphStats.clusters.length')) as number;
    const figures: GraphViewFigures = {
      ...empty,
      desktop_graph_first_draw_ms: Math.round(firstDraw),
      desktop_graph_pan_frame_p50_ms: round(percentile(pan, 50), 1),
      desktop_graph_pan_frame_p95_ms: round(percentile(pan, 95), 1),
      desktop_graph_pan_render_cpu_p50_ms: round(percentile(panCpu, 50), 1),
      desktop_graph_zoom_frame_p50_ms: round(percentile(zoom, 50), 1),
      desktop_graph_zoom_frame_p95_ms: round(percentile(zoom, 95), 1),
      desktop_graph_labels_drawn: labels,
      desktop_graph_clusters: clusters,
    };
    log(
      `desktop graph view (headless Chromium, software WebGL, load ${load}): ${entities} entities / ${relations} relations, first draw ${figures.desktop_graph_first_draw_ms} ms; ` +
        `pan frame p50 ${figures.desktop_graph_pan_frame_p50_ms} / p95 ${figures.desktop_graph_pan_frame_p95_ms} ms (sigma render on the main thread p50 ${figures.desktop_graph_pan_render_cpu_p50_ms} ms); zoom p50 ${figures.desktop_graph_zoom_frame_p50_ms} / p95 ${figures.desktop_graph_zoom_frame_p95_ms} ms; ${labels} labels, ${clusters} named clusters`,
    );
    return figures;
  } finally {
    await browser.close();
    await serve.stop();
    removeTempWorkspace(ws);
  }
}
