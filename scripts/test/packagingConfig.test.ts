import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';

// CI cannot build desktop packages (no network for Electron's binaries and headers), so this
// checks electron-builder.yml as far as it can offline: the schema electron-builder itself
// validates against, the icons, the file and unpack patterns (evaluated the way electron-builder
// evaluates them), the dist script, and, on Linux, a real `--dir` pack with a stand-in Electron.

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const requireFromRoot = createRequire(path.join(root, 'package.json'));
// js-yaml, ajv and minimatch come with electron-builder (app-builder-lib): the same copies it uses.
const builderRequire = createRequire(requireFromRoot.resolve('app-builder-lib/package.json'));
const yaml = builderRequire('js-yaml') as { load(text: string): unknown };
const { Minimatch } = builderRequire('minimatch') as {
  Minimatch: new (pattern: string, options: { dot: boolean }) => { negate: boolean; match(p: string, partial?: boolean): boolean };
};

type Target = string | { target: string };
interface PlatformConfig {
  target?: Target | Target[];
  icon?: string;
  category?: string;
  maintainer?: string;
  synopsis?: string;
}
interface BuilderConfig {
  appId?: string;
  productName?: string;
  copyright?: string;
  directories?: { output?: string; buildResources?: string };
  files?: string[];
  asar?: boolean;
  asarUnpack?: string[];
  npmRebuild?: boolean;
  linux?: PlatformConfig;
  mac?: PlatformConfig;
  win?: PlatformConfig;
  nsis?: { oneClick?: boolean; allowToChangeInstallationDirectory?: boolean };
  extraMetadata?: { homepage?: string; author?: { name?: string; email?: string } };
}

const config = yaml.load(fs.readFileSync(path.join(root, 'electron-builder.yml'), 'utf8')) as BuilderConfig;
const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as {
  main: string;
  scripts: Record<string, string>;
};

// ---- helpers --------------------------------------------------------------------------------

function targetsOf(platform: PlatformConfig | undefined): string[] {
  const list = platform?.target === undefined ? [] : Array.isArray(platform.target) ? platform.target : [platform.target];
  return list.map((t) => (typeof t === 'string' ? t : t.target));
}

interface PngInfo {
  width: number;
  height: number;
  bitDepth: number;
  colourType: number;
  pixels: Buffer;
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(data: Buffer): number {
  let c = 0xffffffff;
  for (const byte of data) c = (CRC_TABLE[(c ^ byte) & 0xff] ?? 0) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** Reads a PNG: signature, chunk CRCs, IHDR first, IEND last, and the inflated IDAT stream. */
function readPng(file: string): PngInfo {
  const data = fs.readFileSync(file);
  expect(data.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])), `${file}: PNG signature`).toBe(true);
  let offset = 8;
  const chunks: { type: string; body: Buffer }[] = [];
  while (offset < data.length) {
    const length = data.readUInt32BE(offset);
    const type = data.toString('ascii', offset + 4, offset + 8);
    const body = data.subarray(offset + 8, offset + 8 + length);
    expect(data.readUInt32BE(offset + 8 + length), `${file}: CRC of ${type}`).toBe(crc32(data.subarray(offset + 4, offset + 8 + length)));
    chunks.push({ type, body });
    offset += 12 + length;
  }
  expect(chunks[0]?.type, `${file}: IHDR comes first`).toBe('IHDR');
  expect(chunks.at(-1)?.type, `${file}: IEND comes last`).toBe('IEND');
  const ihdr = chunks[0]!.body;
  const info = {
    width: ihdr.readUInt32BE(0),
    height: ihdr.readUInt32BE(4),
    bitDepth: ihdr[8] ?? -1,
    colourType: ihdr[9] ?? -1,
    pixels: zlib.inflateSync(Buffer.concat(chunks.filter((c) => c.type === 'IDAT').map((c) => c.body))),
  };
  if (info.colourType === 6 && info.bitDepth === 8) expect(info.pixels.length, `${file}: image data size`).toBe((info.width * 4 + 1) * info.height);
  return info;
}

