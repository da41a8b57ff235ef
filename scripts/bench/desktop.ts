/**
 * Desktop-host figures, measured through the browser host (`reverie serve`, the same UI and
 * contract the Electron window uses): API round-trips while the engine indexes 10k files, and
 * cold start to an interactive window on that workspace once indexed. Chromium (if installed)
 * opens the real UI for the cold-start figure.
 */
import { startServe, type RunningServe } from '../../e2e/support/server.js';
import type { BrowserContext } from 'playwright-core';
import { chromiumPath, launchChromium } from '../../e2e/support/browser.js';
import { makeTempWorkspace, removeTempWorkspace } from './engine.js';
import { log, percentile, round } from './stats.js';
import { makeQuestions, SyntheticCorpus } from './synthetic.js';

export interface DesktopFigures {
  desktop_files: number;
  /** Calls that failed (they are not in the latencies). */
  desktop_rtt_errors: number;
  /** Round-trips sampled while the first index of the workspace ran. */
  desktop_rtt_samples_during_index: number;
  desktop_search_rtt_p50_ms_during_index: number;
  desktop_search_rtt_p95_ms_during_index: number;
  desktop_settings_rtt_p50_ms_during_index: number;
  desktop_settings_rtt_p95_ms_during_index: number;
  /** The same, while the knowledge graph is first extracted (after index-ready). */
  desktop_rtt_samples_during_graph: number;
  desktop_search_rtt_p95_ms_during_graph: number;
  desktop_settings_rtt_p95_ms_during_graph: number;
  desktop_first_index_s: number;
  desktop_first_graph_s: number;
  /** `reverie serve` started on the indexed workspace: process start → listening. */
  desktop_serve_listening_ms: number;
  /** Process start → the UI in Chromium shows the index ready (null without Chromium). */
  desktop_serve_interactive_ms: number | null;
  /** The host already running: the launch URL opened in a new tab → the search box painted (target ≤ 1.5 s at 2,000 notes). */
  desktop_first_paint_ms: number | null;
  /** The same tab: the launch URL opened → the first result of a typed query shown (moved here from e2e/search). */
  desktop_first_result_ms: number | null;
}

async function call(serve: RunningServe, operation: string, input: unknown): Promise<unknown> {
  const response = await fetch(`${serve.url}/api/${operation}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${serve.token}`, Origin: serve.url },
    body: JSON.stringify(input),
  });
  const body = (await response.json()) as { ok: boolean; result: unknown; error?: { message: string } };
  if (!body.ok) throw new Error(`${operation}: ${body.error?.message}`);
  return body.result;
}

/** Follows the engine's events (server-sent, as the window gets them): which phase the first sync is in. */
function followPhases(serve: RunningServe): { phase(): 'index' | 'graph' | 'done'; stop(): void } {
  let phase: 'index' | 'graph' | 'done' = 'index';
  const controller = new AbortController();
  void (async () => {
    const response = await fetch(`${serve.url}/api/events?token=${encodeURIComponent(serve.token)}`, { headers: { Origin: serve.url }, signal: controller.signal });
    const decoder = new TextDecoder();
    let buffered = '';
    for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
      buffered += decoder.decode(chunk, { stream: true });
      for (let end = buffered.indexOf('\n\n'); end >= 0; end = buffered.indexOf('\n\n')) {
        const frame = buffered.slice(0, end);
        buffered = buffered.slice(end + 2);
        if (!frame.startsWith('data: ')) continue;
        const event = JSON.parse(frame.slice(6)) as { type: string };
        if (event.type === 'index-ready' && phase === 'index') phase = 'graph';
        else if (event.type === 'graph-updated') phase = 'done';
      }
    }
  })().catch(() => undefined);
  return { phase: () => phase, stop: () => controller.abort() };
}

