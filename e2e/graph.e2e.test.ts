import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumPath, launchChromium, newAppPage, saveScreenshot, waitForIndexReady, type LaunchedBrowser } from './support/browser.js';
import { ensureRendererBuilt } from './support/build.js';
import { startServe, type RunningServe } from './support/server.js';
import { useServedApp } from './support/suite.js';

/** What the Graph view publishes on `window.__reverieGraphStats` (see renderer/src/views/graph/GraphCanvas.tsx). */
interface GraphStats {
  nodes: number;
  edges: number;
  components: number;
  layoutMs: number;
  layoutThread: 'worker' | 'main';
  renderMs: number;
}

/** The page's globals used inside page.evaluate (the e2e project has no DOM types). */
interface PageGlobals {
  __reverieGraphStats?: GraphStats & {
    positionOf(id: string): { x: number; y: number } | null;
    entityIds(): string[];
    panBy(dx: number, dy: number): void;
    takeRenderTimes(): number[];
  };
  document: { querySelector(selector: string): { getBoundingClientRect(): { top: number; left: number; right: number; bottom: number } } | null };
  requestAnimationFrame(callback: (now: number) => void): number;
  /** Set by watchFrameGaps: the longest gap between two frames so far, every frame's time, and a switch to stop. */
  __frameWatch?: { longest: number; frames: number[]; stop: boolean };
}

interface Entity {
  id: string;
  label: string;
  type: string;
  degree: number;
  evidence: Array<{ path: string; startLine: number; endLine: number }>;
}

async function openGraph(page: Page): Promise<GraphStats> {
  await page.click('[data-testid=nav-graph]');
  return waitForRender(page);
}

async function waitForRender(page: Page, nodes?: number): Promise<GraphStats> {
  await page.waitForFunction(
    (expected) => {
      const stats = (globalThis as unknown as PageGlobals).__reverieGraphStats;
      return stats !== undefined && (expected === null || stats.nodes === expected);
    },
    nodes ?? null,
    { timeout: 60_000 },
  );
  return page.evaluate(() => {
    const { nodes, edges, components, layoutMs, layoutThread, renderMs } = (globalThis as unknown as PageGlobals).__reverieGraphStats!;
    return { nodes, edges, components, layoutMs, layoutThread, renderMs };
  });
}

async function positionOf(page: Page, entityId: string): Promise<{ x: number; y: number }> {
  // The view may redraw (a graph update arriving): wait until the drawn graph has the entity.
  await page.waitForFunction((id) => (globalThis as unknown as PageGlobals).__reverieGraphStats?.positionOf(id) ? true : false, entityId, { timeout: 10_000 });
  const position = await page.evaluate(
    (id) => (globalThis as unknown as PageGlobals).__reverieGraphStats!.positionOf(id),
    entityId,
  );
  if (!position) throw new Error(`${entityId} is not drawn`);
  return position;
}

/** A point of the canvas at least 40 px from every drawn entity (for a background click). */
async function emptySpot(page: Page): Promise<{ x: number; y: number }> {
  return page.evaluate(() => {
    const page = globalThis as unknown as PageGlobals;
    const stats = page.__reverieGraphStats!;
    const points = stats.entityIds().map((id) => stats.positionOf(id)).filter((p): p is { x: number; y: number } => p !== null);
    const box = page.document.querySelector('[data-testid=graph-canvas]')!.getBoundingClientRect();
    for (let y = box.top + 20; y < box.bottom - 20; y += 15) {
      for (let x = box.left + 240; x < box.right - 20; x += 15) {
        if (points.every((p) => Math.hypot(p.x - x, p.y - y) > 40)) return { x, y };
      }
    }
    throw new Error('no empty spot on the canvas');
  });
}

/** A Codex memory file as `import.run` would copy it (see core/src/graph/sourceTool.ts). */
const CODEX_NOTE = 'memory/imports/codex/memories/MEMORY.md';

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

