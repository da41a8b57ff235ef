#!/usr/bin/env node
// `npm run dist [-- ELECTRON_BUILDER_ARGS]`: builds the desktop packages for the OS it runs on
// (Linux: AppImage + deb, macOS: dmg, Windows: nsis; see electron-builder.yml), into dist/.
//
//   1. checks that Electron's headers and binaries can be downloaded (skip: --skip-network-check)
//   2. builds out/ (scripts/build.mjs)
//   3. rebuilds better-sqlite3 for Electron's ABI with @electron/rebuild (a build for Node does
//      not load in Electron; it is not a Node-API module), keeping a copy of the Node build
//   4. runs electron-builder with electron-builder.yml (its own rebuild is off: npmRebuild: false)
//   5. always, even after a failure or Ctrl-C: puts the Node build of better-sqlite3 back (or,
//      failing that, `npm rebuild better-sqlite3`) and checks that Node loads it, so the CLI and
//      the tests keep working after a dist.
//
// Extra arguments go to electron-builder, e.g. `npm run dist -- --linux deb` or `-- --dir`.
// Native modules cannot be cross-compiled, so asking for another OS or architecture is refused.
// Not run at install time and not in CI (no network there): CI checks the configuration with
// scripts/test/packagingConfig.test.ts.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(path.join(root, 'package.json'));
const NETWORK = 'npm run dist needs network access to download Electron headers and binaries';

const args = process.argv.slice(2);
const skipNetworkCheck = takeFlag(args, '--skip-network-check');
const builderArgs = args;

let interrupted = false;
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    if (!interrupted) console.error(`dist: ${signal}: stopping after the current step, then restoring better-sqlite3's Node build`);
    interrupted = true;
  });
}

function takeFlag(list, flag) {
  const i = list.indexOf(flag);
  if (i === -1) return false;
  list.splice(i, 1);
  return true;
}

function fail(message) {
  const error = new Error(message);
  error.distMessage = message;
  return error;
}

function readJson(file) {
  return JSON.parse(fs.readFileSync(file, 'utf8'));
}

function hostPlatformKey() {
  return process.platform === 'darwin' ? 'mac' : process.platform === 'win32' ? 'win' : 'linux';
}

/** Refuses targets whose native modules this machine cannot build (other OS or architecture). */
function checkTargetsAreHost() {
  const platformFlags = { linux: ['--linux', '-l'], mac: ['--mac', '--macos', '-m', '-o'], win: ['--win', '--windows', '-w'] };
  const host = hostPlatformKey();
  for (const [key, flags] of Object.entries(platformFlags)) {
    if (key !== host && builderArgs.some((a) => flags.includes(a))) {
      throw fail(
        `npm run dist builds packages for the OS it runs on (${host}): better-sqlite3 must be compiled and sqlite-vec and node-llama-cpp installed on the target OS. Run it on ${key === 'mac' ? 'macOS for dmg' : key === 'win' ? 'Windows for nsis' : 'Linux for AppImage and deb'}.`,
      );
    }
  }
  for (const arch of ['x64', 'ia32', 'armv7l', 'arm64', 'universal']) {
    if (arch !== process.arch && builderArgs.includes(`--${arch}`)) {
      throw fail(`npm run dist builds for this machine's architecture (${process.arch}), not --${arch}: native modules cannot be cross-compiled.`);
    }
  }
}

async function reachable(url) {
  try {
    const response = await fetch(url, { method: 'HEAD', redirect: 'follow', signal: AbortSignal.timeout(15_000) });
    return response.ok ? null : `HTTP ${response.status}`;
  } catch (error) {
    const cause = error?.cause?.code ?? error?.cause?.message ?? error?.message ?? String(error);
    return String(cause);
  }
}

async function checkNetwork(electronVersion, headerURL) {
  const mirror = process.env.ELECTRON_MIRROR ?? process.env.npm_config_electron_mirror ?? 'https://github.com/electron/electron/releases/download/';
  const urls = [`${headerURL.replace(/\/$/, '')}/v${electronVersion}/SHASUMS256.txt`];
  if (!process.env.ELECTRON_CUSTOM_DIR) urls.push(`${mirror.replace(/\/?$/, '/')}v${electronVersion}/SHASUMS256.txt`);
  const problems = (await Promise.all(urls.map(async (url) => [url, await reachable(url)]))).filter(([, problem]) => problem);
  if (problems.length > 0) {
    throw fail(
      `${NETWORK}: ${problems.map(([url, problem]) => `${url} (${problem})`).join(', ')}. If they are cached or mirrored, run \`npm run dist -- --skip-network-check\`.`,
    );
  }
}

