import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { chromiumPath, newAppPage, saveScreenshot, waitForIndexReady } from './support/browser.js';
import { useServedApp } from './support/suite.js';
import { NON_UTF8_NOTE } from './support/workspace.js';

describe.skipIf(!chromiumPath)('Status view', () => {
  const app = useServedApp();

  it('shows coverage, with the non-UTF-8 note skipped and the reason', async () => {
    const { page, problems, close } = await newAppPage(app.browser);
    await page.goto(app.serve.launchUrl);
    await waitForIndexReady(page);

    await page.click('[data-testid=nav-status]');
    const skippedRow = page.locator(`[data-testid=coverage-row][data-path="${NON_UTF8_NOTE}"]`);
    await skippedRow.waitFor();
    expect(await skippedRow.getAttribute('data-status')).toBe('skipped');
    expect(await skippedRow.locator('[data-testid=coverage-reason]').textContent()).toContain('not UTF-8');

    expect(await page.textContent('[data-testid=count-files]')).toBe('6');
    expect(await page.textContent('[data-testid=count-indexed]')).toBe('5');
    expect(await page.textContent('[data-testid=count-skipped]')).toBe('1');
    expect(await page.textContent('[data-testid=count-failed]')).toBe('0');
    expect(await page.textContent('[data-testid=workspace-path]')).toContain(fs.realpathSync(app.workspace.root));
    expect(await page.textContent('[data-testid=data-dir]')).toContain(app.workspace.dataDir);
    expect(await page.textContent('[data-testid=host]')).toContain(app.serve.url);
    expect(await page.locator('[data-testid=coverage-row]').count()).toBe(6);
    await saveScreenshot(page, 'status');

    // On a wide window the coverage table uses the width (no ~1000 px cap), without sideways scrolling.
    await page.setViewportSize({ width: 1920, height: 900 });
    expect((await page.locator('[data-testid=coverage-table]').boundingBox())!.width).toBeGreaterThan(1500);
    expect(await page.evaluate('(() => { const main = document.querySelector("#main"); return main.scrollWidth - main.clientWidth; })()')).toBeLessThanOrEqual(0);
    await page.setViewportSize({ width: 1280, height: 800 });

    // The filter leaves only files that are not indexed.
    await page.check('[data-testid=filter-problems]');
    expect(await page.locator('[data-testid=coverage-row]').count()).toBe(1);
    expect(await page.locator('[data-testid=coverage-row]').getAttribute('data-path')).toBe(NON_UTF8_NOTE);

    // Re-index runs index.sync and the app returns to ready.
    const synced = page.waitForResponse((r) => r.url().endsWith('/api/index.sync'));
    await page.click('[data-testid=reindex-button]');
    expect((await synced).status()).toBe(200);
    await page.waitForSelector('[data-testid=reindex-button]:not([disabled])');
    await waitForIndexReady(page);
    expect(await page.textContent('[data-testid=count-skipped]')).toBe('1');

    // The Memory tree shows the same status, with the reason visible.
    await page.click('[data-testid=nav-memory]');
    const treeItem = page.locator(`[data-testid=file-item][data-path="${NON_UTF8_NOTE}"]`);
    await treeItem.waitFor();
    expect(await treeItem.getAttribute('data-status')).toBe('skipped');
    expect(await treeItem.getAttribute('title')).toContain('not UTF-8');
    expect(await page.locator('li', { has: treeItem }).locator('[data-testid=file-reason]').textContent()).toContain('not UTF-8');

    expect(problems).toEqual([]);
    await close();
  });
});