describe.skipIf(!chromiumPath)('Graph view (real engine)', () => {
  const app = useServedApp();

  async function call<T>(operation: string, input: unknown = {}): Promise<T> {
    const response = await fetch(`${app.serve.url}/api/${operation}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${app.serve.token}`, Origin: app.serve.url },
      body: JSON.stringify(input),
    });
    const body = (await response.json()) as { ok: boolean; result: T; error?: unknown };
    if (!body.ok) throw new Error(`${operation} failed: ${JSON.stringify(body.error)}`);
    return body.result;
  }

  it('draws the workspace entities; a click centres one and opens its card; evidence opens the Provenance inspector', async () => {
    fs.writeFileSync(
      app.workspace.file('memory/2026-03-10.md'),
      ['# 2026-03-10', '', '- Ada Marlowe uses [[Quillfeather]] notes for the #bookbinding plan.', '- Ada Marlowe moved to Porto.', ''].join('\n'),
      'utf8',
    );
    // Imported Codex memory: its entities carry the `codex` source tool (for the filter below).
    fs.mkdirSync(path.dirname(app.workspace.file(CODEX_NOTE)), { recursive: true });
    fs.writeFileSync(
      app.workspace.file(CODEX_NOTE),
      ['# Codex memory', '', '- [[Driftwood Atlas]] is the map renderer; #cartography work for Ada Marlowe.', '- [[Tidewater]] holds the tile cache.', ''].join('\n'),
      'utf8',
    );
    const { page, problems, close } = await newAppPage(app.browser);
    await page.goto(app.serve.launchUrl);
    await waitForIndexReady(page);
    await call('index.sync', { force: false });

    const overview = await call<{ entities: Entity[]; edges: unknown[] }>('graph.overview', { limit: 2000 });
    expect(overview.entities.length).toBeGreaterThan(0);
    const stats = await openGraph(page);
    expect(stats.nodes).toBe(overview.entities.length);
    expect(stats.layoutThread).toBe('worker');
    console.info(`graph e2e (fixture workspace): ${stats.nodes} entities, ${stats.edges} relations, layout ${stats.layoutMs.toFixed(0)} ms, render ${stats.renderMs.toFixed(0)} ms`);
    await page.locator('[data-testid=graph-legend]').waitFor();
    await saveScreenshot(page, 'graph-workspace');

    // The best-connected entity (the overview leaves evidence lines out; its card loads them).
    const target = [...overview.entities].sort((a, b) => b.degree - a.degree)[0]!;
    const at = await positionOf(page, target.id);
    await page.mouse.click(at.x, at.y);
    const card = page.locator(`[data-testid=graph-card][data-entity-id="${target.id}"]`);
    await card.waitFor();
    expect(await card.locator('[data-testid=graph-card-title]').textContent()).toContain(target.label);
    await page.locator(`[data-testid=graph-card][data-state=ready]`).waitFor();
    // The camera moves the selected entity to the middle of the canvas.
    await page.waitForTimeout(600);
    const centred = await positionOf(page, target.id);
    const box = (await page.locator('[data-testid=graph-canvas]').boundingBox())!;
    expect(Math.abs(centred.x - (box.x + box.width / 2))).toBeLessThan(30);
    expect(Math.abs(centred.y - (box.y + box.height / 2))).toBeLessThan(30);
    await saveScreenshot(page, 'graph-card');

    const link = card.locator('[data-testid=graph-evidence-link]').first();
    const ref = await link.getAttribute('data-ref');
    await link.click();
    const panel = page.locator('[data-testid=provenance-panel][data-state=ready]');
    await panel.waitFor();
    const [refPath] = ref!.split(':');
    expect(await panel.locator('[data-testid=provenance-location]').textContent()).toContain(refPath);
    await saveScreenshot(page, 'graph-provenance');
    await page.keyboard.press('Escape');

    // A background click clears the selection.
    const spot = await emptySpot(page);
    await page.mouse.click(spot.x, spot.y);
    await card.waitFor({ state: 'detached' });

    // Search shows matching entities as a separate "Graph" group; a hit opens its card in the Graph view.
    await page.click('[data-testid=nav-search]');
    await page.fill('[data-testid=search-input]', target.label);
    const hit = page.locator(`[data-testid=graph-hit][data-entity-id="${target.id}"]`);
    await hit.waitFor();
    await saveScreenshot(page, 'graph-search-group');
    await hit.locator('.graph-hit-label').click();
    await page.locator(`[data-testid=graph-card][data-entity-id="${target.id}"][data-state=ready]`).waitFor();

    // Source filter: without workspace notes only the Codex import's entities are drawn; ticking it again brings them back.
    const codexOnly = await call<{ entities: Entity[] }>('graph.overview', { limit: 2000, filters: { tools: ['codex'] } });
    expect(codexOnly.entities.length).toBeGreaterThan(0);
    expect(codexOnly.entities.length).toBeLessThan(overview.entities.length);
    await page.uncheck('[data-testid=graph-filter-tool-workspace]');
    expect((await waitForRender(page, codexOnly.entities.length)).nodes).toBe(codexOnly.entities.length);
    expect(await page.locator('[data-testid=graph-filter-summary]').textContent()).toBe('Showing: Codex, Claude Code, Hermes; all origins');
    await saveScreenshot(page, 'graph-filtered');
    await page.check('[data-testid=graph-filter-tool-workspace]');
    expect((await waitForRender(page, overview.entities.length)).nodes).toBe(overview.entities.length);

    expect(problems).toEqual([]);
    await close();
  });
});

