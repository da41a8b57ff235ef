import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { ARTIFACTS_DIR } from './paths.js';

const CANDIDATES = ['/usr/lib/chromium/chromium', '/usr/bin/chromium'];

/** Debian's Chromium (the real binary, not the wrapper script, when both exist), or null. */
export const chromiumPath: string | null = CANDIDATES.find((p) => fs.existsSync(p)) ?? null;

if (!chromiumPath) {
  // On CI a missing browser must fail the run: a skipped suite would pass without testing the window.
  if (process.env.CI === 'true') throw new Error(`e2e: CI=true but there is no Chromium at ${CANDIDATES.join(' or ')} (apt-get install -y chromium).`);
  console.warn(`e2e: skipping browser tests: no Chromium at ${CANDIDATES.join(' or ')} (apt-get install -y chromium).`);
}

export interface LaunchedBrowser {
  /** One persistent context on a fresh temporary profile; each test opens its own page (tab). */
  context: BrowserContext;
  close(): Promise<void>;
}

export async function launchChromium(): Promise<LaunchedBrowser> {
  if (!chromiumPath) throw new Error('Chromium is not installed.');
  // A fresh profile per test file (Playwright passes it to Chromium as --user-data-dir).
  const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'reverie-e2e-chromium-'));
  const options = {
    executablePath: chromiumPath,
    viewport: { width: 1280, height: 800 },
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
    ],
  };
  const context = await chromium.launchPersistentContext(userDataDir, options).catch((error: unknown) => {
    fs.rmSync(userDataDir, { recursive: true, force: true });
    throw error;
  });
  return {
    context,
    close: async () => {
      await context.close();
      fs.rmSync(userDataDir, { recursive: true, force: true });
    },
  };
}

export interface AppPage {
  page: Page;
  /** Page errors and console errors (CSP violations show up here). */
  problems: string[];
  close(): Promise<void>;
}

/** A new tab (its own sessionStorage, so its own token), before navigation so callers can time `goto`. */
export async function newAppPage(context: BrowserContext): Promise<AppPage> {
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()}`);
  });
  return { page, problems, close: () => page.close() };
}

export async function waitForIndexReady(page: Page): Promise<void> {
  await page.waitForSelector('body[data-index-state="ready"]', { state: 'attached', timeout: 30_000 });
}

export async function saveScreenshot(page: Page, name: string): Promise<string> {
  fs.mkdirSync(ARTIFACTS_DIR, { recursive: true });
  const file = path.join(ARTIFACTS_DIR, `${name}.png`);
  await page.screenshot({ path: file });
  return file;
}
