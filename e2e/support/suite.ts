import { afterAll, beforeAll } from 'vitest';
import type { BrowserContext } from 'playwright-core';
import { launchChromium, type LaunchedBrowser } from './browser.js';
import { ensureRendererBuilt } from './build.js';
import { startServe, type RunningServe } from './server.js';
import { createFixtureWorkspace, type FixtureWorkspace } from './workspace.js';

export interface ServedApp {
  readonly workspace: FixtureWorkspace;
  readonly serve: RunningServe;
  readonly browser: BrowserContext;
}

/**
 * Per test file: a fresh fixture workspace and data folder, `reverie serve` on it, and
 * (unless `withBrowser` is false) a Chromium. Everything is torn down in afterAll.
 */
export function useServedApp({ withBrowser = true } = {}): ServedApp {
  let workspace: FixtureWorkspace | undefined;
  let serve: RunningServe | undefined;
  let launched: LaunchedBrowser | undefined;

  beforeAll(async () => {
    if (withBrowser) ensureRendererBuilt();
    workspace = createFixtureWorkspace();
    serve = await startServe(workspace.root, workspace.dataDir);
    if (withBrowser) launched = await launchChromium();
  });

  afterAll(async () => {
    await launched?.close();
    await serve?.stop();
    workspace?.remove();
  });

  const missing = (what: string): never => {
    throw new Error(`${what} is not ready (beforeAll failed?)`);
  };
  return {
    get workspace() {
      return workspace ?? missing('The fixture workspace');
    },
    get serve() {
      return serve ?? missing('reverie serve');
    },
    get browser() {
      return launched?.context ?? missing('Chromium');
    },
  };
}