function expectIcon(file: string, size: number | { atLeast: number }): PngInfo {
  expect(fs.existsSync(file), `${path.relative(root, file)} exists`).toBe(true);
  const png = readPng(file);
  expect(png.width, `${path.relative(root, file)} is square`).toBe(png.height);
  if (typeof size === 'number') expect(png.width, `${path.relative(root, file)} size`).toBe(size);
  else expect(png.width, `${path.relative(root, file)} size`).toBeGreaterThanOrEqual(size.atLeast);
  expect(png.bitDepth).toBe(8);
  expect(png.colourType, `${path.relative(root, file)} is RGBA`).toBe(6);
  return png;
}

/** electron-builder's ordered matching (util/filter.js minimatchAll): later patterns override earlier. */
function matchesInOrder(relative: string, patterns: string[], isDirectory = false): boolean {
  let match = false;
  for (const source of patterns) {
    const pattern = new Minimatch(source, { dot: true });
    if (match !== pattern.negate) continue;
    match = pattern.match(relative, isDirectory && !pattern.negate);
  }
  return match;
}

const expand = (pattern: string, osKey: string, arch: string) => pattern.replaceAll('${os}', osKey).replaceAll('${arch}', arch);
const filePatterns = (osKey: string, arch: string) => (config.files ?? []).map((p) => expand(p, osKey, arch));
/** App files: the `files` list in order. */
const packsAppFile = (relative: string, osKey = 'linux', arch = 'x64') => matchesInOrder(relative, filePatterns(osKey, arch));
/** node_modules: electron-builder keeps every production dependency and applies only the exclusions. */
const packsModuleFile = (relative: string, osKey = 'linux', arch = 'x64') =>
  matchesInOrder(relative, ['**/*', ...filePatterns(osKey, arch).filter((p) => p.startsWith('!'))]);
