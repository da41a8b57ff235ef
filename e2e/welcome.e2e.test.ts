import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { OperationOutput } from '../core/src/contract/index.js';
import { chromiumPath, newAppPage, saveScreenshot, waitForIndexReady } from './support/browser.js';
import { useServedApp } from './support/suite.js';

describe.skipIf(!chromiumPath)('First-run welcome and pausing the index', () => {
  const app = useServedApp();

  async function status(): Promise<OperationOutput<'status'>> {
    const response = await fetch(`${app.serve.url}/api/status`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${app.serve.token}` },
      body: '{}',
    });
    return ((await response.json()) as { result: OperationOutput<'status'> }).result;
  }

  it('welcomes a fresh data folder, creates a typed workspace folder, shows the restart command, and stays away after a reload', async () => {
    const { page, problems, close } = await newAppPage(app.browser);
    await page.goto(app.serve.launchUrl);
    await waitForIndexReady(page);

    // Fresh data folder: the welcome explains the workspace, and the rest of the app stays usable.
    const welcome = page.locator('[data-testid=welcome]');
    await welcome.waitFor();
    expect(await page.textContent('[data-testid=welcome-root]')).toBe(fs.realpathSync(app.workspace.root));
    expect(await welcome.textContent()).toContain('plain Markdown');
    await page.fill('[data-testid=search-input]', 'heron');
    await page.locator('[data-testid=search-result]').first().waitFor();

    // In a browser there is no folder picker: type the path of a folder that does not exist yet.
    const chosen = path.join(path.dirname(app.workspace.root), 'chosen workspace');
    await page.click('[data-testid=welcome-choose]');
    await page.fill('[data-testid=welcome-path-input]', chosen);
    await page.check('[data-testid=welcome-create]');
    await page.click('[data-testid=welcome-open-path]');

    const command = page.locator('[data-testid=welcome-restart-command-text]');
    await command.waitFor();
    const root = fs.realpathSync(chosen);
    expect(await command.textContent()).toBe(`reverie serve --workspace "${root}"`);
    expect(fs.statSync(root).isDirectory()).toBe(true);
    await saveScreenshot(page, 'welcome-restart');

    // The choice is remembered: the reloaded page asks workspace.info again and shows no welcome.
    await page.reload();
    await page.waitForSelector('body[data-welcome="hidden"]', { state: 'attached' });
    expect(await welcome.count()).toBe(0);

    expect(problems).toEqual([]);
    await close();
  });

  it('pauses and resumes indexing from the Status view; changes made while paused are indexed on resume', async () => {
    const { page, problems, close } = await newAppPage(app.browser);
    await page.goto(app.serve.launchUrl);
    await waitForIndexReady(page);
    await page.click('[data-testid=nav-status]');
    await page.locator('[data-testid=status-view]').waitFor();
    const filesBefore = Number(await page.textContent('[data-testid=count-files]'));

    const button = page.locator('[data-testid=pause-indexing-button]');
    expect(await button.textContent()).toBe('Pause indexing');
    await button.click();
    await page.waitForSelector('body[data-indexing-paused="true"]', { state: 'attached' });
    expect(await button.textContent()).toBe('Resume indexing');
    expect(await page.textContent('[data-testid=index-paused-badge]')).toBe('Indexing paused');
    await page.locator('[data-testid=indexing-paused-notice]').waitFor();
    expect((await status()).index.paused).toBe(true);
    await saveScreenshot(page, 'status-paused');

    fs.writeFileSync(app.workspace.file('memory/2026-03-12.md'), '# 2026-03-12\n\n- Written while indexing was paused.\n', 'utf8');

    await button.click();
    await page.waitForSelector('body[data-indexing-paused="false"]', { state: 'attached' });
    expect(await button.textContent()).toBe('Pause indexing');
    expect(await page.locator('[data-testid=index-paused-badge]').count()).toBe(0);
    expect((await status()).index.paused).toBe(false);
    await expect.poll(() => page.textContent('[data-testid=count-files]'), { timeout: 30_000 }).toBe(String(filesBefore + 1));

    expect(problems).toEqual([]);
    await close();
  });
});
