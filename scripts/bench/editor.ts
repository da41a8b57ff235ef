/**
 * The notes editor's figures (issue 22): the file tree's filter over 10,000 invented file names
 * (the tree's own code, in Node: the window then draws only the ~40 rows in view), and keystroke
 * latency in the CodeMirror editor on a 1 MB note in headless Chromium through `reverie serve`
 * (keydown → the next frame after the change, so it includes waiting for that frame).
 */
import fs from 'node:fs';
import path from 'node:path';
import { chromiumPath, launchChromium } from '../../e2e/support/browser.js';
import { startServe } from '../../e2e/support/server.js';
import { buildFileTree, visibleRows } from '../../renderer/src/views/memory/fileTree.js';
import type { FileCoverage } from '../../core/src/contract/index.js';
import { makeTempWorkspace, removeTempWorkspace } from './engine.js';
import { Rng } from './prng.js';
import { log, percentile, round } from './stats.js';

export interface EditorFigures {
  editor_tree_files: number;
  /** One filter keystroke: rebuild nothing, walk the tree for the visible rows (p50/p95 over typed prefixes). */
  editor_tree_filter_p50_ms: number;
  editor_tree_filter_p95_ms: number;
  editor_note_bytes: number;
  editor_keystrokes: number;
  /** keydown → the first animation frame after CodeMirror applied the key (null without Chromium). */
  editor_keystroke_p50_ms: number | null;
  editor_keystroke_p95_ms: number | null;
  /** The page's main-thread CPU time per keystroke (Chromium's ThreadTime): unlike the latency, load does not inflate it. */
  editor_keystroke_cpu_ms: number | null;
}

interface KeystrokeRun {
  latencies: number[];
  /** Main-thread CPU ms spent per keystroke while typing (includes the 30 ms pauses' idle work, which is ~0). */
  cpuMsPerKeystroke: number;
}

const WORDS = ['tax', 'garden', 'lisbon', 'backup', 'quill', 'pantry', 'deploy', 'sprint', 'review', 'budget', 'trip', 'router'];

function inventedFiles(count: number, rng: Rng): FileCoverage[] {
  const files: FileCoverage[] = [];
  for (let i = 0; i < count; i++) {
    const folder = i % 3 === 0 ? 'memory' : `memory/${WORDS[rng.int(WORDS.length)]}/${WORDS[rng.int(WORDS.length)]}`;
    const name = i % 2 === 0 ? `2026-${String((i % 12) + 1).padStart(2, '0')}-${String((i % 28) + 1).padStart(2, '0')}-${i}` : `${WORDS[i % WORDS.length]} notes ${i}`;
    files.push({ path: `${folder}/${name}.md`, source: 'memory', status: i % 97 === 0 ? 'skipped' : 'indexed', reason: null, size: 1000, mtimeMs: 0, chunks: 1 });
  }
  return files;
}

function treeFilterTimes(files: FileCoverage[]): number[] {
  const tree = buildFileTree(files);
  const times: number[] = [];
  for (let pass = 0; pass < 5; pass++) {
    for (const query of ['t', 'ta', 'tax', 'tax n', 'tax no', '2026-0', '2026-03', 'garden/tr', 'zzz', '']) {
      const t0 = performance.now();
      visibleRows(tree, new Set(), query);
      times.push(performance.now() - t0);
    }
  }
  return times;
}

async function keystrokeTimes(noteBytes: number, keystrokes: number): Promise<KeystrokeRun | null> {
  if (!chromiumPath) return null;
  const ws = makeTempWorkspace('editor');
  const line = '- Met Dana about the tax module; the Quillfeather plan moves to Friday.\n';
  fs.writeFileSync(path.join(ws.workspace, 'memory', 'big.md'), '# Big\n\n' + line.repeat(Math.ceil(noteBytes / line.length)), 'utf8');
  const serve = await startServe(ws.workspace, ws.dataDir);
  const browser = await launchChromium();
  try {
    const page = await browser.context.newPage();
    await page.goto(serve.launchUrl);
    await page.waitForSelector('body[data-index-state="ready"]', { state: 'attached', timeout: 300_000 });
    await page.evaluate(() => {
      (globalThis as unknown as { location: { hash: string } }).location.hash = '#/memory/memory/big.md';
    });
    await page.click('[data-testid=edit-button]', { timeout: 120_000 });
    const editor = page.locator('[data-testid=editor]');
    await editor.waitFor({ timeout: 120_000 });
    await page.click('[data-testid=editor] .cm-line >> nth=3');
    // In the page: each keydown's timestamp, and the first frame after the change was drawn.
    await page.evaluate(() => {
      const w = globalThis as unknown as { __latencies: number[]; requestAnimationFrame(f: (t: number) => void): void; document: { addEventListener(t: string, f: (e: { timeStamp: number }) => void, c: boolean): void }; performance: { now(): number } };
      w.__latencies = [];
      w.document.addEventListener('keydown', (event) => {
        const start = event.timeStamp;
        w.requestAnimationFrame(() => w.__latencies.push(w.performance.now() - start));
      }, true);
    });
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Performance.enable');
    const threadSeconds = async (): Promise<number> => (await cdp.send('Performance.getMetrics')).metrics.find((m) => m.name === 'ThreadTime')?.value ?? 0;
    const cpuBefore = await threadSeconds();
    for (let i = 0; i < keystrokes; i++) {
      await page.keyboard.press(i % 10 === 9 ? 'Space' : 'KeyA');
      await page.waitForTimeout(30); // a fast typist, not a flood
    }
    await page.waitForTimeout(200);
    const cpuMsPerKeystroke = ((await threadSeconds()) - cpuBefore) * 1000 / keystrokes;
    const latencies = await page.evaluate(() => (globalThis as unknown as { __latencies: number[] }).__latencies);
    return { latencies, cpuMsPerKeystroke };
  } finally {
    await browser.close();
    await serve.stop();
    removeTempWorkspace(ws);
  }
}

export async function runEditorBench(quick: boolean): Promise<EditorFigures> {
  const files = inventedFiles(10_000, new Rng(22));
  const filter = treeFilterTimes(files);
  log(`editor: tree filter over ${files.length} files p50 ${round(percentile(filter, 50), 2)} ms, p95 ${round(percentile(filter, 95), 2)} ms`);
  const noteBytes = 1024 * 1024;
  const keystrokes = quick ? 40 : 120;
  const run = await keystrokeTimes(noteBytes, keystrokes);
  const latencies = run?.latencies ?? null;
  if (run && latencies) log(`editor: ${latencies.length} keystrokes on a 1 MB note, keydown → next frame p50 ${round(percentile(latencies, 50), 1)} ms, p95 ${round(percentile(latencies, 95), 1)} ms; main-thread CPU ${round(run.cpuMsPerKeystroke, 2)} ms per keystroke`);
  else log('editor: keystroke latency n/a (no Chromium)');
  return {
    editor_tree_files: files.length,
    editor_tree_filter_p50_ms: round(percentile(filter, 50), 2),
    editor_tree_filter_p95_ms: round(percentile(filter, 95), 2),
    editor_note_bytes: noteBytes,
    editor_keystrokes: latencies?.length ?? 0,
    editor_keystroke_p50_ms: latencies ? round(percentile(latencies, 50), 1) : null,
    editor_keystroke_p95_ms: latencies ? round(percentile(latencies, 95), 1) : null,
    editor_keystroke_cpu_ms: run ? round(run.cpuMsPerKeystroke, 2) : null,
  };
}