const literalBase = (pattern: string) => pattern.split('/').filter((_, i, all) => !/[*?{[]/.test(all.slice(0, i + 1).join('/'))).join('/');

// ---- tests ------------------------------------------------------------------------------------

describe('desktop packaging configuration (electron-builder.yml)', () => {
  it('names the app and is valid against electron-builder\'s own schema', async () => {
    expect(config.appId).toMatch(/^[a-z][a-z0-9-]*(\.[a-z0-9-]+)+$/i);
    expect(config.productName).toBe('Reverie');
    expect(config.copyright).toBeTruthy();
    expect(config.directories?.output).toBe('dist');

    const { validateConfiguration } = builderRequire('./out/util/config/config.js') as {
      validateConfiguration(c: unknown, logger: { isEnabled: boolean; add(): void }): Promise<void>;
    };
    const logger = { isEnabled: false, add: () => undefined };
    await expect(validateConfiguration(config, logger)).resolves.toBeUndefined();
    // The validator is real: an unknown option is rejected.
    await expect(validateConfiguration({ ...config, notAnOption: true }, logger)).rejects.toThrow(/notAnOption/);
  });

  it('targets AppImage and deb on Linux, dmg on macOS, nsis on Windows, with what each needs', () => {
    expect(targetsOf(config.linux)).toEqual(expect.arrayContaining(['AppImage', 'deb']));
    expect(targetsOf(config.mac)).toContain('dmg');
    expect(targetsOf(config.win)).toContain('nsis');
    expect(config.mac?.category).toMatch(/^public\.app-category\./);
    expect(config.linux?.category).toBeTruthy();
    // deb needs a maintainer (else package.json author.email) and a homepage (package.json has neither).
    expect(config.linux?.maintainer).toMatch(/^.+ <[^@\s]+@[^@\s]+>$/);
    expect(config.extraMetadata?.homepage).toMatch(/^https:\/\//);
    expect(config.nsis?.oneClick).toBe(false);
    expect(config.nsis?.allowToChangeInstallationDirectory).toBe(true);
  });

  it('references icons that exist and are PNGs of the right size', () => {
    const buildResources = path.join(root, config.directories?.buildResources ?? 'build');
    expect(fs.existsSync(buildResources), `${config.directories?.buildResources} exists`).toBe(true);
    // macOS (.icns) and Windows (.ico) are converted from one large PNG.
    for (const icon of [config.mac?.icon, config.win?.icon]) {
      expect(icon).toBeTruthy();
      expectIcon(path.join(root, icon!), { atLeast: 512 });
    }
    expectIcon(path.join(buildResources, 'icon.png'), 1024);
    // Linux: a folder of NxN.png files.
    const linuxIcons = path.join(root, config.linux?.icon ?? '');
    expect(fs.statSync(linuxIcons).isDirectory()).toBe(true);
    const sizes = fs.readdirSync(linuxIcons).map((name) => {
      const m = /^(\d+)x(\d+)\.png$/.exec(name);
      expect(m, `${name} is named NxN.png`).not.toBeNull();
      expect(m![1]).toBe(m![2]);
      expectIcon(path.join(linuxIcons, name), Number(m![1]));
      return Number(m![1]);
    });
    expect(sizes).toEqual(expect.arrayContaining([16, 32, 48, 64, 128, 256, 512]));
    // The tray icon the main process loads (resources/icons/tray.png), packed into the app.
    expectIcon(path.join(root, 'resources/icons/tray.png'), 32);
    expectIcon(path.join(root, 'resources/icons/tray@2x.png'), 64);
    expect(packsAppFile('resources/icons/tray.png')).toBe(true);
    expect(packsAppFile('resources/icons/tray@2x.png')).toBe(true);
  });

  it('has committed icons that scripts/make-icons.mjs reproduces', () => {
    const out = fs.mkdtempSync(path.join(os.tmpdir(), 'reverie-icons-'));
    try {
      const result = spawnSync(process.execPath, [path.join(root, 'scripts', 'make-icons.mjs'), out], { encoding: 'utf8' });
      expect(result.status, result.stderr).toBe(0);
      const generated: string[] = [];
      const walk = (dir: string) => {
        for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
          if (e.isDirectory()) walk(path.join(dir, e.name));
          else generated.push(path.relative(out, path.join(dir, e.name)));
        }
      };
      walk(out);
      expect(generated.length).toBeGreaterThanOrEqual(12);
      for (const relative of generated) {
        const committed = path.join(root, 'resources', relative);
        expect(fs.existsSync(committed), `resources/${relative} is committed`).toBe(true);
        // Compare pixels, not bytes: another zlib may compress the same pixels differently.
        expect(readPng(committed).pixels.equals(readPng(path.join(out, relative)).pixels), `resources/${relative} matches the generator`).toBe(true);
      }
    } finally {
      fs.rmSync(out, { recursive: true, force: true });
    }
  }, 60_000);

  it('packs the built app: main, engine, renderer, bin, runtime resources; no maps or sources', () => {
    for (const pattern of (config.files ?? []).filter((p) => !p.startsWith('!') && !p.startsWith('node_modules/'))) {
      const base = literalBase(pattern);
      expect(fs.existsSync(path.join(root, base)), `base "${base}" of files pattern "${pattern}" exists (run \`npm run build\` first)`).toBe(true);
    }
    expect(pkg.main.startsWith('out/')).toBe(true);
    expect(fs.existsSync(path.join(root, pkg.main)), `package.json main ${pkg.main} is built`).toBe(true);
    for (const file of [pkg.main, 'package.json', 'out/core/host/engineProcess.js', 'out/renderer/index.html', 'bin/reverie.js', 'resources/demo-workspace/MEMORY.md']) {
      expect(packsAppFile(file), `${file} is packed`).toBe(true);
    }
    for (const file of ['out/core/host/engineProcess.js.map', 'out/core/contract/index.d.ts', 'core/src/contract/index.ts', 'core/test/x.test.ts', 'electron/main/main.ts', 'scripts/dist.mjs', 'resources/build/icon.png']) {
      expect(packsAppFile(file), `${file} is not packed`).toBe(false);
    }
  });

  it('unpacks the native modules from app.asar with an explicit list, and keeps what they load', () => {
    const unpack = config.asarUnpack ?? [];
    expect(config.asar).not.toBe(false);
    expect(unpack.some((p) => p.includes('better-sqlite3'))).toBe(true);
    expect(unpack.some((p) => p.includes('sqlite-vec'))).toBe(true);
    expect(unpack.some((p) => p.includes('node-llama-cpp/'))).toBe(true);
    expect(unpack.some((p) => p.includes('@node-llama-cpp/'))).toBe(true);
    expect(unpack, 'an explicit list, not a catch-all').not.toContain('**/*.node');
    const unpacked = (relative: string) => unpack.some((p) => new Minimatch(p, { dot: true }).match(relative));
    expect(unpacked('node_modules/better-sqlite3/build/Release/better_sqlite3.node')).toBe(true);
    for (const vec of ['sqlite-vec-linux-x64/vec0.so', 'sqlite-vec-darwin-arm64/vec0.dylib', 'sqlite-vec-windows-x64/vec0.dll']) {
      expect(unpacked(`node_modules/${vec}`), vec).toBe(true);
    }
    expect(unpacked('node_modules/@node-llama-cpp/linux-x64/bins/linux-x64/llama-addon.node')).toBe(true);
    expect(unpacked('node_modules/@node-llama-cpp/linux-x64/bins/linux-x64/libllama.v0.4.0.so')).toBe(true);
    expect(unpacked('node_modules/@node-llama-cpp/mac-arm64-metal/bins/mac-arm64-metal/libggml-metal.dylib')).toBe(true);

    // Exclusions leave the addons for the target in place…
    const keep: [string, string, string][] = [
      ['linux', 'x64', 'node_modules/better-sqlite3/build/Release/better_sqlite3.node'],
      ['linux', 'x64', 'node_modules/better-sqlite3/lib/index.js'],
      ['linux', 'x64', 'node_modules/sqlite-vec-linux-x64/vec0.so'],
      ['linux', 'x64', 'node_modules/node-llama-cpp/dist/index.js'],
      ['linux', 'x64', 'node_modules/@node-llama-cpp/linux-x64/bins/linux-x64/llama-addon.node'],
      ['linux', 'arm64', 'node_modules/@node-llama-cpp/linux-arm64/bins/linux-arm64/llama-addon.node'],
      ['mac', 'arm64', 'node_modules/@node-llama-cpp/mac-arm64-metal/bins/mac-arm64-metal/llama-addon.node'],
      ['mac', 'x64', 'node_modules/@node-llama-cpp/mac-x64/bins/mac-x64/llama-addon.node'],
      ['win', 'x64', 'node_modules/@node-llama-cpp/win-x64/bins/win-x64/llama-addon.node'],
    ];
    for (const [osKey, arch, file] of keep) expect(packsModuleFile(file, osKey, arch), `${osKey}-${arch} keeps ${file}`).toBe(true);
    // …and drop GPU variants, other platforms' builds and build-only sources.
    const drop: [string, string, string][] = [
      ['linux', 'x64', 'node_modules/@node-llama-cpp/linux-x64-cuda/bins/linux-x64-cuda/llama-addon.node'],
      ['linux', 'x64', 'node_modules/@node-llama-cpp/linux-x64-cuda-ext/package.json'],
      ['linux', 'x64', 'node_modules/@node-llama-cpp/linux-x64-vulkan/bins/linux-x64-vulkan/llama-addon.node'],
      ['linux', 'x64', 'node_modules/@node-llama-cpp/linux-arm64/bins/linux-arm64/llama-addon.node'],
      ['win', 'x64', 'node_modules/@node-llama-cpp/win-x64-cuda/bins/win-x64-cuda/llama-addon.node'],
      ['mac', 'arm64', 'node_modules/@node-llama-cpp/mac-x64/bins/mac-x64/llama-addon.node'],
      ['linux', 'x64', 'node_modules/node-llama-cpp/llama/gitRelease.bundle'],
      ['linux', 'x64', 'node_modules/better-sqlite3/deps/sqlite3/sqlite3.c'],
      ['linux', 'x64', 'node_modules/better-sqlite3/build/Release/obj.target/better_sqlite3/src/better_sqlite3.o'],
    ];
    for (const [osKey, arch, file] of drop) expect(packsModuleFile(file, osKey, arch), `${osKey}-${arch} drops ${file}`).toBe(false);
  });

  it('rebuilds native modules in `npm run dist`, never at install time', () => {
    expect(pkg.scripts.dist).toBe('node scripts/dist.mjs');
    expect(fs.existsSync(path.join(root, 'scripts', 'dist.mjs'))).toBe(true);
    // electron-builder's own rebuild is off: dist.mjs rebuilds better-sqlite3 for Electron itself.
    expect(config.npmRebuild).toBe(false);
    for (const hook of ['preinstall', 'install', 'postinstall', 'prepare', 'prepublish', 'preprepare', 'postprepare']) {
      const command = pkg.scripts[hook] ?? '';
      expect(command, `package.json scripts.${hook}`).not.toMatch(/electron-builder|electron-rebuild|@electron\/rebuild|install-app-deps|dist\.mjs|run dist/);
    }
  });

  describe.runIf(process.platform === 'linux' && process.arch === 'x64')('a --dir pack with a stand-in Electron (no network)', () => {
    const work = fs.mkdtempSync(path.join(os.tmpdir(), 'reverie-pack-'));
    afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

    it('lays out app.asar and app.asar.unpacked as configured', () => {
      const fakeElectron = path.join(work, 'electron-dist');
      fs.mkdirSync(fakeElectron);
      fs.writeFileSync(path.join(fakeElectron, 'electron'), '#!/bin/sh\nexit 0\n', { mode: 0o755 });
      const output = path.join(work, 'out');
      const cli = path.join(path.dirname(requireFromRoot.resolve('electron-builder/package.json')), 'cli.js');
      const result = spawnSync(
        process.execPath,
        [cli, '--config', 'electron-builder.yml', '--linux', 'dir', '--x64', '--publish', 'never', `-c.directories.output=${output}`, `-c.electronDist=${fakeElectron}`],
        { cwd: root, encoding: 'utf8', env: { ...process.env, ELECTRON_BUILDER_CACHE: path.join(work, 'cache') } },
      );
      expect(result.status, `${result.stdout}\n${result.stderr}`).toBe(0);
      const resources = path.join(output, 'linux-unpacked', 'resources');
      expect(fs.existsSync(path.join(output, 'linux-unpacked', 'reverie')), 'executable named reverie').toBe(true);

      // app.asar starts with a pickled header: uint32 4, uint32 header size, uint32 payload
      // size, uint32 JSON length, then the JSON file tree.
      interface AsarDir {
        files: Record<string, AsarDir | { size: number; unpacked?: boolean }>;
      }
      const asar = fs.readFileSync(path.join(resources, 'app.asar'));
      const jsonLength = asar.readUInt32LE(12);
      const header = JSON.parse(asar.toString('utf8', 16, 16 + jsonLength)) as AsarDir;
      const entry = (relative: string) => {
        let node: AsarDir | { size: number; unpacked?: boolean } | undefined = header;
        for (const part of relative.split('/')) node = node && 'files' in node ? node.files[part] : undefined;
        return node;
      };
      for (const file of [pkg.main, 'package.json', 'out/core/host/engineProcess.js', 'out/renderer/index.html', 'bin/reverie.js', 'resources/icons/tray.png', 'resources/demo-workspace/MEMORY.md']) {
        expect(entry(file), `app.asar has ${file}`).toBeDefined();
      }
      expect(entry('out/core/host/engineProcess.js.map')).toBeUndefined();
      expect(entry('resources/build')).toBeUndefined();

      const unpacked = path.join(resources, 'app.asar.unpacked', 'node_modules');
      expect(fs.existsSync(path.join(unpacked, 'better-sqlite3/build/Release/better_sqlite3.node'))).toBe(true);
      expect(fs.existsSync(path.join(unpacked, 'sqlite-vec-linux-x64/vec0.so'))).toBe(true);
      expect(fs.existsSync(path.join(unpacked, '@node-llama-cpp/linux-x64/bins/linux-x64/llama-addon.node'))).toBe(true);
      const llamaPackages = fs.readdirSync(path.join(unpacked, '@node-llama-cpp'));
      expect(llamaPackages).toEqual(['linux-x64']);
      expect(entry('node_modules/@node-llama-cpp/linux-x64-cuda')).toBeUndefined();
      expect(entry('node_modules/node-llama-cpp/llama/gitRelease.bundle')).toBeUndefined();
    }, 180_000);
  });
});
