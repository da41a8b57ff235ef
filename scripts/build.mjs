#!/usr/bin/env node
// Builds everything the app runs from: the engine (out/core), the renderer (out/renderer)
// and the Electron shell (out/electron). Runs on `npm ci` (prepare) and before `serve`.
// With --if-stale it does nothing when the outputs are newer than every source file.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const ifStale = process.argv.includes('--if-stale');

function newestMtime(dir) {
  let newest = 0;
  const stack = [dir];
  while (stack.length) {
    const d = stack.pop();
    let entries;
    try {
      entries = fs.readdirSync(d, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const e of entries) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) {
        if (e.name !== 'node_modules' && !e.name.startsWith('.')) stack.push(p);
      } else newest = Math.max(newest, fs.statSync(p).mtimeMs);
    }
  }
  return newest;
}

const stamp = path.join(root, 'out', '.build-stamp');
if (ifStale && fs.existsSync(stamp)) {
  const built = fs.statSync(stamp).mtimeMs;
  const sources = Math.max(...['core/src', 'renderer', 'electron', 'resources'].map((d) => newestMtime(path.join(root, d))));
  if (sources < built) process.exit(0);
}

function run(label, args) {
  const started = Date.now();
  const result = spawnSync(process.execPath, args, { cwd: root, stdio: ['ignore', 'inherit', 'inherit'] });
  if (result.status !== 0) {
    console.error(`build: ${label} failed`);
    process.exit(result.status ?? 1);
  }
  console.error(`build: ${label} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
}

const tsc = path.join(root, 'node_modules', 'typescript', 'bin', 'tsc');
const vite = path.join(root, 'node_modules', 'vite', 'bin', 'vite.js');
fs.rmSync(path.join(root, 'out'), { recursive: true, force: true });
run('engine', [tsc, '-p', 'core/tsconfig.build.json']);
run('fast clients', [path.join(root, 'scripts', 'bundleFastClients.mjs')]);
run('command line bundle', [path.join(root, 'scripts', 'bundleEngineCli.mjs')]);
run('renderer', [vite, 'build', '--config', 'renderer/vite.config.ts', '--logLevel', 'warn']);
run('electron shell', [tsc, '-p', 'electron/tsconfig.build.json']);
run('electron preload', [vite, 'build', '--config', 'electron/preload/vite.config.ts', '--logLevel', 'warn']);
fs.writeFileSync(stamp, new Date().toISOString() + '\n');
