#!/usr/bin/env node
// `npm start`: the desktop app when an Electron binary is installed; otherwise the same UI in
// the browser through `reverie serve --open` (this machine may be unable to download Electron).
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

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

const extraArgs = process.argv.slice(2);
const binary = electronBinary();
const child = binary
  ? spawn(binary, [root, ...extraArgs], { stdio: 'inherit' })
  : (console.error('Electron binary not installed (it cannot be downloaded here); opening the same UI in your browser with `reverie serve --open` instead.'),
    spawn(process.execPath, [path.join(root, 'bin', 'reverie.js'), 'serve', '--open', ...extraArgs], { stdio: 'inherit' }));
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code) => process.exit(code ?? 0));
