// Native modules under Electron. better-sqlite3 is not a Node-API module: the build `npm ci`
// makes is for Node's ABI and does not load in Electron. `npm start` prepares, once, an
// Electron-ABI build in a cache folder outside better-sqlite3's own (whose build keeps serving
// the CLI and tests) and hands its path to the engine in REVERIE_SQLITE_NATIVE_BINDING (read
// by core/src/platform/sqliteDriver.ts). node-llama-cpp (Node-API) and sqlite-vec (a SQLite
// extension) load in Electron as they are.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const SQLITE_NATIVE_BINDING_ENV = 'REVERIE_SQLITE_NATIVE_BINDING';
export const ELECTRON_HEADERS_URL = 'https://electronjs.org/headers';
const HEADERS_TIMEOUT_MS = 120_000;
const BUILD_TIMEOUT_MS = 20 * 60_000;
// npm passes its config to scripts as npm_config_*; node-gyp reads these, and a `nodedir`
// (set on this machine) would silently build against Node's headers instead of Electron's.
const GYP_ENV_OVERRIDES = /^npm_config_(nodedir|target|target_arch|arch|runtime|disturl|dist_url|devdir|tarball|build_from_source)$/i;

/** `<root>/node_modules/.cache/reverie`: where Electron builds and Electron headers are kept. */
export function electronCacheRoot(root) {
  return path.join(root, 'node_modules', '.cache', 'reverie');
}

/** The folder one Electron build of better-sqlite3 lives in; every input of the build is in its name. */
export function electronSqliteCacheDir({ root, betterSqliteVersion, electronVersion, platform, arch }) {
  return path.join(electronCacheRoot(root), `better-sqlite3-${betterSqliteVersion}-electron-${electronVersion}-${platform}-${arch}`);
}

/** The cached `better_sqlite3.node` for those versions (it may not exist yet). */
export function electronSqliteCachePath(parts) {
  return path.join(electronSqliteCacheDir(parts), 'better_sqlite3.node');
}

/** Where node-gyp may be found: the project's own, then the one npm bundles. */
export function nodeGypCandidates(root, env = process.env, execPath = process.execPath) {
  const prefix = path.dirname(path.dirname(execPath));
  return [
    path.join(root, 'node_modules', 'node-gyp', 'bin', 'node-gyp.js'),
    env.npm_config_node_gyp,
    path.join(prefix, 'lib', 'node_modules', 'npm', 'node_modules', 'node-gyp', 'bin', 'node-gyp.js'),
    path.join(path.dirname(execPath), 'node_modules', 'npm', 'node_modules', 'node-gyp', 'bin', 'node-gyp.js'),
  ].filter((candidate) => typeof candidate === 'string' && candidate !== '');
}

function readJson(file) {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
}

function stampMatches(stamp, expected) {
  return stamp !== null && typeof stamp === 'object' && Object.entries(expected).every(([key, value]) => stamp[key] === value);
}

/**
 * Returns the absolute path of an Electron-ABI `better_sqlite3.node`, building it with node-gyp
 * the first time. Throws an Error with a one-line message (and the full log in the cache
 * folder) when it cannot be built. Never touches node_modules/better-sqlite3/build.
 */
