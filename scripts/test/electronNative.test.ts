import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  findElectronBinary,
  installedElectronVersion,
  browserFallbackLine,
  electronSqliteCachePath,
  NO_ELECTRON_BINARY,
  nodeGypCandidates,
  planStart,
  prepareElectronSqlite,
  SQLITE_NATIVE_BINDING_ENV,
} from '../electronNative.mjs';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const BS3_VERSION = '12.11.1';
const ELECTRON = '45.5.0';

let dir: string;
let savedNodedir: string | undefined;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'reverie-electron-native-'));
  savedNodedir = process.env.npm_config_nodedir;
});
afterEach(() => {
  if (savedNodedir === undefined) delete process.env.npm_config_nodedir;
  else process.env.npm_config_nodedir = savedNodedir;
  fs.rmSync(dir, { recursive: true, force: true });
});

/** A project root with a fake node_modules/better-sqlite3 (sources and a Node build that must stay untouched). */
function fakeRoot(): string {
  const root = path.join(dir, 'project');
  const bs3 = path.join(root, 'node_modules', 'better-sqlite3');
  const files: Record<string, string> = {
    'package.json': JSON.stringify({ name: 'better-sqlite3', version: BS3_VERSION }),
    'binding.gyp': '{}',
    'src/better_sqlite3.cpp': '// source',
    'deps/common.gypi': '{}',
    'build/Release/better_sqlite3.node': 'NODE BUILD',
  };
  for (const [p, c] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(bs3, p)), { recursive: true });
    fs.writeFileSync(path.join(bs3, p), c);
  }
  return root;
}

const cacheParts = (root: string) => ({ root, betterSqliteVersion: BS3_VERSION, electronVersion: ELECTRON, platform: 'linux', arch: 'x64' });

/**
 * A stand-in node-gyp: records each call (arguments, cwd, the nodedir it was given), and
 * "installs headers" / "builds" unless told to fail at that step.
 */
function fakeNodeGyp(failAt: 'install' | 'rebuild' | null): { script: string; calls: () => { args: string[]; cwd: string; nodedir: string | null; files: string[] }[] } {
  const record = path.join(dir, 'gyp-calls.jsonl');
  const script = path.join(dir, 'fake-node-gyp.cjs');
  fs.writeFileSync(
    script,
    `const fs = require('fs'); const path = require('path');
const args = process.argv.slice(2);
const opt = (name) => (args.find((a) => a.startsWith('--' + name + '=')) || '').split('=').slice(1).join('=');
fs.appendFileSync(${JSON.stringify(record)}, JSON.stringify({ args, cwd: process.cwd(), nodedir: process.env.npm_config_nodedir || null, files: fs.readdirSync('.').sort() }) + '\\n');
console.log('gyp info it worked if it ends with ok');
if (args[0] === ${JSON.stringify(failAt)}) { console.error('gyp ERR! not ok'); process.exit(1); }
if (args[0] === 'install') {
  const inc = path.join(opt('devdir'), opt('target'), 'include', 'node');
  fs.mkdirSync(inc, { recursive: true }); fs.writeFileSync(path.join(inc, 'node_version.h'), '');
}
if (args[0] === 'rebuild') {
  fs.mkdirSync('build/Release', { recursive: true }); fs.writeFileSync('build/Release/better_sqlite3.node', 'ELECTRON BUILD ' + opt('target'));
}
`,
  );
  const calls = () => (fs.existsSync(record) ? fs.readFileSync(record, 'utf8').trim().split('\n').map((l) => JSON.parse(l)) : []);
  return { script, calls };
}