function run(label, command, commandArgs, options = {}) {
  if (interrupted) throw fail(`dist: interrupted before ${label}`);
  const started = Date.now();
  console.error(`dist: ${label}…`);
  const result = spawnSync(command, commandArgs, { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' && !command.endsWith('.exe'), ...options });
  // A Ctrl-C reaches the child too; our own handler only runs once the event loop is free again.
  if (result.signal === 'SIGINT' || result.signal === 'SIGTERM') interrupted = true;
  if (interrupted) throw fail(`dist: interrupted during ${label}`);
  if (result.error) return { ok: false, detail: result.error.message };
  if (result.status !== 0) return { ok: false, detail: result.signal ? `killed by ${result.signal}` : `exit code ${result.status}` };
  console.error(`dist: ${label} done (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  return { ok: true, detail: '' };
}

// ---- better-sqlite3: which ABI is its build for? ---------------------------------------

const addonDir = path.join(root, 'node_modules', 'better-sqlite3', 'build', 'Release');
const addonFile = path.join(addonDir, 'better_sqlite3.node');

/** Loads better-sqlite3 in a fresh Node: { ok } or the NODE_MODULE_VERSION it was built for. */
function probeNodeLoad() {
  const result = spawnSync(process.execPath, ['-e', "new (require('better-sqlite3'))(':memory:').close()"], { cwd: root, encoding: 'utf8' });
  if (result.status === 0) return { ok: true, builtFor: process.versions.modules, message: '' };
  const message = `${result.stderr ?? ''}${result.error?.message ?? ''}`;
  const builtFor = /NODE_MODULE_VERSION (\d+)/.exec(message)?.[1] ?? null;
  const firstLine = message.split('\n').find((l) => /Error|error/.test(l))?.trim() ?? message.trim().split('\n')[0] ?? '';
  return { ok: false, builtFor, message: firstLine };
}

/** @electron/rebuild comes with electron-builder (app-builder-lib); it exports no package.json. */
function electronRebuildDir() {
  const candidates = [() => require, () => createRequire(require.resolve('app-builder-lib/package.json'))];
  for (const from of candidates) {
    try {
      return path.resolve(path.dirname(from().resolve('@electron/rebuild')), '..');
    } catch {}
  }
  throw fail('npm run dist: @electron/rebuild (installed with electron-builder) was not found; run npm ci');
}

function electronAbi(electronVersion) {
  try {
    const rebuildRequire = createRequire(path.join(electronRebuildDir(), 'package.json'));
    return String(rebuildRequire('node-abi').getAbi(electronVersion, 'electron'));
  } catch {
    return null;
  }
}

function npmCommand() {
  return process.platform === 'win32' ? 'npm.cmd' : 'npm';
}

/** Environment for compiling against Node (as `npm ci` does here): the system headers when present. */
function nodeBuildEnv() {
  const env = { ...process.env };
  if (!env.npm_config_nodedir && fs.existsSync('/usr/include/node')) env.npm_config_nodedir = '/usr';
  return env;
}

/** Environment for compiling against Electron: no npm/node-gyp setting may point at Node's headers. */
function electronBuildEnv() {
  const env = {};
  const drop = /^npm_config_(nodedir|target|runtime|disturl|dist_url|arch|target_arch|build_from_source)$/i;
  for (const [key, value] of Object.entries(process.env)) if (!drop.test(key)) env[key] = value;
  return env;
}

function restoreNodeBuild(backup) {
  let probe = probeNodeLoad();
  if (probe.ok) return true;
  if (backup && fs.existsSync(backup)) {
    fs.mkdirSync(addonDir, { recursive: true });
    fs.copyFileSync(backup, addonFile);
    probe = probeNodeLoad();
    if (probe.ok) {
      console.error("dist: restored better-sqlite3's Node build");
      return true;
    }
  }
  console.error(`dist: better-sqlite3 does not load in Node (${probe.message || 'unknown error'}); running npm rebuild better-sqlite3…`);
  spawnSync(npmCommand(), ['rebuild', 'better-sqlite3'], { cwd: root, stdio: 'inherit', env: nodeBuildEnv(), shell: process.platform === 'win32' });
  probe = probeNodeLoad();
  if (probe.ok) {
    console.error("dist: rebuilt better-sqlite3 for Node");
    return true;
  }
  console.error(`dist: better-sqlite3 still does not load in Node: ${probe.message}. Run \`npm rebuild better-sqlite3\` (with npm_config_nodedir=/usr where /usr/include/node exists) before using the CLI or running the tests.`);
  return false;
}

// ---- main -------------------------------------------------------------------------------

async function main() {
  const electronVersion = readJson(path.join(root, 'node_modules', 'electron', 'package.json')).version;
  const headerURL = process.env.ELECTRON_REBUILD_DIST_URL ?? 'https://www.electronjs.org/headers';
  checkTargetsAreHost();

  if (skipNetworkCheck) console.error('dist: --skip-network-check: not checking that Electron downloads are reachable');
  else await checkNetwork(electronVersion, headerURL);

  const build = run('building out/ (scripts/build.mjs)', process.execPath, [path.join(root, 'scripts', 'build.mjs')]);
  if (!build.ok) throw fail(`npm run dist: scripts/build.mjs failed (${build.detail})`);

  let backup = null;
  let restored = false;
  const backupDir = fs.mkdtempSync(path.join(os.tmpdir(), 'reverie-dist-'));
  try {
    if (probeNodeLoad().ok && fs.existsSync(addonFile)) {
      backup = path.join(backupDir, 'better_sqlite3.node');
      fs.copyFileSync(addonFile, backup);
    } else {
      console.error("dist: better-sqlite3 does not load in Node before the rebuild; it will be rebuilt for Node afterwards with npm rebuild");
    }

    const rebuildCli = path.join(electronRebuildDir(), 'lib', 'cli.js');
    const rebuildArgs = [rebuildCli, '--version', electronVersion, '--arch', process.arch, '--only', 'better-sqlite3', '--force', '--sequential', '--module-dir', root, '--dist-url', headerURL];
    const rebuilt = run(`rebuilding better-sqlite3 for Electron ${electronVersion}`, process.execPath, rebuildArgs, { env: electronBuildEnv() });
    if (!rebuilt.ok) {
      throw fail(
        `npm run dist: rebuilding better-sqlite3 for Electron ${electronVersion} failed (${rebuilt.detail}); it needs Electron's headers from ${headerURL} (network access) and a C++ toolchain (Python, make and a compiler, or Visual Studio Build Tools on Windows)`,
      );
    }
    // A build that still loads in Node was made against Node's headers (e.g. npm_config_nodedir
    // leaking in): packaging it would give an app whose index cannot open.
    const probe = probeNodeLoad();
    const expected = electronAbi(electronVersion);
    if (!fs.existsSync(addonFile)) throw fail(`npm run dist: @electron/rebuild reported success but ${path.relative(root, addonFile)} is missing`);
    if (probe.ok || (expected && probe.builtFor && probe.builtFor !== expected)) {
      throw fail(
        `npm run dist: better-sqlite3 was rebuilt for NODE_MODULE_VERSION ${probe.builtFor ?? '?'}, not Electron ${electronVersion}'s ${expected ?? '(unknown)'}; not packaging it`,
      );
    }
    console.error(`dist: better-sqlite3 is built for Electron ${electronVersion} (NODE_MODULE_VERSION ${probe.builtFor ?? expected ?? '?'})`);

    const builderCli = path.join(path.dirname(require.resolve('electron-builder/package.json')), 'cli.js');
    const publish = builderArgs.some((a) => a === '--publish' || a === '-p' || a.startsWith('--publish=')) ? [] : ['--publish', 'never'];
    const packaged = run('packaging with electron-builder', process.execPath, [builderCli, '--config', path.join(root, 'electron-builder.yml'), ...publish, ...builderArgs]);
    if (!packaged.ok) {
      throw fail(
        `npm run dist: electron-builder failed (${packaged.detail}); see its output above. It downloads Electron ${electronVersion} and its packaging tools (network access), needs macOS for dmg and Windows for nsis`,
      );
    }
    console.error(`dist: packages are in ${path.join(root, 'dist')}`);
  } finally {
    restored = restoreNodeBuild(backup);
    fs.rmSync(backupDir, { recursive: true, force: true });
  }
  if (!restored) throw fail('npm run dist: the packages were built, but better-sqlite3 could not be restored for Node (see above)');
}

main().then(
  () => process.exit(interrupted ? 130 : 0),
  (error) => {
    console.error(error?.distMessage ?? `npm run dist failed: ${error?.stack ?? error}`);
    process.exit(interrupted ? 130 : 1);
  },
);