export async function prepareElectronSqlite({
  root,
  electronVersion,
  platform = process.platform,
  arch = process.arch,
  log = () => {},
  nodeGyp,
  headersTimeoutMs = HEADERS_TIMEOUT_MS,
  buildTimeoutMs = BUILD_TIMEOUT_MS,
}) {
  const source = path.join(root, 'node_modules', 'better-sqlite3');
  const pkg = readJson(path.join(source, 'package.json'));
  const what = `better-sqlite3 for Electron ${electronVersion}`;
  if (!pkg || typeof pkg.version !== 'string') throw new Error(`Could not build ${what}: ${path.join(source, 'package.json')} is missing (run npm ci)`);
  const expected = { betterSqlite3: pkg.version, electron: electronVersion, platform, arch };
  const cacheDir = electronSqliteCacheDir({ root, betterSqliteVersion: pkg.version, electronVersion, platform, arch });
  const target = path.join(cacheDir, 'better_sqlite3.node');
  const stampFile = path.join(cacheDir, 'stamp.json');
  if (fs.existsSync(target) && stampMatches(readJson(stampFile), expected)) return target;

  fs.mkdirSync(cacheDir, { recursive: true });
  const logFile = path.join(cacheDir, 'build.log');
  fs.writeFileSync(logFile, `Building ${what} (${platform}-${arch}) on ${new Date().toISOString()}\n`);
  const fail = (reason) => new Error(`Could not build ${what}: ${reason} (details in ${logFile})`);

  const gyp = nodeGyp ?? nodeGypCandidates(root).find((candidate) => fs.existsSync(candidate));
  if (!gyp || !fs.existsSync(gyp)) throw fail('node-gyp was not found (neither in node_modules nor bundled with npm)');
  const devdir = path.join(electronCacheRoot(root), 'electron-gyp');
  const work = fs.mkdtempSync(path.join(electronCacheRoot(root), '.build-'));
  try {
    for (const entry of ['package.json', 'binding.gyp', 'src', 'deps']) {
      const from = path.join(source, entry);
      if (!fs.existsSync(from)) throw fail(`${from} is missing (run npm ci)`);
      fs.cpSync(from, path.join(work, entry), { recursive: true });
    }
    const common = [`--runtime=electron`, `--target=${electronVersion}`, `--dist-url=${ELECTRON_HEADERS_URL}`, `--arch=${arch}`, `--devdir=${devdir}`];
    // Quiet until the headers are in: offline, `npm start` says what happened in one line.
    const headers = await runNodeGyp(gyp, ['install', ...common], { cwd: work, logFile, timeoutMs: headersTimeoutMs });
    if (!headers.ok || !headersInstalled(devdir, electronVersion)) {
      throw fail(headers.timedOut ? `the Electron headers could not be downloaded from ${ELECTRON_HEADERS_URL} within ${Math.round(headersTimeoutMs / 1000)} s (offline?)` : headers.spawnError ? `node-gyp could not be started (${headers.spawnError})` : `the Electron headers could not be downloaded from ${ELECTRON_HEADERS_URL} (offline?)`);
    }
    const jobs = typeof os.availableParallelism === 'function' ? os.availableParallelism() : os.cpus().length;
    log(`Building ${what} (once; a few minutes)…`);
    const build = await runNodeGyp(gyp, ['rebuild', '--release', `--jobs=${Math.max(1, jobs)}`, ...common], { cwd: work, logFile, timeoutMs: buildTimeoutMs });
    const built = path.join(work, 'build', 'Release', 'better_sqlite3.node');
    if (!build.ok || !fs.existsSync(built)) throw fail(buildFailureReason(build, buildTimeoutMs, fs.readFileSync(logFile, 'utf8')));

    const pending = `${target}.${process.pid}.tmp`;
    fs.copyFileSync(built, pending);
    fs.renameSync(pending, target);
    const pendingStamp = `${stampFile}.${process.pid}.tmp`;
    fs.writeFileSync(pendingStamp, `${JSON.stringify({ ...expected, builtAt: new Date().toISOString() }, null, 2)}\n`);
    fs.renameSync(pendingStamp, stampFile);
    return target;
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

function headersInstalled(devdir, electronVersion) {
  return fs.existsSync(path.join(devdir, electronVersion, 'include', 'node', 'node_version.h'));
}

function buildFailureReason(build, timeoutMs, logText) {
  if (build.spawnError) return `node-gyp could not be started (${build.spawnError})`;
  if (build.timedOut) return `the build did not finish within ${Math.round(timeoutMs / 1000)} s`;
  if (/find any Python|Could not find Python|python[^\n]*not found/i.test(logText)) return 'Python 3 was not found (node-gyp needs it)';
  if (/not found: make|make: not found|g\+\+: not found|not found: g\+\+|cc: not found|No such file or directory[^\n]*(g\+\+|cc|make)\b/i.test(logText)) return 'no C/C++ toolchain (make, g++) was found';
  return `the compiler failed (node-gyp exited with ${build.code ?? build.signal})`;
}

/**
 * Runs node-gyp with its output appended to the log file; resolves (never rejects) with how it
 * ended. On POSIX it gets its own process group, so a timeout or Ctrl-C also stops the
 * compilers it started.
 */
function runNodeGyp(gyp, args, { cwd, logFile, timeoutMs }) {
  const env = { ...process.env };
  for (const key of Object.keys(env)) if (GYP_ENV_OVERRIDES.test(key)) delete env[key];
  fs.appendFileSync(logFile, `\n$ node ${gyp} ${args.join(' ')}\n`);
  const out = fs.openSync(logFile, 'a');
  const group = process.platform !== 'win32';
  return new Promise((resolve) => {
    let child = null;
    let timer = null;
    let settled = false;
    let timedOut = false;
    const stop = () => {
      if (!child || child.exitCode !== null || child.signalCode !== null) return;
      try {
        if (group) process.kill(-child.pid, 'SIGKILL');
        else child.kill('SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
    };
    const interrupted = (signal) => {
      stop();
      process.exit(signal === 'SIGINT' ? 130 : 143);
    };
    const done = (result) => {
      if (settled) return;
      settled = true;
      if (timer) clearTimeout(timer);
      process.off('SIGINT', interrupted);
      process.off('SIGTERM', interrupted);
      try {
        fs.closeSync(out);
      } catch {}
      resolve(result);
    };
    try {
      child = spawn(process.execPath, [gyp, ...args], { cwd, env, stdio: ['ignore', out, out], detached: group, windowsHide: true });
    } catch (error) {
      done({ ok: false, spawnError: error instanceof Error ? error.message : String(error) });
      return;
    }
    process.on('SIGINT', interrupted);
    process.on('SIGTERM', interrupted);
    timer = setTimeout(() => {
      timedOut = true;
      stop();
    }, timeoutMs);
    child.on('error', (error) => done({ ok: false, spawnError: error.message }));
    child.on('exit', (code, signal) => done({ ok: code === 0 && !timedOut, code, signal, timedOut }));
  });
}

/** The line `npm start` prints before opening the browser UI instead of Electron. */
export function browserFallbackLine(reason) {
  return `${reason}; opening the same UI in your browser with \`reverie serve --open\` instead.`;
}

export const NO_ELECTRON_BINARY = 'Electron binary not installed (it cannot be downloaded here)';

/**
 * Decides how `npm start` runs: Electron with the prepared better-sqlite3 build, or the browser
 * UI with a one-line reason. `prepare` resolves to the native build's path or throws.
 */
export async function planStart({ binary, prepare }) {
  if (!binary) return { kind: 'browser', reason: NO_ELECTRON_BINARY };
  try {
    const binding = await prepare();
    return { kind: 'electron', env: { [SQLITE_NATIVE_BINDING_ENV]: binding } };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { kind: 'browser', reason: message.split('\n')[0].trim() || 'Could not prepare better-sqlite3 for Electron' };
  }
}

/** The Electron binary: ELECTRON_OVERRIDE_DIST_PATH, else a normal install of the electron package, else null. */
export function findElectronBinary(root, env = process.env, platform = process.platform) {
  const executable = platform === 'win32' ? 'electron.exe' : platform === 'darwin' ? 'Electron.app/Contents/MacOS/Electron' : 'electron';
  if (env.ELECTRON_OVERRIDE_DIST_PATH) {
    const candidate = path.join(env.ELECTRON_OVERRIDE_DIST_PATH, executable);
    return fs.existsSync(candidate) ? candidate : null;
  }
  const pkg = path.join(root, 'node_modules', 'electron');
  try {
    const binary = path.join(pkg, 'dist', fs.readFileSync(path.join(pkg, 'path.txt'), 'utf8').trim());
    return fs.existsSync(binary) ? binary : null;
  } catch {
    return null;
  }
}

/** That Electron's version: ELECTRON_VERSION (with an override), its dist's `version` file, or the npm package's; null if unknown. */
export function installedElectronVersion(root, env = process.env) {
  const override = env.ELECTRON_OVERRIDE_DIST_PATH;
  if (override && env.ELECTRON_VERSION) return env.ELECTRON_VERSION.replace(/^v/, '');
  try {
    const stated = fs.readFileSync(path.join(override || path.join(root, 'node_modules', 'electron', 'dist'), 'version'), 'utf8').trim();
    if (/^v?\d+\.\d+\.\d+/.test(stated)) return stated.replace(/^v/, '');
  } catch {}
  try {
    return JSON.parse(fs.readFileSync(path.join(root, 'node_modules', 'electron', 'package.json'), 'utf8')).version;
  } catch {
    return null;
  }
}
