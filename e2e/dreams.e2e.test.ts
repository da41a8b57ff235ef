import fs from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { chromiumPath, newAppPage, saveScreenshot, waitForIndexReady } from './support/browser.js';
import { useServedApp } from './support/suite.js';

/** Daily notes from the last few days: what the searches below keep recalling. */
const STAGING_NOTE = 'memory/2026-11-28.md';
/** Its long #tags make a wide Signals cell: the candidates table must still show Gates and Outcome whole. */
const STAGING_LINE = 'The staging database is ledgerd-staging on port 5433. #infrastructure/database-failover-runbooks #observability/replication-lag-alerts';
const NOTES: Record<string, string[]> = {
  [STAGING_NOTE]: ['# 2026-11-28', '', `- ${STAGING_LINE}`, '- Lunch with Priya about the ledgerd migration plan.', ''],
  'memory/2026-11-29.md': ['# 2026-11-29', '', '- The nightly backup of ledgerd runs at 02:30 UTC and keeps seven days.', ''],
};
/** Different queries, so the staging line is recalled by several searches (recall count, unique queries). */
const STAGING_QUERIES = ['staging database port', 'ledgerd-staging', 'which port is the staging database on', 'port 5433', 'ledgerd staging database'];

/** Written later, for a second promotion that is rolled back. */
const VPN_NOTE = 'memory/2026-11-30.md';
const VPN_LINE = 'The lab VPN gateway is vpn-lab.quillfeather.net on UDP 51820.';
const VPN_QUERIES = ['lab vpn gateway', 'vpn-lab.quillfeather.net', 'wireguard port 51820 lab vpn'];

interface RunResult {
  id: string;
  status: string;
  dryRun: boolean;
  promoted: Array<{ candidateKey: string; lines: string[]; decision: string }>;
}

/** `#main`'s sideways overflow in px: more than 0 means the page scrolls horizontally. Runs in the page (e2e has no DOM types). */
const MAIN_OVERFLOW = '(() => { const main = document.querySelector("#main"); return main.scrollWidth - main.clientWidth; })()';

/**
 * At this window width the candidates table shows its Gates and Outcome columns whole, inside
 * the run card and the window, and the page does not scroll sideways.
 */
async function expectGatesAndOutcomeShown(page: Page, card: Locator, width: number): Promise<void> {
  await page.setViewportSize({ width, height: 900 });
  const table = card.locator('[data-testid=dream-candidates]');
  await table.waitFor();
  const cardBox = (await card.boundingBox())!;
  const right = Math.min(cardBox.x + cardBox.width, width) + 0.5;
  const row = table.locator('[data-testid=dream-candidate]').first();
  const cells: Array<[string, Locator]> = [
    ['the Gates header', table.locator('thead th', { hasText: /^Gates$/ })],
    ['the Outcome header', table.locator('thead th', { hasText: /^Outcome$/ })],
    ['a gate', row.locator('[data-testid=dream-gate]').first()],
    ['an outcome', row.locator('[data-testid=dream-candidate-outcome]')],
  ];
  for (const [what, cell] of cells) {
    expect(await cell.isVisible(), `${what} at ${width} px`).toBe(true);
    const box = (await cell.boundingBox())!;
    expect(box.width, `${what} at ${width} px has room`).toBeGreaterThan(10);
    expect(box.x, `${what} at ${width} px starts inside the card`).toBeGreaterThanOrEqual(cardBox.x);
    expect(box.x + box.width, `${what} at ${width} px ends inside the card and the window`).toBeLessThanOrEqual(right);
  }
  expect(await page.evaluate(MAIN_OVERFLOW), `no sideways scrolling at ${width} px`).toBeLessThanOrEqual(0);
}