describe('the Electron better-sqlite3 cache', () => {
  it('lives outside better-sqlite3’s folder, named by every input of the build', () => {
    expect(electronSqliteCachePath(cacheParts('/p'))).toBe(
      path.join('/p', 'node_modules', '.cache', 'reverie', `better-sqlite3-${BS3_VERSION}-electron-${ELECTRON}-linux-x64`, 'better_sqlite3.node'),
    );
    expect(electronSqliteCachePath(cacheParts('/p'))).not.toContain(path.join('node_modules', 'better-sqlite3', 'build'));
  });

  it('looks for node-gyp in node_modules first, then next to npm', () => {
    const candidates = nodeGypCandidates('/p', {}, '/opt/node/bin/node');
    expect(candidates[0]).toBe(path.join('/p', 'node_modules', 'node-gyp', 'bin', 'node-gyp.js'));
    expect(candidates).toContain(path.join('/opt/node', 'lib', 'node_modules', 'npm', 'node_modules', 'node-gyp', 'bin', 'node-gyp.js'));
  });

  it('returns a cached build with a matching stamp without building', async () => {
    const root = fakeRoot();
    const cached = electronSqliteCachePath(cacheParts(root));
    fs.mkdirSync(path.dirname(cached), { recursive: true });
    fs.writeFileSync(cached, 'CACHED');
    fs.writeFileSync(path.join(path.dirname(cached), 'stamp.json'), JSON.stringify({ betterSqlite3: BS3_VERSION, electron: ELECTRON, platform: 'linux', arch: 'x64' }));
    const gyp = fakeNodeGyp(null);
    const result = await prepareElectronSqlite({ root, electronVersion: ELECTRON, platform: 'linux', arch: 'x64', nodeGyp: gyp.script });
    expect(result).toBe(cached);
    expect(path.isAbsolute(result)).toBe(true);
    expect(gyp.calls()).toEqual([]);
    expect(fs.readFileSync(cached, 'utf8')).toBe('CACHED');
  });

  it('rebuilds when the stamp does not match, against Electron’s headers, and caches the result', async () => {
    const root = fakeRoot();
    const cached = electronSqliteCachePath(cacheParts(root));
    fs.mkdirSync(path.dirname(cached), { recursive: true });
    fs.writeFileSync(cached, 'STALE');
    fs.writeFileSync(path.join(path.dirname(cached), 'stamp.json'), JSON.stringify({ betterSqlite3: '12.0.0', electron: ELECTRON, platform: 'linux', arch: 'x64' }));
    process.env.npm_config_nodedir = '/usr'; // what `npm start` passes on this machine: must not reach node-gyp
    const gyp = fakeNodeGyp(null);
    const lines: string[] = [];
    const result = await prepareElectronSqlite({ root, electronVersion: ELECTRON, platform: 'linux', arch: 'x64', nodeGyp: gyp.script, log: (l) => lines.push(l) });

    expect(result).toBe(cached);
    expect(fs.readFileSync(cached, 'utf8')).toBe(`ELECTRON BUILD ${ELECTRON}`);
    const stamp = JSON.parse(fs.readFileSync(path.join(path.dirname(cached), 'stamp.json'), 'utf8'));
    expect(stamp).toMatchObject({ betterSqlite3: BS3_VERSION, electron: ELECTRON, platform: 'linux', arch: 'x64' });
    const calls = gyp.calls();
    expect(calls.map((c) => c.args[0])).toEqual(['install', 'rebuild']);
    const rebuild = calls[1]!;
    expect(rebuild.args).toEqual(
      expect.arrayContaining(['--release', '--runtime=electron', `--target=${ELECTRON}`, '--dist-url=https://electronjs.org/headers', '--arch=x64']),
    );
    const devdir = rebuild.args.find((a) => a.startsWith('--devdir='))!.slice('--devdir='.length);
    expect(devdir.startsWith(path.join(root, 'node_modules', '.cache', 'reverie'))).toBe(true);
    expect(calls.every((c) => c.nodedir === null)).toBe(true);
    // Built in a copy of the sources (without build/), never in better-sqlite3's own folder.
    expect(rebuild.cwd).not.toBe(path.join(root, 'node_modules', 'better-sqlite3'));
    expect(calls[0]!.files).toEqual(['binding.gyp', 'deps', 'package.json', 'src']);
    expect(fs.existsSync(rebuild.cwd)).toBe(false);
    expect(fs.readFileSync(path.join(root, 'node_modules', 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node'), 'utf8')).toBe('NODE BUILD');
    expect(lines.join('\n')).toContain('Building better-sqlite3 for Electron');

    // Once built, the next start uses the cache.
    await prepareElectronSqlite({ root, electronVersion: ELECTRON, platform: 'linux', arch: 'x64', nodeGyp: gyp.script });
    expect(gyp.calls()).toHaveLength(2);
  });

  it('fails with one line naming the headers when they cannot be fetched, keeping the log', async () => {
    const root = fakeRoot();
    const gyp = fakeNodeGyp('install');
    const error = await prepareElectronSqlite({ root, electronVersion: ELECTRON, platform: 'linux', arch: 'x64', nodeGyp: gyp.script }).then(
      () => null,
      (e: unknown) => e as Error,
    );
    expect(error).toBeInstanceOf(Error);
    expect(error!.message).not.toContain('\n');
    expect(error!.message).toMatch(/^Could not build better-sqlite3 for Electron 45\.5\.0: the Electron headers could not be downloaded/);
    const logFile = path.join(path.dirname(electronSqliteCachePath(cacheParts(root))), 'build.log');
    expect(error!.message).toContain(logFile);
    expect(fs.readFileSync(logFile, 'utf8')).toContain('gyp ERR! not ok');
    expect(fs.existsSync(electronSqliteCachePath(cacheParts(root)))).toBe(false);
    expect(gyp.calls()).toHaveLength(1);
  });

  it('fails with one line when the compile fails, and leaves no half-written build', async () => {
    const root = fakeRoot();
    const gyp = fakeNodeGyp('rebuild');
    await expect(prepareElectronSqlite({ root, electronVersion: ELECTRON, platform: 'linux', arch: 'x64', nodeGyp: gyp.script })).rejects.toThrow(
      /^Could not build better-sqlite3 for Electron 45\.5\.0: the compiler failed \(node-gyp exited with 1\) \(details in .*build\.log\)$/,
    );
    const cacheDir = path.dirname(electronSqliteCachePath(cacheParts(root)));
    expect(fs.readdirSync(cacheDir)).toEqual(['build.log']);
  });

  it('with the real node-gyp and no network, fails in one line that names the Electron headers', async () => {
    const root = path.join(dir, 'project');
    fs.mkdirSync(path.join(root, 'node_modules'), { recursive: true });
    fs.symlinkSync(path.join(repo, 'node_modules', 'better-sqlite3'), path.join(root, 'node_modules', 'better-sqlite3'), 'dir');
    const nodeBuild = path.join(repo, 'node_modules', 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node');
    const before = fs.statSync(nodeBuild).mtimeMs;
    process.env.npm_config_nodedir = '/usr'; // would make node-gyp build for Node if it leaked through
    const error = await prepareElectronSqlite({
      root,
      electronVersion: ELECTRON,
      nodeGyp: path.join(repo, 'node_modules', 'node-gyp', 'bin', 'node-gyp.js'),
      headersTimeoutMs: 45_000,
      // Where the network works, do not compile here: stop right away.
      buildTimeoutMs: 1,
    }).then(
      () => null,
      (e: unknown) => e as Error,
    );
    expect(error).toBeInstanceOf(Error);
    expect(error!.message.split('\n')).toHaveLength(1);
    expect(error!.message).toMatch(/^Could not build better-sqlite3 for Electron 45\.5\.0: /);
    const headersFetched = fs.existsSync(path.join(root, 'node_modules', '.cache', 'reverie', 'electron-gyp', ELECTRON, 'include', 'node', 'node_version.h'));
    expect(error!.message).toMatch(headersFetched ? /did not finish within/ : /the Electron headers could not be downloaded/);
    expect(fs.statSync(nodeBuild).mtimeMs).toBe(before);
    const log = fs.readFileSync(path.join(path.dirname(electronSqliteCachePath({ ...cacheParts(root), platform: process.platform, arch: process.arch })), 'build.log'), 'utf8');
    expect(log).toContain('--runtime=electron');
  }, 90_000);
});

describe('planStart', () => {
  it('opens the browser UI when there is no Electron binary, without preparing anything', async () => {
    let prepared = false;
    const plan = await planStart({
      binary: null,
      prepare: () => {
        prepared = true;
        return '/x.node';
      },
    });
    expect(plan).toEqual({ kind: 'browser', reason: NO_ELECTRON_BINARY });
    expect(prepared).toBe(false);
    expect(browserFallbackLine(NO_ELECTRON_BINARY)).toBe(
      'Electron binary not installed (it cannot be downloaded here); opening the same UI in your browser with `reverie serve --open` instead.',
    );
  });

  it('opens the browser UI with the preparation’s one-line reason when it fails', async () => {
    const reason = 'Could not build better-sqlite3 for Electron 45.5.0: the Electron headers could not be downloaded (offline?)';
    const plan = await planStart({
      binary: '/opt/electron/electron',
      prepare: async () => {
        throw new Error(`${reason}\n    at somewhere`);
      },
    });
    expect(plan).toEqual({ kind: 'browser', reason });
    if (plan.kind !== 'browser') throw new Error('unreachable');
    const line = browserFallbackLine(plan.reason);
    expect(line).not.toContain('\n');
    expect(line).toBe(`${reason}; opening the same UI in your browser with \`reverie serve --open\` instead.`);
  });

  it('starts Electron with the prepared build in REVERIE_SQLITE_NATIVE_BINDING', async () => {
    const plan = await planStart({ binary: '/opt/electron/electron', prepare: async () => '/cache/better_sqlite3.node' });
    expect(plan).toEqual({ kind: 'electron', env: { REVERIE_SQLITE_NATIVE_BINDING: '/cache/better_sqlite3.node' } });
    expect(SQLITE_NATIVE_BINDING_ENV).toBe('REVERIE_SQLITE_NATIVE_BINDING');
  });
});

describe('finding the Electron binary and its version', () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'reverie-electron-find-'));
  afterEach(() => fs.rmSync(path.join(root, 'node_modules'), { recursive: true, force: true }));

  it('finds an installed electron package, or an override, and says null when there is none', () => {
    expect(findElectronBinary(root, {}, 'linux')).toBeNull();
    const pkg = path.join(root, 'node_modules', 'electron');
    fs.mkdirSync(path.join(pkg, 'dist'), { recursive: true });
    fs.writeFileSync(path.join(pkg, 'package.json'), JSON.stringify({ version: '45.5.0' }));
    expect(findElectronBinary(root, {}, 'linux')).toBeNull(); // the package without its download
    expect(installedElectronVersion(root, {})).toBe('45.5.0');
    fs.writeFileSync(path.join(pkg, 'path.txt'), 'electron');
    fs.writeFileSync(path.join(pkg, 'dist', 'electron'), '');
    fs.writeFileSync(path.join(pkg, 'dist', 'version'), 'v45.5.1\n');
    expect(findElectronBinary(root, {}, 'linux')).toBe(path.join(pkg, 'dist', 'electron'));
    expect(installedElectronVersion(root, {})).toBe('45.5.1');

    const override = path.join(root, 'node_modules', 'override');
    fs.mkdirSync(override, { recursive: true });
    expect(findElectronBinary(root, { ELECTRON_OVERRIDE_DIST_PATH: override }, 'linux')).toBeNull();
    fs.writeFileSync(path.join(override, 'electron'), '');
    expect(findElectronBinary(root, { ELECTRON_OVERRIDE_DIST_PATH: override }, 'linux')).toBe(path.join(override, 'electron'));
    expect(installedElectronVersion(root, { ELECTRON_OVERRIDE_DIST_PATH: override, ELECTRON_VERSION: 'v44.0.0' })).toBe('44.0.0');
  });
});
