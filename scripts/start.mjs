#!/usr/bin/env node
// `npm start`: the desktop app when an Electron binary is installed; otherwise the same UI in
// the browser through `reverie serve --open` (this machine may be unable to download Electron).
import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { browserFallbackLine, findElectronBinary, installedElectronVersion, planStart, prepareElectronSqlite } from './electronNative.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const build = spawnSync(process.execPath, [path.join(root, 'scripts', 'build.mjs'), '--if-stale'], { stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);

const extraArgs = process.argv.slice(2);
const binary = findElectronBinary(root);
const plan = await planStart({
  binary,
  // better-sqlite3 as installed is built for Node's ABI; Electron gets its own build, made once.
  prepare: async () => {
    const version = installedElectronVersion(root);
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
