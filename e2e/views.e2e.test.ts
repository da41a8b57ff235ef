import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { chromiumPath, newAppPage, saveScreenshot, waitForIndexReady } from './support/browser.js';
import { useServedApp } from './support/suite.js';
import { auditView } from './support/viewAudit.js';

/**
 * Every view, filled with real content (a dream run, an import, an agent, a search), at the two
 * window sizes people use most: nothing reaches outside the window, no table column is cut off,
 * and no internal id, hash, process id or JSON is on screen. A screenshot of each is saved under
 * e2e/artifacts/ (view-NAME-WIDTH.png) for review.
 */

const SIZES = [
  { width: 1280, height: 800 },
  { width: 1920, height: 1080 },
] as const;

// `reverie serve` (spawned by useServedApp) finds other tools' memory in its HOME: a fake one with Claude Code and Hermes.
const fakeHome = fs.mkdtempSync(path.join(os.tmpdir(), 'reverie-e2e-views-home-'));
const TOOL_FILES: Record<string, string> = {
  '.claude/projects/-home-ada-src-quillfeather/memory/MEMORY.md': '# Quillfeather\n\n- [Stitching](stitching.md): the kettle stitch plan.\n',
  '.claude/projects/-home-ada-src-quillfeather/memory/stitching.md': '# Stitching\n\n- Kettle stitch every signature; linen thread, waxed.\n',
  // Its transcript names the project's folder, so the import names the collection after it (without one it keeps Claude's encoded name).
  '.claude/projects/-home-ada-src-quillfeather/5f1c2d3e.jsonl': `${JSON.stringify({ type: 'user', cwd: '/home/ada/src/quillfeather', message: { role: 'user', content: 'hello' } })}\n`,
  '.hermes/memories/MEMORY.md': 'Ada binds books with waxed linen thread from the Porto shop.\n§\nThe quince tree is pruned in late February.\n',
};
for (const [relative, text] of Object.entries(TOOL_FILES)) {
  const file = path.join(fakeHome, ...relative.split('/'));
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text, 'utf8');
}
process.env.HOME = fakeHome;
delete process.env.CODEX_HOME;
delete process.env.HERMES_HOME;

const NOTES: Record<string, string> = {
  'memory/2026-11-28.md': '# 2026-11-28\n\n- The staging database is ledgerd-staging on port 5433.\n- Lunch with Priya about the ledgerd migration plan.\n',
  'memory/2026-11-29.md': '# 2026-11-29\n\n- The nightly backup of ledgerd runs at 02:30 UTC and keeps seven days.\n- Priya owns the tax module in ledgerd.\n',
};
const QUERIES = ['staging database port', 'ledgerd-staging', 'which port is the staging database on', 'ledgerd staging database'];

/** One screen of the app: how to reach it and what shows it has loaded. */
interface Screen {
  name: string;
  open(page: Page): Promise<void>;
}

const nav = (view: string, ready: string) => async (page: Page) => {
  await page.click(`[data-testid=nav-${view}]`);
  await page.locator(ready).first().waitFor({ timeout: 20_000 });
};

const SCREENS: Screen[] = [
  {
    name: 'search',
    async open(page) {
      await page.click('[data-testid=nav-search]');
      await page.fill('[data-testid=search-input]', 'staging database port');
      await page.locator('[data-testid=search-result]').first().waitFor();
    },
  },
  {
    name: 'provenance',
    async open(page) {
      await page.click('[data-testid=nav-search]');
      await page.fill('[data-testid=search-input]', 'staging database port');
      await page.locator('[data-testid=search-result]').first().locator('[data-testid=where-from-button]').click();
      await page.locator('[data-testid=provenance-panel][data-state=ready]').waitFor();
    },
  },
  {
    name: 'memory',
    async open(page) {
      await page.click('[data-testid=nav-memory]');
      await page.locator('[data-testid=file-item][data-path="memory/2026-11-28.md"]').click();
      await page.locator('[data-testid=document][data-path="memory/2026-11-28.md"]').waitFor();
    },
  },
  { name: 'imports', open: nav('imports', '[data-testid=imports-view]') },
  {
    name: 'dreams',
    async open(page) {
      await nav('dreams', '[data-testid=dream-run-row]')(page);
      await page.locator('[data-testid=dream-run-row]').first().click();
      await page.locator('[data-testid=dream-run-card][data-state=ready]').waitFor();
    },
  },
  { name: 'graph', open: nav('graph', '[data-testid=graph-view]') },
  { name: 'agents', open: nav('agents', '[data-testid=agent-row]') },
  { name: 'status', open: nav('status', '[data-testid=coverage-row]') },
  { name: 'settings', open: nav('settings', '[data-testid=settings-view]') },
];

describe.skipIf(!chromiumPath)('Every view', () => {
  const app = useServedApp();

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

  /** Real content in every view: notes recalled by searches, a dream run that promoted them, an import, an agent. */
  async function fillWorkspace(): Promise<void> {
    for (const [relative, text] of Object.entries(NOTES)) fs.writeFileSync(app.workspace.file(relative), text, 'utf8');
    await call('index.sync', { force: false });
    for (const query of QUERIES) await call('memory.search', { query, limit: 5 });
    const settings = await call<{ dreaming: Record<string, unknown> }>('settings.get');
    await call('settings.set', {
      patch: { dreaming: { ...settings.dreaming, minScore: 0, minRecallCount: 1, minUniqueQueries: 1, maxPromotions: 10, reviewBeforeWriting: false } },
    });
    await call('dream.run', { dryRun: true });
    await call('dream.run', {});
    await call('import.apply', {});
    await call('agents.add', { name: 'claude-code', write: false });
  }

  it('fits the window, cuts off no column and shows no internal ids, at 1280×800 and 1920×1080', { timeout: 240_000 }, async () => {
    await fillWorkspace();
    const { page, problems, close } = await newAppPage(app.browser);
    await page.goto(app.serve.launchUrl);
    await waitForIndexReady(page);

    const failures: string[] = [];
    for (const size of SIZES) {
      await page.setViewportSize(size);
      for (const screen of SCREENS) {
        await screen.open(page);
        // Let late answers (counts, charts) settle before measuring.
        await page.waitForTimeout(400);
        const where = `${screen.name} at ${size.width}×${size.height}`;
        const audit = await auditView(page);
        for (const item of audit.overflowing) failures.push(`${where}: overflow: ${item}`);
        for (const item of audit.clippedColumns) failures.push(`${where}: clipped column: ${item}`);
        for (const item of audit.internalIds) failures.push(`${where}: internal text: ${item}`);
        await saveScreenshot(page, `view-${screen.name}-${size.width}`);
        if (screen.name === 'provenance') {
          await page.click('[data-testid=provenance-close]');
          await page.locator('[data-testid=provenance-panel]').waitFor({ state: 'detached' });
        }
      }
    }
    if (failures.length > 0) console.info(`e2e views: ${failures.length} problems\n${failures.join('\n')}`);
    expect(failures).toEqual([]);
    expect(problems).toEqual([]);
    await close();
  });
});
