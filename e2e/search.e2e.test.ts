import fs from 'node:fs';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { chromiumPath, newAppPage, saveScreenshot, waitForIndexReady } from './support/browser.js';
import { useServedApp } from './support/suite.js';
import { LONG_NOTE, LONG_NOTE_WORD } from './support/workspace.js';

/**
 * Each result's shown score is at most the one above it, or the result says why it is lower in
 * the list (moved down for variety).
 */
async function expectScoresInOrder(page: Page): Promise<void> {
  const rows = await page.locator('[data-testid=search-result]').evaluateAll((items) =>
    items.map((item) => ({
      score: Number((item.querySelector('[data-testid=result-score]')?.textContent ?? '').replace(/^score /, '')),
      note: item.querySelector('[data-testid=result-rank-note]')?.textContent ?? null,
    })),
  );
  expect(rows.length).toBeGreaterThan(0);
  rows.forEach((row, i) => {
    expect(Number.isFinite(row.score), `result ${i + 1} shows a score`).toBe(true);
    const lowestAbove = Math.min(...rows.slice(0, i).map((r) => r.score));
    if (i > 0 && row.score > lowestAbove) expect(row.note, `result ${i + 1} (${row.score}) sits below ${lowestAbove}: it must say why`).toMatch(/^Shown below a lower score/);
    else expect(row.note).toBeNull();
  });
}

describe.skipIf(!chromiumPath)('Search view', () => {
  const app = useServedApp();

  // How fast is measured by `npm run bench -- --only desktop` (first paint, first result), never here.
  it('shows the first result after opening the launch URL, in the order of the scores shown', async () => {
    const { page, problems, close } = await newAppPage(app.browser);
    await page.goto(app.serve.launchUrl);
    await waitForIndexReady(page);
    await page.fill('[data-testid=search-input]', 'Bartholomew heron');
    const first = page.locator('[data-testid=search-result]').first();
    await first.waitFor();

    expect(await first.getAttribute('data-path')).toBe('memory/2026-03-02.md');
    expect(await first.locator('[data-testid=result-snippet] mark').first().textContent()).toMatch(/Bartholomew|heron/);
    await expectScoresInOrder(page);
    // The per-launch token must not linger in the address bar or history.
    expect(page.url()).not.toContain('token');

    await page.fill('[data-testid=search-input]', 'xylophonequartz');
    await page.locator('[data-testid=search-empty]').waitFor();
    expect(await page.locator('[data-testid=search-result]').count()).toBe(0);

    await page.fill('[data-testid=search-input]', 'Bartholomew heron');
    await first.waitFor();
    await saveScreenshot(page, 'search');
    expect(problems).toEqual([]);
    await close();
  });

  it('opens a result in the Memory view with the hit lines highlighted', async () => {
    const { page, problems, close } = await newAppPage(app.browser);
    await page.goto(app.serve.launchUrl);
    await waitForIndexReady(page);

    await page.fill('[data-testid=search-input]', LONG_NOTE_WORD);
    const result = page.locator('[data-testid=search-result]').first();
    await result.waitFor();
    expect(await result.locator('[data-testid=result-path]').textContent()).toBe(LONG_NOTE);
    const location = (await result.locator('[data-testid=result-location]').textContent()) ?? '';
    const match = /^(.+):(\d+)-(\d+)$/.exec(location);
    expect(match, `"${location}" should read path:start-end`).not.toBeNull();
    const [, path, start, end] = match!;
    const startLine = Number(start);
    const endLine = Number(end);
    expect(path).toBe(LONG_NOTE);

    // The cited range must contain the line with the word, which sits well below the top.
    const lines = fs.readFileSync(app.workspace.file(LONG_NOTE), 'utf8').split('\n');
    const wordLine = lines.findIndex((l) => l.includes(LONG_NOTE_WORD)) + 1;
    expect(wordLine).toBeGreaterThan(20);
    expect(startLine).toBeLessThanOrEqual(wordLine);
    expect(endLine).toBeGreaterThanOrEqual(wordLine);
    expect(startLine).toBeGreaterThan(1);

    await result.click();
    await page.locator(`[data-testid=document][data-path="${LONG_NOTE}"]`).waitFor();
    expect(await page.getAttribute('[data-testid=nav-memory]', 'aria-current')).toBe('page');
    const hitLines = page.locator('[data-testid=hit-line]');
    await hitLines.first().waitFor();
    expect(await hitLines.count()).toBe(endLine - startLine + 1);
    expect(await hitLines.first().getAttribute('data-line')).toBe(String(startLine));
    expect(await hitLines.last().getAttribute('data-line')).toBe(String(endLine));

    // The line with the word is highlighted and scrolled into view.
    const wordRow = page.locator(`.src-line[data-line="${wordLine}"]`);
    expect(await wordRow.getAttribute('class')).toContain('is-hit');
    expect(await wordRow.textContent()).toContain(LONG_NOTE_WORD);
    const box = await wordRow.boundingBox();
    expect(box).not.toBeNull();
    expect(box!.y).toBeGreaterThanOrEqual(0);
    expect(box!.y + box!.height).toBeLessThanOrEqual(800);
    await saveScreenshot(page, 'memory');

    // The rendered view marks the blocks that contain the hit.
    await page.click('[data-testid=mode-rendered]');
    await page.locator('[data-testid=rendered-view] .hit-block').first().waitFor();
    expect(await page.locator('[data-testid=rendered-view] .hit-block').allTextContents()).toEqual(
      expect.arrayContaining([expect.stringContaining(LONG_NOTE_WORD)]),
    );

    // Keyboard: back in Search, Enter opens the selected (first) result.
    await page.click('[data-testid=nav-search]');
    await page.locator('[data-testid=search-result]').first().waitFor();
    await page.focus('[data-testid=search-input]');
    await page.keyboard.press('Enter');
    await page.locator(`[data-testid=document][data-path="${LONG_NOTE}"] [data-testid=hit-line]`).first().waitFor();

    expect(problems).toEqual([]);
    await close();
  });
});
