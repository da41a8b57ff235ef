import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { chromiumPath, newAppPage, saveScreenshot, waitForIndexReady } from './support/browser.js';
import { useServedApp } from './support/suite.js';

/** The page's globals read inside page.evaluate (the e2e project has no DOM types). */
interface PageGlobals {
  location: { hash: string };
  __reverieGraphStats?: { positionOf(id: string): { x: number; y: number } | null };
}

/** An invented host whose owner changes: the page lists both relations, the earlier one ended. */
const NOTES: Record<string, string> = {
  'memory/2026-10-01.md': '# 2026-10-01\n\n- Marco Bellini owns stg-01 until the reorg.\n',
  'memory/2026-10-20.md': '# 2026-10-20\n\n- Dana Okafor owns stg-01 now.\n- Dana rebooted stg-01 after the disk filled.\n',
};

describe.skipIf(!chromiumPath)('Entity page', () => {
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

  it('opens from the card at its own URL; a note link, Back and reload come back to it', async () => {
    for (const [file, text] of Object.entries(NOTES)) fs.writeFileSync(app.workspace.file(file), text, 'utf8');
    const { page, problems, close } = await newAppPage(app.browser);
    await page.goto(app.serve.launchUrl);
    await waitForIndexReady(page);
    await call('index.sync', { force: false });
    const { entities } = await call<{ entities: Array<{ id: string; label: string }> }>('graph.search', { text: 'stg-01' });
    const host = entities.find((e) => e.label === 'stg-01')!;
    expect(host).toBeDefined();
    const address = (): string => new URL(page.url()).hash;

    // The drawing, then the host's card by a click on it, then its page.
    await page.click('[data-testid=nav-graph]');
    await page.waitForFunction((id) => ((globalThis as unknown as PageGlobals).__reverieGraphStats?.positionOf(id) ? true : false), host.id, { timeout: 60_000 });
    const at = (await page.evaluate((id) => (globalThis as unknown as PageGlobals).__reverieGraphStats!.positionOf(id), host.id))!;
    await page.mouse.click(at.x, at.y);
    await page.locator(`[data-testid=graph-card][data-entity-id="${host.id}"]`).waitFor();
    await page.click('[data-testid=graph-card-open-page]');
    const ready = page.locator(`[data-testid=entity-page][data-entity-id="${host.id}"][data-state=ready]`);
    await ready.waitFor();
    expect(address()).toBe(`#/graph/entity/${encodeURIComponent(host.id)}`);

    // Relations over time: Marco's ownership ended the day Dana's began.
    const rows = page.locator('[data-testid=entity-relation]');
    await expect.poll(() => rows.count()).toBe(2);
    expect(await rows.nth(0).innerText()).toMatch(/2026-10-01 – 2026-10-20\s+Marco Bellini owns stg-01/);
    expect(await rows.nth(0).getAttribute('data-current')).toBe('false');
    expect(await rows.nth(1).innerText()).toMatch(/since 2026-10-20\s+Dana Okafor owns stg-01/);
    await saveScreenshot(page, 'graph-entity-page');

    // An evidence line is a link to the note at that line.
    const link = rows.nth(1).locator('[data-testid=entity-note-link]').first();
    expect(await link.innerText()).toBe('memory/2026-10-20.md:3');
    await link.click();
    await page.locator('[data-testid=document][data-path="memory/2026-10-20.md"] .src-line.is-hit').first().waitFor();
    expect(address()).toBe('#/memory/memory/2026-10-20.md?line=3');

    // Back: the page again; reload: still the page; Back again: the drawing with the card.
    await page.goBack();
    await ready.waitFor();
    await page.reload();
    await ready.waitFor();
    expect(address()).toBe(`#/graph/entity/${encodeURIComponent(host.id)}`);
    await page.click('[data-testid=entity-page-back]');
    await page.locator(`[data-testid=graph-card][data-entity-id="${host.id}"]`).waitFor();
    expect(address()).toBe(`#/graph/${encodeURIComponent(host.id)}`);

    expect(problems).toEqual([]);
    await close();
  }, 180_000);
});