describe.skipIf(!chromiumPath)('Graph view (empty workspace)', () => {
  let base = '';
  let serve: RunningServe | undefined;
  let browser: LaunchedBrowser | undefined;

  beforeAll(async () => {
    ensureRendererBuilt();
    base = fs.mkdtempSync(path.join(os.tmpdir(), 'reverie-e2e-graph-empty-'));
    fs.mkdirSync(path.join(base, 'workspace'));
    fs.mkdirSync(path.join(base, 'data'));
    serve = await startServe(path.join(base, 'workspace'), path.join(base, 'data'));
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await serve?.stop();
    if (base) fs.rmSync(base, { recursive: true, force: true });
  });

  it('says there are no entities yet', async () => {
    const { page, problems, close } = await newAppPage(browser!.context);
    await page.goto(serve!.launchUrl);
    await waitForIndexReady(page);
    await page.click('[data-testid=nav-graph]');
    const empty = page.locator('[data-testid=graph-empty]');
    await empty.waitFor();
    expect(await empty.textContent()).toContain('No entities yet — write notes with names, [[links]] or #tags');
    await saveScreenshot(page, 'graph-empty');
    expect(problems).toEqual([]);
    await close();
  });
});

// ---------------------------------------------------------------------------------------
// Performance. DEV-ONLY DATA SOURCE: the test intercepts the `graph.overview` HTTP call
// (page.route) and answers with a synthetic, contract-valid GraphSlice, so the renderer is
// measured at exactly 2,000/8,000 and 5,000/20,000 without a workspace that large.

const TYPES = ['person', 'project', 'organization', 'place', 'machine', 'tool', 'concept', 'tag'];
const SOURCES = ['workspace', 'codex', 'claude-code', 'hermes'];

function syntheticSlice(nodes: number, edges: number, omitted = 0): unknown {
  let seed = 7;
  const random = (): number => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed / 2147483648;
  };
  // As graph.overview answers: evidence lines left out (the detail card loads them).
  const entities = Array.from({ length: nodes }, (_, i) => ({
    id: `entity:${i + 1}`,
    type: TYPES[i % TYPES.length],
    label: `Entity ${i + 1}`,
    aliases: [],
    degree: 0,
    sources: [SOURCES[i % 7 === 0 ? 1 + (i % 3) : 0]],
    origin: 'owner',
    evidence: [],
  }));
  const cluster = 40;
  const claims = Array.from({ length: edges }, (_, i) => {
    const a = Math.floor(random() * nodes);
    let b = random() < 0.85 ? Math.min(nodes - 1, Math.floor(a / cluster) * cluster + Math.floor(random() * cluster)) : Math.floor(random() * nodes);
    if (b === a) b = (a + 1) % nodes; // no self-loops: every relation is drawn
    entities[a]!.degree++;
    entities[b]!.degree++;
    return {
      id: `claim:${i + 1}`,
      subject: `entity:${a + 1}`,
      predicate: 'mentioned_with',
      object: `entity:${b + 1}`,
      literal: null,
      confidence: 0.8,
      origin: 'owner',
      validFrom: '2026-03-01',
      validUntil: null,
      weight: 1 + (i % 3),
      evidence: [],
    };
  });
  return { entities, edges: claims, omitted: { entities: omitted, edges: omitted * 4 }, totals: { entities: nodes + omitted, claims: edges + omitted * 4 }, evidence: 'omitted' };
}

/** Frame intervals for `ms`; `pan` moves the camera a little every frame (else only records). */
async function recordFrames(page: Page, ms: number, pan: boolean): Promise<number[]> {
  return page.evaluate(
    ([duration, panning]) =>
      new Promise<number[]>((resolve) => {
        const page = globalThis as unknown as PageGlobals;
        const stats = page.__reverieGraphStats!;
        const intervals: number[] = [];
        let last = 0;
        let first = 0;
        let step = 0;
        const tick = (now: number): void => {
          if (first === 0) first = now;
          else intervals.push(now - last);
          last = now;
          step++;
          if (panning) stats.panBy(Math.cos(step / 20) * 0.01, Math.sin(step / 20) * 0.01);
          if (now - first < duration) page.requestAnimationFrame(tick);
          else resolve(intervals);
        };
        page.requestAnimationFrame(tick);
      }),
    [ms, pan] as const,
  );
}

/** Starts recording the longest gap between animation frames (how long the page could not paint). */
async function watchFrameGaps(page: Page): Promise<void> {
  await page.evaluate(() => {
    const page = globalThis as unknown as PageGlobals;
    const watch = { longest: 0, frames: [] as number[], stop: false };
    page.__frameWatch = watch;
    let last = 0;
    const tick = (now: number): void => {
      watch.frames.push(now);
      if (last > 0) watch.longest = Math.max(watch.longest, now - last);
      last = now;
      if (!watch.stop) page.requestAnimationFrame(tick);
    };
    page.requestAnimationFrame(tick);
  });
}

