import fs from 'node:fs';
import path from 'node:path';
import { _electron, type ElectronApplication, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findElectronBinary, installedElectronVersion, prepareElectronSqlite } from '../scripts/electronNative.mjs';
import { chromiumPath, newAppPage, waitForIndexReady } from './support/browser.js';
import { ensureRendererBuilt } from './support/build.js';
import { REPO_ROOT } from './support/paths.js';
import { useServedApp } from './support/suite.js';
import { createFixtureWorkspace, type FixtureWorkspace } from './support/workspace.js';

const electronBinary = findElectronBinary(REPO_ROOT);
if (!electronBinary) {
  console.warn('e2e: skipping Electron tests: no Electron binary (set ELECTRON_OVERRIDE_DIST_PATH or let the electron package download it); the same flows run in Chromium against `reverie serve` below.');
}

/** What the page can reach: exactly `window.reverie` {call, on}, and no Node. */
async function pageReach(page: Page): Promise<{ reverieKeys: string[] | null; require: string; process: string; module: string }> {
  return page.evaluate(() => ({
    reverieKeys: (globalThis as { reverie?: object }).reverie ? Object.keys((globalThis as { reverie?: object }).reverie!).sort() : null,
    require: typeof (globalThis as { require?: unknown }).require,
    process: typeof (globalThis as { process?: unknown }).process,
    module: typeof (globalThis as { module?: unknown }).module,
  }));
}

describe.skipIf(!electronBinary)('desktop app (Electron)', () => {
  let workspace: FixtureWorkspace;
  let app: ElectronApplication;
  let page: Page;

  beforeAll(async () => {
    ensureRendererBuilt();
    workspace = createFixtureWorkspace();
    const version = installedElectronVersion(REPO_ROOT);
    if (!version) throw new Error('Cannot tell the Electron version: set ELECTRON_VERSION with ELECTRON_OVERRIDE_DIST_PATH.');
    const binding = await prepareElectronSqlite({ root: REPO_ROOT, electronVersion: version });
    const started = performance.now();
    app = await _electron.launch({
      executablePath: electronBinary!,
      args: [REPO_ROOT],
      env: { ...process.env, REVERIE_DATA_DIR: workspace.dataDir, REVERIE_WORKSPACE: workspace.root, REVERIE_SQLITE_NATIVE_BINDING: binding, HOME: path.join(workspace.dataDir, 'home') } as Record<string, string>,
    });
    page = await app.firstWindow();
    await waitForIndexReady(page);
    console.info(`e2e: Electron cold start → interactive window with an indexed workspace ${Math.round(performance.now() - started)} ms`);
  }, 900_000); // the first run compiles better-sqlite3 for Electron (minutes, once)

  afterAll(async () => {
    await app?.close().catch(() => undefined);
    workspace?.remove();
  });

  // The window options themselves are asserted in electron/test/desktopApp.test.ts; here, their effect.
  it('runs with the security settings: CSP header, one bridge global, no Node in the page', async () => {
    const csp = await page.evaluate(() => fetch((globalThis as unknown as { location: { href: string } }).location.href).then((r) => r.headers.get('content-security-policy')));
    expect(csp).toContain("script-src 'self'");
    expect(await pageReach(page)).toEqual({ reverieKeys: ['call', 'on'], require: 'undefined', process: 'undefined', module: 'undefined' });
    // The bridge refuses what the contract does not name.
    expect(await page.evaluate(() => (globalThis as unknown as { reverie: { call(n: string, i: unknown): Promise<unknown> } }).reverie.call('shell.exec', {}))).toMatchObject({ ok: false, error: { code: 'not-found' } });
  });

  it('searches', async () => {
    await page.fill('[data-testid=search-input]', 'Bartholomew heron');
    const first = page.locator('[data-testid=search-result]').first();
    await first.waitFor();
    expect(await first.getAttribute('data-path')).toBe('memory/2026-03-02.md');
  });

  it('dreams now from the menu', async () => {
    await app.evaluate(({ Menu }) => {
      const file = Menu.getApplicationMenu()!.items.find((i) => i.label === 'File')!;
      file.submenu!.items.find((i) => i.label === 'Dream Now')!.click();
    });
    await page.locator('[data-testid=dreams-view]').waitFor();
    await page.locator('[data-testid=dream-run-card][data-state=ready]').first().waitFor({ timeout: 60_000 });
  });

  it('quits gracefully: the engine releases the workspace', async () => {
    const locks = path.join(workspace.dataDir, 'locks');
    expect(fs.readdirSync(locks).filter((f) => f.endsWith('.lock'))).toHaveLength(1);
    await app.close();
    expect(fs.readdirSync(locks).filter((f) => f.endsWith('.lock'))).toEqual([]);
  });
});

describe.skipIf(!chromiumPath)('the same window in Chromium against reverie serve', () => {
  const served = useServedApp();

  it('serves the CSP header and gives the page no Node and no bridge', async () => {
    const { page, problems, close } = await newAppPage(served.browser);
    const response = await page.goto(served.serve.launchUrl);
    expect(response?.headers()['content-security-policy']).toMatch(/script-src 'self'/);
    expect(response?.headers()['content-security-policy']).not.toMatch(/unsafe-(eval|inline)/);
    await waitForIndexReady(page);
    expect(await pageReach(page)).toEqual({ reverieKeys: null, require: 'undefined', process: 'undefined', module: 'undefined' });
    expect(problems).toEqual([]);
    await close();
  });
});