export async function runDesktopBench(quick: boolean): Promise<DesktopFigures> {
  const files = quick ? 2_000 : 10_000;
  const ws = makeTempWorkspace('desktop');
  try {
    const corpus = new SyntheticCorpus(ws.workspace);
    corpus.writeRootFiles();
    corpus.writeNotes(files);
    const queries = makeQuestions(corpus, 7).map((q) => q.query);
    log(`desktop: ${files} files written; starting reverie serve (first index runs in the background)…`);

    // 1. The window's API round-trips while the engine indexes the workspace for the first time.
    const samples = { index: { search: [] as number[], settings: [] as number[] }, graph: { search: [] as number[], settings: [] as number[] } };
    let serve = await startServe(ws.workspace, ws.dataDir);
    const phases = followPhases(serve);
    const started0 = performance.now();
    let firstIndexS = 0;
    let errors = 0;
    for (let k = 0; phases.phase() !== 'done'; k++) {
      const phase = phases.phase();
      if (phase === 'done') break;
      if (phase === 'graph' && firstIndexS === 0) firstIndexS = (performance.now() - started0) / 1000;
      for (const [kind, operation, input] of [
        ['search', 'memory.search', { query: queries[k % queries.length], limit: 10 }],
        ['settings', 'settings.get', {}],
      ] as const) {
        const t0 = performance.now();
        try {
          await call(serve, operation, input);
          samples[phase][kind].push(performance.now() - t0);
        } catch (error) {
          errors++;
          const cause = (error as { cause?: { message?: string; code?: string } }).cause;
          log(`desktop: ${operation} failed after ${Math.round(performance.now() - t0)} ms: ${(error as Error).message}${cause ? ` (${cause.code ?? ''} ${cause.message ?? ''})` : ''}`);
        }
      }
      await new Promise((r) => setTimeout(r, 50)); // a person typing, not a load test
    }
    const firstGraphS = (performance.now() - started0) / 1000 - firstIndexS;
    phases.stop();
    const { index: during, graph: duringGraph } = samples;
    log(`desktop: first index ${round(firstIndexS, 1)} s (${during.search.length} searches, p95 ${round(percentile(during.search, 95), 1)} ms); graph ${round(firstGraphS, 1)} s (${duringGraph.search.length} searches, p95 ${round(percentile(duringGraph.search, 95), 1)} ms)`);
    await serve.stop();

    // 2. Cold start on the indexed workspace.
    let interactiveMs: number | null = null;
    let firstPaintMs: number | null = null;
    let firstResultMs: number | null = null;
    const browser = chromiumPath ? await launchChromium() : null;
    const started = performance.now();
    serve = await startServe(ws.workspace, ws.dataDir);
    const listeningMs = serve.startupMs;
    if (browser) {
      const page = await browser.context.newPage();
      await page.goto(serve.launchUrl);
      await page.waitForSelector('body[data-index-state="ready"]', { state: 'attached', timeout: 120_000 });
      await page.locator('[data-testid=search-input]').waitFor();
      interactiveMs = performance.now() - started;
      ({ firstPaintMs, firstResultMs } = await timeFirstPaint(browser.context, serve, queries[0]!));
      await browser.close();
    }
    await serve.stop();
    log(`desktop: serve cold start listening ${Math.round(listeningMs)} ms, interactive ${interactiveMs === null ? 'n/a (no Chromium)' : Math.round(interactiveMs) + ' ms'}`);
    if (firstPaintMs !== null) log(`desktop: ${files} notes, launch URL → first paint ${Math.round(firstPaintMs)} ms, → first result ${Math.round(firstResultMs ?? 0)} ms (target ≤ 1,500 ms first paint)`);

    return {
      desktop_files: files,
      desktop_rtt_errors: errors,
      desktop_rtt_samples_during_index: during.search.length,
      desktop_search_rtt_p50_ms_during_index: round(percentile(during.search, 50), 2),
      desktop_search_rtt_p95_ms_during_index: round(percentile(during.search, 95), 2),
      desktop_settings_rtt_p50_ms_during_index: round(percentile(during.settings, 50), 2),
      desktop_settings_rtt_p95_ms_during_index: round(percentile(during.settings, 95), 2),
      desktop_rtt_samples_during_graph: duringGraph.search.length,
      desktop_search_rtt_p95_ms_during_graph: round(percentile(duringGraph.search, 95), 2),
      desktop_settings_rtt_p95_ms_during_graph: round(percentile(duringGraph.settings, 95), 2),
      desktop_first_index_s: round(firstIndexS, 2),
      desktop_first_graph_s: round(firstGraphS, 2),
      desktop_serve_listening_ms: Math.round(listeningMs),
      desktop_serve_interactive_ms: interactiveMs === null ? null : Math.round(interactiveMs),
      desktop_first_paint_ms: firstPaintMs === null ? null : Math.round(firstPaintMs),
      desktop_first_result_ms: firstResultMs === null ? null : Math.round(firstResultMs),
    };
  } finally {
    removeTempWorkspace(ws);
  }
}

/** A new tab on the running host: launch URL → search box painted, then → the first result of `query`. */
async function timeFirstPaint(context: BrowserContext, serve: RunningServe, query: string): Promise<{ firstPaintMs: number; firstResultMs: number }> {
  const page = await context.newPage();
  const opened = performance.now();
  await page.goto(serve.launchUrl);
  await page.locator('[data-testid=search-input]').waitFor({ timeout: 120_000 });
  const firstPaintMs = performance.now() - opened;
  await page.waitForSelector('body[data-index-state="ready"]', { state: 'attached', timeout: 120_000 });
  await page.fill('[data-testid=search-input]', query);
  await page.locator('[data-testid=search-result]').first().waitFor({ timeout: 120_000 });
  const firstResultMs = performance.now() - opened;
  await page.close();
  return { firstPaintMs, firstResultMs };
}
