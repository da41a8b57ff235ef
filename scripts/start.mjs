#!/usr/bin/env node
// `npm start`: the desktop app when an Electron binary is installed; otherwise the same UI in
// the browser through `reverie serve --open` (this machine may be unable to download Electron).
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { browserFallbackLine, planStart, prepareElectronSqlite } from './electronNative.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const build = spawnSync(process.execPath, [path.join(root, 'scripts', 'build.mjs'), '--if-stale'], { stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);

function electronBinary() {
  if (process.env.ELECTRON_OVERRIDE_DIST_PATH) {
    const candidate = path.join(process.env.ELECTRON_OVERRIDE_DIST_PATH, process.platform === 'win32' ? 'electron.exe' : 'electron');
    return fs.existsSync(candidate) ? candidate : null;
  }
  const pkg = path.join(root, 'node_modules', 'electron');
  try {
    const relative = fs.readFileSync(path.join(pkg, 'path.txt'), 'utf8').trim();
    const binary = path.join(pkg, 'dist', relative);
    return fs.existsSync(binary) ? binary : null;
  } catch {
    return null;
  }
}

/** The version of that Electron: ELECTRON_VERSION (with an override), its dist's `version` file, or the npm package's. */
function electronVersion() {
  const override = process.env.ELECTRON_OVERRIDE_DIST_PATH;
  if (override && process.env.ELECTRON_VERSION) return process.env.ELECTRON_VERSION.replace(/^v/, '');
  try {
    const stated = fs.readFileSync(path.join(override || path.join(root, 'node_modules', 'electron', 'dist'), 'version'), 'utf8').trim();
    if (/^\d+\.\d+\.\d+/.test(stated)) return stated.replace(/^v/, '');
  } catch {}
  try {
    return JSON.parse(fs.readFileSync(path.join(root, 'node_modules', 'electron', 'package.json'), 'utf8')).version;
  } catch {
    return null;
  }
}

const extraArgs = process.argv.slice(2);
const binary = electronBinary();
const plan = await planStart({
  binary,
  // better-sqlite3 as installed is built for Node's ABI; Electron gets its own build, made once.
  prepare: async () => {
    const version = electronVersion();
    if (!version) throw new Error('Could not tell which Electron version is installed (set ELECTRON_VERSION with ELECTRON_OVERRIDE_DIST_PATH)');
    return prepareElectronSqlite({ root, electronVersion: version, platform: process.platform, arch: process.arch, log: (line) => console.error(line) });
  },
});
const child =
  plan.kind === 'electron'
    ? spawn(binary, [root, ...extraArgs], { stdio: 'inherit', env: { ...process.env, ...plan.env } })
    : (console.error(browserFallbackLine(plan.reason)),
      spawn(process.execPath, [path.join(root, 'bin', 'reverie.js'), 'serve', '--open', ...extraArgs], { stdio: 'inherit' }));
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code) => process.exit(code ?? 0));