describe.skipIf(!chromiumPath)('Dreams view', () => {
  const app = useServedApp();

  /** One API call over HTTP, as any client of `reverie serve` would make it. */
  async function call<T>(operation: string, input: unknown = {}): Promise<T> {
    const response = await fetch(`${app.serve.url}/api/${operation}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${app.serve.token}`, Origin: app.serve.url },
      body: JSON.stringify(input),
    });
    const body = (await response.json()) as { ok: boolean; result: T; error?: { code: string; message: string } };
    if (!body.ok) throw new Error(`${operation}: ${body.error?.code ?? response.status}: ${body.error?.message ?? ''}`);
    return body.result;
  }

  async function readWorkspaceFile(relative: string): Promise<string> {
    return (await call<{ text: string }>('files.read', { path: relative })).text;
  }

  function writeNote(relative: string, lines: string[]): void {
    fs.writeFileSync(path.join(app.workspace.root, ...relative.split('/')), lines.join('\n'), 'utf8');
  }

  /** Searches through the contract; each returns the staging or VPN note, so recall signals build up. */
  async function search(queries: readonly string[], expectedPath: string): Promise<void> {
    for (const query of queries) {
      const { results } = await call<{ results: Array<{ path: string }> }>('memory.search', { query, limit: 5 });
      expect(results.map((r) => r.path), `"${query}" should find ${expectedPath}`).toContain(expectedPath);
    }
  }

  /** Clicks a button that calls `dream.run` and returns the run from the engine's answer. */
  async function startRun(page: Page, testId: 'dream-now' | 'dream-dry-run'): Promise<RunResult> {
    const answered = page.waitForResponse((r) => r.url().endsWith('/api/dream.run'), { timeout: 60_000 });
    await page.click(`[data-testid=${testId}]`);
    const response = await answered;
    const body = (await response.json()) as { ok: boolean; result: RunResult; error?: unknown };
    expect(body.ok, `dream.run failed: ${JSON.stringify(body.error)}`).toBe(true);
    // The card of that run opens when the answer arrives.
    await page.locator(`[data-testid=dream-run-card][data-run-id="${body.result.id}"][data-state=ready]`).waitFor();
    return body.result;
  }

  it('dry-runs and dreams, shows the run card and diary, rejects a promotion and rolls a run back', async () => {
    for (const [relative, lines] of Object.entries(NOTES)) writeNote(relative, lines);
    await call('index.sync', { force: false });
    await search(STAGING_QUERIES, STAGING_NOTE);
    // Gates low enough for a handful of searches: every recalled entry of the notes passes.
    const settings = await call<{ dreaming: Record<string, unknown> }>('settings.get');
    await call('settings.set', {
      patch: { dreaming: { ...settings.dreaming, minScore: 0, minRecallCount: 1, minUniqueQueries: 1, maxPromotions: 10, reviewBeforeWriting: false } },
    });
    const memoryBefore = await readWorkspaceFile('MEMORY.md');
    expect(memoryBefore).not.toContain('ledgerd-staging');

    const { page, problems, close } = await newAppPage(app.browser);
    // Rollback and restore ask first (window.confirm); say yes.
    page.on('dialog', (dialog) => void dialog.accept());
    await page.goto(app.serve.launchUrl);
    await waitForIndexReady(page);

    // 1. Dreams sits in the navigation after Imports; the view loads its runs, schedule and diary.
    const navOrder = await page.locator('nav [data-testid^=nav-]').evaluateAll((items) => items.map((i) => i.getAttribute('data-testid')));
    expect(navOrder.indexOf('nav-dreams')).toBe(navOrder.indexOf('nav-imports') + 1);
    await page.click('[data-testid=nav-dreams]');
    await page.locator('[data-testid=dreams-view]').waitFor();
    expect(await page.getAttribute('body', 'data-view')).toBe('dreams');
    await page.locator('[data-testid=dream-schedule]').waitFor();
    await page.locator('[data-testid=dream-diary]').waitFor();

    // 2. A dry run: every candidate and gate is shown, nothing is written.
    const dry = await startRun(page, 'dream-dry-run');
    expect(dry.dryRun).toBe(true);
    const dryCard = page.locator(`[data-testid=dream-run-card][data-run-id="${dry.id}"]`);
    const dryCandidate = dryCard.locator('[data-testid=dream-candidate]', { hasText: 'ledgerd-staging' });
    await dryCandidate.waitFor();
    expect(await dryCandidate.locator('[data-testid=dream-gate]').count()).toBeGreaterThan(0);
    expect(await dryCandidate.locator('[data-testid=dream-evidence]').getAttribute('data-ref')).toMatch(/^memory\/2026-11-28\.md:3-3$/);
    expect(await dryCard.locator('[data-testid=dream-chart-bar]').count()).toBeGreaterThan(0);
    expect(await dryCard.locator('[data-testid=dream-chart-threshold]').count()).toBe(1);
    // The candidates' Gates and Outcome are never clipped; on a wide window the view uses the width.
    await expectGatesAndOutcomeShown(page, dryCard, 1280);
    await dryCandidate.scrollIntoViewIfNeeded();
    await saveScreenshot(page, 'dreams-candidates-1280');
    await expectGatesAndOutcomeShown(page, dryCard, 1920);
    expect((await page.locator('[data-testid=dreams-view]').boundingBox())!.width).toBeGreaterThan(1600);
    await saveScreenshot(page, 'dreams-candidates-1920');
    await page.setViewportSize({ width: 1280, height: 800 });
    // What it would write is shown as such, with no Approve / Reject.
    const wouldBe = dryCard.locator('[data-testid=dream-promotion]', { has: page.locator('[data-testid=dream-diff-add]', { hasText: 'ledgerd-staging' }) });
    await wouldBe.waitFor();
    expect(await wouldBe.locator('[data-testid=dream-promotion-decision]').textContent()).toBe('would be written');
    expect(await wouldBe.locator('[data-testid=dream-reject]').count()).toBe(0);
    await page.locator(`[data-testid=dream-run-row][data-run-id="${dry.id}"][data-dry-run=true]`).waitFor();
    expect(await readWorkspaceFile('MEMORY.md')).toBe(memoryBefore);

    // 3. Dream now: the staging line is promoted into MEMORY.md, shown as a `+` line.
    const run = await startRun(page, 'dream-now');
    expect(run.dryRun).toBe(false);
    expect(run.status).toBe('ok');
    const card = page.locator(`[data-testid=dream-run-card][data-run-id="${run.id}"]`);
    expect(await card.getAttribute('data-status')).toBe('ok');
    const promotion = card.locator('[data-testid=dream-promotion]', { has: page.locator('[data-testid=dream-diff-add]', { hasText: 'ledgerd-staging' }) });
    await promotion.waitFor();
    expect(await promotion.getAttribute('data-target')).toBe('MEMORY.md');
    expect(await promotion.getAttribute('data-decision')).toBe('auto');
    const added = await promotion.locator('[data-testid=dream-diff-add]').allTextContents();
    expect(added.some((line) => line.startsWith('+') && line.includes('ledgerd-staging on port 5433'))).toBe(true);
    expect(await readWorkspaceFile('MEMORY.md')).toContain('ledgerd-staging on port 5433');
    const row = page.locator(`[data-testid=dream-run-row][data-run-id="${run.id}"]`);
    expect(await row.getAttribute('data-status')).toBe('ok');
    expect(await row.getAttribute('data-dry-run')).toBe('false');

    // The diary's newest entry is this run's.
    const entry = page.locator(`[data-testid=dream-diary-entry][data-run-id="${run.id}"]`);
    await entry.waitFor();
    expect(await page.locator('[data-testid=dream-diary-entry]').first().getAttribute('data-run-id')).toBe(run.id);
    expect((await entry.locator('[data-testid=dream-diary-body]').textContent())?.trim().length).toBeGreaterThan(0);

    // Evidence: the candidate's lines open in the Provenance inspector.
    const candidate = card.locator('[data-testid=dream-candidate]', { hasText: 'ledgerd-staging' });
    await candidate.locator('[data-testid=dream-evidence]').click();
    const panel = page.locator('[data-testid=provenance-panel][data-state=ready]');
    await panel.waitFor();
    expect(await panel.getAttribute('data-ref')).toBe(`${STAGING_NOTE}:3-3`);
    expect(await panel.locator('[data-testid=provenance-text]').textContent()).toContain('ledgerd-staging');
    await page.click('[data-testid=provenance-close]');
    await page.locator('[data-testid=provenance-panel]').waitFor({ state: 'detached' });
    await saveScreenshot(page, 'dreams');

    // 4. Reject the promotion: a toast offers Undo, and Undo leaves everything as it was.
    const held = page.locator('[data-testid=held-action]');
    await promotion.locator('[data-testid=dream-reject]').click();
    await held.waitFor();
    expect(await held.textContent()).toContain('Rejected “');
    await held.locator('[data-testid=held-undo]').click();
    await held.waitFor({ state: 'detached' });
    expect(await readWorkspaceFile('MEMORY.md')).toContain('ledgerd-staging');
    expect(await promotion.getAttribute('data-decision')).not.toBe('rejected');
    // Rejected for real (× does it without waiting): marked rejected, and the line leaves MEMORY.md.
    await promotion.locator('[data-testid=dream-reject]').click();
    await held.locator('[data-testid=held-now]').click();
    await card.locator('[data-testid=dream-promotion][data-decision=rejected]', { hasText: 'ledgerd-staging' }).waitFor();
    expect(await readWorkspaceFile('MEMORY.md')).not.toContain('ledgerd-staging');

    // 5. The write saved a pre-image of MEMORY.md.
    await page.locator('[data-testid=dream-preimage][data-file="MEMORY.md"]').first().waitFor();

    // 6. A second run promotes a new note; rolling it back removes its line again.
    writeNote(VPN_NOTE, ['# 2026-11-30', '', `- ${VPN_LINE}`, '']);
    await call('index.sync', { force: false });
    await search(VPN_QUERIES, VPN_NOTE);
    const second = await startRun(page, 'dream-now');
    expect(second.status).toBe('ok');
    const secondCard = page.locator(`[data-testid=dream-run-card][data-run-id="${second.id}"]`);
    await secondCard.locator('[data-testid=dream-diff-add]', { hasText: 'vpn-lab.quillfeather.net' }).waitFor();
    expect(await readWorkspaceFile('MEMORY.md')).toContain('vpn-lab.quillfeather.net');
    const secondRow = page.locator(`[data-testid=dream-run-row][data-run-id="${second.id}"]`);
    await secondRow.locator('[data-testid=dream-rollback]').click();
    // Asked first (a whole run), then held for Undo until the toast goes by itself.
    await held.waitFor();
    expect(await readWorkspaceFile('MEMORY.md')).toContain('vpn-lab.quillfeather.net');
    await held.waitFor({ state: 'detached', timeout: 30_000 });
    await page.locator(`[data-testid=dream-run-row][data-run-id="${second.id}"][data-rolled-back=true]`).waitFor();
    await secondCard.locator('[data-testid=dream-run-rolled-back]').waitFor();
    expect(await readWorkspaceFile('MEMORY.md')).not.toContain('vpn-lab.quillfeather.net');
    // Nothing to undo twice: the rolled-back run offers no rollback.
    expect(await secondRow.locator('[data-testid=dream-rollback]').count()).toBe(0);
    await saveScreenshot(page, 'dreams-rollback');

    // 7. Restore MEMORY.md from its oldest pre-image (saved before the first run): back to where it started.
    const more = page.locator('[data-testid=dream-preimages-more]');
    if ((await more.count()) > 0) await more.click();
    const memoryPreImages = page.locator('[data-testid=dream-preimage][data-file="MEMORY.md"]');
    const countBefore = await memoryPreImages.count();
    const oldest = memoryPreImages.last();
    expect(await oldest.getAttribute('data-run-id')).toBe(run.id);
    const restored = page.waitForResponse((r) => r.url().endsWith('/api/dream.restore'));
    await oldest.locator('[data-testid=dream-restore]').click();
    expect((await restored).status()).toBe(200);
    expect(await readWorkspaceFile('MEMORY.md')).toBe(memoryBefore);
    // The content it replaced is kept as a new pre-image.
    await memoryPreImages.nth(countBefore).waitFor();

    expect(problems).toEqual([]);
    await close();
  });
});
