#!/usr/bin/env node
// `npm run test:pack` (and npm test, after the build): packs the repository as `npm pack` would,
// installs the tarball globally into a temporary prefix without dev dependencies (from npm's
// cache when it holds everything: --offline; else --prefer-offline), and runs the installed
// `reverie`: --version, --help, per-command help and a hook with empty input. Install scripts are
// skipped (better-sqlite3 would compile for ~100 s), so commands that open SQLite are not run here.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const temp = fs.mkdtempSync(path.join(os.tmpdir(), 'reverie-pack-'));
const failures = [];
const check = (ok, what) => {
  console.error(`${ok ? 'ok  ' : 'FAIL'} ${what}`);
  if (!ok) failures.push(what);
};
const run = (command, args, options = {}) => spawnSync(command, args, { encoding: 'utf8', ...options });

try {
  if (!fs.existsSync(path.join(root, 'out', 'core', 'cli', 'main.js'))) throw new Error('out/ is not built: run `node scripts/build.mjs` first (prepack does it for a real `npm pack`).');
  const packed = run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', temp], { cwd: root });
  if (packed.status !== 0) throw new Error(`npm pack failed: ${packed.stderr}`);
  const [{ filename, files }] = JSON.parse(packed.stdout);
  const paths = files.map((f) => f.path);
  check(paths.includes('bin/reverie.js') && paths.includes('bin/package.json') && paths.includes('out/core/cli/main.js') && paths.includes('out/.build-stamp'), 'the tarball holds bin/reverie.js (CommonJS by bin/package.json), the built engine and its build stamp');
  check(!paths.some((p) => /^(core|e2e|scripts|renderer|electron)\//.test(p) || p.includes('.test.')), 'the tarball holds no sources or tests');

  const prefix = path.join(temp, 'prefix');
  const install = (mode) => run('npm', ['install', '--global', '--prefix', prefix, mode, '--ignore-scripts', '--omit=optional', '--no-audit', '--no-fund', path.join(temp, filename)]);
  let installed = install('--offline');
  if (installed.status !== 0 && /ENOTCACHED/.test(installed.stderr)) {
    console.error('npm cache lacks some dependencies: installing with --prefer-offline');
    installed = install('--prefer-offline');
  }
  check(installed.status === 0, `npm install --global of the tarball${installed.status === 0 ? '' : `: ${installed.stderr.slice(-500)}`}`);
  const bin = path.join(prefix, process.platform === 'win32' ? 'reverie.cmd' : path.join('bin', 'reverie'));
  const pkgDir = path.join(prefix, 'lib', 'node_modules', 'reverie');
  check(!fs.existsSync(path.join(pkgDir, 'node_modules', 'tsx')) && !fs.existsSync(path.join(pkgDir, 'node_modules', 'vitest')), 'no dev dependencies installed (tsx, vitest)');
  const version = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')).version;
  check(run(bin, ['--version']).stdout.trim() === version, `reverie --version prints ${version}`);
  const help = run(bin, ['--help']);
  check(help.status === 0 && /\n {2}hook /.test(help.stdout) && /\n {2}agents /.test(help.stdout), 'reverie --help lists the commands, hook and agents included');
  const agentsHelp = run(bin, ['agents', '--help']);
  check(agentsHelp.status === 0 && agentsHelp.stdout.includes('reverie agents connect <'), 'reverie agents --help shows connect');
  const hook = run(bin, ['hook', 'SessionStart', '--data-dir', path.join(temp, 'data')], { input: '' });
  check(hook.status === 0 && hook.stdout === '', 'reverie hook with empty input exits 0 and prints nothing');
} catch (error) {
  failures.push(error.message);
  console.error(`FAIL ${error.message}`);
} finally {
  fs.rmSync(temp, { recursive: true, force: true });
}
console.log(`${failures.length === 0 ? 'pack and install: ok' : `pack and install: ${failures.length} failed`}`);
process.exit(failures.length === 0 ? 0 : 1);
