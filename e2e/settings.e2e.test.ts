import { describe, expect, it } from 'vitest';
import { chromiumPath, newAppPage, saveScreenshot, waitForIndexReady } from './support/browser.js';
import { useServedApp } from './support/suite.js';

describe.skipIf(!chromiumPath)('Settings view', () => {
  const app = useServedApp();

  /** One API call over HTTP, as any client of `reverie serve` would make it. */
  async function call<T>(operation: string, input: unknown = {}): Promise<T> {
    const response = await fetch(`${app.serve.url}/api/${operation}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${app.serve.token}`, Origin: app.serve.url },
      body: JSON.stringify(input),
    });
    const body = (await response.json()) as { ok: boolean; result: T; error?: { message: string } };
    if (!body.ok) throw new Error(`${operation}: ${body.error?.message ?? response.status}`);
    return body.result;
  }

  it('saves the fusion mode, shows the embedding generation and models, and explains a result', async () => {
    const { page, problems, close } = await newAppPage(app.browser);
    // Refusals this test provokes (settings.set with a bad value) or tolerates (models.list while the
    // engine side is being wired). The browser logs each as a failed resource.
    const failedModelLists: number[] = [];
    const expectedFailures: number[] = [];
    page.on('response', (response) => {
      if (response.ok()) return;
      if (response.url().endsWith('/api/models.list')) failedModelLists.push(response.status());
      if (response.url().endsWith('/api/models.list') || response.url().endsWith('/api/settings.set')) expectedFailures.push(response.status());
    });
    await page.goto(app.serve.launchUrl);
    await waitForIndexReady(page);

    // 1. Settings is the last entry of the navigation, after Status.
    const navOrder = await page.locator('nav [data-testid^=nav-]').evaluateAll((items) => items.map((i) => i.getAttribute('data-testid')));
    expect(navOrder.slice(-2)).toEqual(['nav-status', 'nav-settings']);
    await page.click('[data-testid=nav-settings]');
    await page.locator('[data-testid=settings-view]').waitFor();
    expect(await page.getAttribute('[data-testid=nav-settings]', 'aria-current')).toBe('page');

    // 2. Fusion: weighted → RRF, saved through settings.set and visible to any client.
    const fusion = page.locator('[data-testid=fusion-select]');
    await fusion.waitFor();
    expect(await fusion.inputValue()).toBe('weighted');
    expect(await page.isDisabled('[data-testid=settings-save]')).toBe(true);
    await fusion.selectOption('rrf');
    const saved = page.waitForResponse((r) => r.url().endsWith('/api/settings.set'));
    await page.click('[data-testid=settings-save]');
    const saveResponse = await saved;
    expect(saveResponse.status()).toBe(200);
    expect(JSON.parse(saveResponse.request().postData() ?? '{}')).toEqual({ patch: { fusion: 'rrf' } });
    await page.locator('[data-testid=settings-saved]').waitFor();
    expect((await call<{ fusion: string }>('settings.get')).fusion).toBe('rrf');

    // 3. A refused value shows the engine's message on its field, and nothing is written.
    await page.fill('[data-testid=max-file-size]', '5000');
    await page.click('[data-testid=settings-save]');
    const fieldError = page.locator('[data-testid=field-error-maxFileSizeMB]');
    await fieldError.waitFor();
    expect(await fieldError.textContent()).toMatch(/1024/);
    expect(await page.getAttribute('[data-testid=max-file-size]', 'aria-invalid')).toBe('true');
    expect((await call<{ maxFileSizeMB: number }>('settings.get')).maxFileSizeMB).toBe(16);
    await page.click('[data-testid=settings-revert]');
    expect(await page.inputValue('[data-testid=max-file-size]')).toBe('16');
    expect(await fieldError.count()).toBe(0);

    // 4. The extra paths editor adds and removes rows.
    await page.click('[data-testid=add-extra-path]');
    await page.click('[data-testid=add-extra-path]');
    expect(await page.locator('[data-testid=extra-path-row]').count()).toBe(2);
    await page.locator('[data-testid=remove-extra-path]').first().click();
    expect(await page.locator('[data-testid=extra-path-row]').count()).toBe(1);
    await page.click('[data-testid=settings-revert]');
    expect(await page.locator('[data-testid=extra-path-row]').count()).toBe(0);

    // 5. Models: the active embedding generation from status.embedding.
    await page.locator('[data-testid=embedding-provider]').waitFor();
    expect(await page.textContent('[data-testid=embedding-provider]')).toMatch(/^hash/);
    const dims = Number(await page.textContent('[data-testid=embedding-dims]'));
    expect(dims).toBeGreaterThan(0);
    const backend = await page.getAttribute('[data-testid=vector-backend]', 'data-backend');
    expect(['sqlite-vec', 'scan']).toContain(backend);
    if (backend === 'scan') expect(await page.textContent('[data-testid=vector-backend-problem]')).not.toBe('');
    expect(await page.textContent('[data-testid=embedding-count]')).toMatch(/\d+ \/ \d+ chunks/);

    // Installed models: a (possibly empty) list, or the engine's error in this section only.
    const listed = page.locator('[data-testid=models-empty], [data-testid=model-group], [data-testid=models-error]').first();
    await listed.waitFor();
    const modelsError = page.locator('[data-testid=models-error]');
    if ((await modelsError.count()) > 0) {
      expect(await modelsError.textContent()).toMatch(/Could not list models: \S+/);
      console.info(`e2e: models.list is not available yet: ${await modelsError.textContent()}`);
    } else {
      expect(failedModelLists).toEqual([]);
    }
    expect(await page.getAttribute('[data-testid=pull-uri]', 'placeholder')).not.toBe('');
    // Tall enough to show both sections in one picture.
    await page.setViewportSize({ width: 1280, height: 1150 });
    await saveScreenshot(page, 'settings');
    await page.setViewportSize({ width: 1280, height: 800 });

    // 6. Search ranks with RRF now; "Why?" shows how a result scored, without opening it.
    await page.click('[data-testid=nav-search]');
    await page.fill('[data-testid=search-input]', 'Bartholomew heron');
    const first = page.locator('[data-testid=search-result]').first();
    await first.waitFor();
    expect(await first.getAttribute('data-path')).toBe('memory/2026-03-02.md');
    const badges = await first.locator('[data-testid=match-badge]').evaluateAll((items) => items.map((i) => i.getAttribute('data-match')));
    expect(badges.length).toBeGreaterThan(0);
    expect(badges.some((b) => b === 'keyword' || b === 'both')).toBe(true);

    const why = first.locator('[data-testid=why-button]');
    expect(await why.getAttribute('aria-label')).toMatch(/^Why this result\?/);
    expect(await why.getAttribute('aria-expanded')).toBe('false');
    await why.click();
    const breakdown = first.locator('[data-testid=score-breakdown]');
    await breakdown.waitFor();
    expect(await why.getAttribute('aria-expanded')).toBe('true');
    expect(await page.getAttribute('body', 'data-view')).toBe('search');
    const rows = await breakdown.locator('[data-testid=breakdown-row]').evaluateAll((items) =>
      items.map((i) => [i.getAttribute('data-row'), i.querySelector('th')?.textContent, i.querySelector('td')?.textContent]),
    );
    expect(rows.map((r) => r[0])).toEqual(['keyword', 'vector', 'fusion', 'passage', 'date', 'decay', 'importance', 'trigger', 'mmr', 'score']);
    expect(rows.find((r) => r[0] === 'fusion')?.[1]).toBe('Fused (RRF)');
    const finalScore = Number(rows.find((r) => r[0] === 'score')?.[2]);
    expect(finalScore).toBeGreaterThan(0);
    await saveScreenshot(page, 'search-why');

    await why.click();
    expect(await breakdown.count()).toBe(0);

    const unexpected = [...problems];
    for (const status of expectedFailures) {
      const i = unexpected.findIndex((p) => p.includes(`Failed to load resource: the server responded with a status of ${status}`));
      if (i >= 0) unexpected.splice(i, 1);
    }
    expect(unexpected).toEqual([]);
    await close();
  });

  it('saves the dreaming schedule and gates, and shows a refused gate on its field', async () => {
    type Dreaming = { schedule: string | null; minRecallCount: number; minScore: number } & Record<string, unknown>;
    const before = (await call<{ dreaming: Dreaming }>('settings.get')).dreaming;
    const { page, problems, close } = await newAppPage(app.browser);
    const refusedSaves: number[] = [];
    page.on('response', (response) => {
      if (!response.ok() && response.url().endsWith('/api/settings.set')) refusedSaves.push(response.status());
    });
    await page.goto(app.serve.launchUrl);
    await waitForIndexReady(page);
    await page.click('[data-testid=nav-settings]');
    const section = page.locator('#settings-dreaming[data-testid=settings-dreaming]');
    await page.locator('[data-testid=dreaming-form]').waitFor();
    expect(await section.locator('h2').textContent()).toBe('Dreaming');
    expect(await page.isDisabled('[data-testid=dreaming-save]')).toBe(true);

    // 1. The schedule to 04:30 and the recall gate to 2: only those keys travel, under `dreaming`.
    if (!(await page.isChecked('[data-testid=dreaming-schedule-enabled]'))) await page.check('[data-testid=dreaming-schedule-enabled]');
    await page.fill('[data-testid=dreaming-schedule-time]', '04:30');
    await page.fill('[data-testid=dreaming-minRecallCount]', '2');
    const saved = page.waitForResponse((r) => r.url().endsWith('/api/settings.set'));
    await page.click('[data-testid=dreaming-save]');
    const saveResponse = await saved;
    expect(saveResponse.status()).toBe(200);
    expect(JSON.parse(saveResponse.request().postData() ?? '{}')).toEqual({ patch: { dreaming: { schedule: '04:30', minRecallCount: 2 } } });
    await page.locator('[data-testid=dreaming-saved]').waitFor();
    const after = (await call<{ dreaming: Dreaming }>('settings.get')).dreaming;
    expect(after.schedule).toBe('04:30');
    expect(after.minRecallCount).toBe(2);
    expect(after).toEqual({ ...before, schedule: '04:30', minRecallCount: 2 });

    // 2. A minScore above 1 is refused: the engine's message on the field, nothing written.
    await page.fill('[data-testid=dreaming-minScore]', '2');
    await page.click('[data-testid=dreaming-save]');
    const fieldError = page.locator('[data-testid=dreaming-field-error-minScore]');
    await fieldError.waitFor();
    expect(await fieldError.textContent()).toMatch(/<=\s*1/);
    expect(await page.getAttribute('[data-testid=dreaming-minScore]', 'aria-invalid')).toBe('true');
    expect((await call<{ dreaming: Dreaming }>('settings.get')).dreaming).toEqual(after);
    expect(refusedSaves).toHaveLength(1);
    await page.click('[data-testid=dreaming-revert]');
    expect(await page.inputValue('[data-testid=dreaming-minScore]')).toBe(String(before.minScore));
    expect(await fieldError.count()).toBe(0);
    expect(await page.isDisabled('[data-testid=dreaming-save]')).toBe(true);
    await section.scrollIntoViewIfNeeded();
    await saveScreenshot(page, 'settings-dreaming');

    // 3. The Status view's Dreaming card shows the new schedule.
    await page.click('[data-testid=nav-status]');
    const next = page.locator('[data-testid=dreaming-next-run]');
    await next.waitFor();
    expect(await next.textContent()).toContain('daily at 04:30');
    expect(await page.textContent('[data-testid=dreaming-recall-signals]')).toMatch(/^\d[\d,]*$/);

    // Put the schedule back so the other tests see the defaults.
    await call('settings.set', { patch: { dreaming: { schedule: before.schedule, minRecallCount: before.minRecallCount } } });
    const unexpected = [...problems];
    for (const status of refusedSaves) {
      const i = unexpected.findIndex((p) => p.includes(`Failed to load resource: the server responded with a status of ${status}`));
      if (i >= 0) unexpected.splice(i, 1);
    }
    expect(unexpected).toEqual([]);
    await close();
  });

  it('keeps working when models.list fails, and shows the error in the Models section', async () => {
    const { page, problems, close } = await newAppPage(app.browser);
    // Whatever the engine can do today, answer models.list with a refusal like an unwired engine.
    await page.route('**/api/models.list', (route) =>
      route.fulfill({ status: 500, json: { ok: false, error: { code: 'internal', message: 'Model management is not wired yet.' } } }),
    );
    await page.goto(app.serve.launchUrl);
    await waitForIndexReady(page);
    await page.click('[data-testid=nav-settings]');

    const modelsError = page.locator('[data-testid=models-error]');
    await modelsError.waitFor();
    expect(await modelsError.textContent()).toContain('Could not list models: Model management is not wired yet.');
    // The rest of the view still works: the embedding generation and the search settings.
    await page.locator('[data-testid=embedding-provider]').waitFor();
    expect(await page.textContent('[data-testid=embedding-provider]')).toMatch(/^hash/);
    await page.locator('[data-testid=fusion-select]').waitFor();
    await page.selectOption('[data-testid=fusion-select]', 'weighted');
    expect(await page.isDisabled('[data-testid=pull-button]')).toBe(false);

    expect(problems.filter((p) => !p.includes('the server responded with a status of 500'))).toEqual([]);
    await close();
  });
});