/** Stops the frame watch: the longest gap, and the frames painted between the end of the WebGL setup and the start of drawing the graph. */
async function stopFrameWatch(page: Page): Promise<{ longest: number; framesBetweenSetupAndDraw: number; setupMs: number; drawMs: number }> {
  return page.evaluate(() => {
    const watch = (globalThis as unknown as PageGlobals).__frameWatch!;
    watch.stop = true;
    const last = (name: string) => performance.getEntriesByName(name, 'measure').at(-1);
    const setup = last('graph-sigma');
    const draw = last('graph-draw');
    const setupEnd = setup ? setup.startTime + setup.duration : NaN;
    const framesBetweenSetupAndDraw = draw ? watch.frames.filter((t) => t >= setupEnd && t <= draw.startTime).length : 0;
    return { longest: watch.longest, framesBetweenSetupAndDraw, setupMs: setup?.duration ?? NaN, drawMs: draw?.duration ?? NaN };
  });
}

async function renderTimes(page: Page): Promise<number[]> {
  return page.evaluate(() => (globalThis as unknown as PageGlobals).__reverieGraphStats!.takeRenderTimes());
}

describe.skipIf(!chromiumPath)('Graph view performance (synthetic graph.overview, dev-only)', () => {
  const app = useServedApp();

  it('renders 2,000 / 8,000 and reports render and pan frame times at 5,000 / 20,000', async () => {
    const { page, problems, close } = await newAppPage(app.browser);
    let answer = JSON.stringify({ ok: true, result: syntheticSlice(2000, 8000, 1234) });
    await page.route('**/api/graph.overview', (route) => route.fulfill({ status: 200, contentType: 'application/json', body: answer }));
    await page.goto(app.serve.launchUrl);
    await waitForIndexReady(page);

    const figures: string[] = [];
    for (const [nodes, edges] of [
      [2000, 8000],
      [5000, 20000],
    ] as const) {
      answer = JSON.stringify({ ok: true, result: syntheticSlice(nodes, edges, nodes === 2000 ? 1234 : 0) });
      await watchFrameGaps(page);
      const started = Date.now();
      if (nodes === 2000) await page.click('[data-testid=nav-graph]');
      else await page.click('[data-testid=graph-reload]');
      // The layout runs in a worker; the page says so meanwhile.
      const progress = page.locator('[data-testid=graph-layout-progress]');
      await progress.waitFor();
      expect(await progress.textContent()).toBe(`Laying out ${nodes.toLocaleString('en-US')} entities…`);
      const stats = await waitForRender(page, nodes);
      const wallMs = Date.now() - started;
      const { longest: gapMs, framesBetweenSetupAndDraw, setupMs, drawMs } = await stopFrameWatch(page);
      expect(stats.layoutThread).toBe('worker');
      // Sigma's WebGL setup and drawing the graph are separate tasks with a painted frame between them.
      expect(framesBetweenSetupAndDraw).toBeGreaterThanOrEqual(1);
      const measured = await page.evaluate(() => performance.getEntriesByName('graph-render', 'measure').at(-1)?.duration ?? NaN);
      await renderTimes(page);
      const frames = await recordFrames(page, 2000, true);
      const cpu = await renderTimes(page);
      figures.push(
        `${nodes} nodes / ${edges} edges: render ${measured.toFixed(0)} ms (layout ${stats.layoutMs.toFixed(0)} ms in the ${stats.layoutThread} thread; click→drawn incl. fetch+validation ${wallMs} ms; ` +
          `longest frame gap click→drawn ${gapMs.toFixed(0)} ms; sigma setup ${setupMs.toFixed(0)} ms, first draw ${drawMs.toFixed(0)} ms); ` +
          `camera pan: ${frames.length} frames in 2 s, frame p50 ${percentile(frames, 50).toFixed(1)} ms, p95 ${percentile(frames, 95).toFixed(1)} ms ` +
          `(sigma main-thread render p50 ${percentile(cpu, 50).toFixed(1)} ms)`,
      );
      expect(stats.nodes).toBe(nodes);
      expect(stats.edges).toBe(edges);
      if (nodes === 2000) {
        expect(await page.locator('[data-testid=graph-counts]').textContent()).toContain('Showing 2,000 of 3,234 entities');
        // Speed is a figure of `npm run bench -- --only desktop-graph`, never a pass/fail here (printed above).
        expect(measured).toBeGreaterThan(0);
      }
      await saveScreenshot(page, `graph-perf-${nodes}`);
    }
    console.info(`graph performance (headless Chromium, SwiftShader WebGL):\n  ${figures.join('\n  ')}`);
    expect(problems).toEqual([]);
    await close();
  }, 180_000);
});
