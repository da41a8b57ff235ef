import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { RENDERER_INDEX, REPO_ROOT } from './paths.js';

/**
 * `reverie serve` serves the built UI from out/renderer. `npm test` builds first; when the
 * tests run on their own and it is missing, build it here.
 */
export function ensureRendererBuilt(): void {
  if (fs.existsSync(RENDERER_INDEX)) return;
  console.info('e2e: out/renderer is missing; running `node scripts/build.mjs`…');
  const full = spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: REPO_ROOT, stdio: 'inherit' });
  if (fs.existsSync(RENDERER_INDEX)) return;
  // The full build also compiles the engine and the Electron shell; the UI alone is enough here.
  console.info(`e2e: scripts/build.mjs exited with ${full.status}; building only the renderer…`);
  const vite = path.join(REPO_ROOT, 'node_modules', 'vite', 'bin', 'vite.js');
  const ui = spawnSync(process.execPath, [vite, 'build', '--config', 'renderer/vite.config.ts', '--logLevel', 'warn'], {
    cwd: REPO_ROOT,
    stdio: 'inherit',
  });
  if (!fs.existsSync(RENDERER_INDEX)) throw new Error(`Could not build the renderer (vite exited with ${ui.status}).`);
}
