#!/usr/bin/env node
// Bundles the full command line (core/src/cli/main.ts and every module it runs, its dynamic imports
// as chunks) into out/core/cli-bundle/: Node's ES module loader spent ~250 ms of CPU resolving, reading
// and linking the engine's ~470 modules on every `reverie search` without a host. Packages stay
// packages (zod, better-sqlite3, the MCP SDK: one copy each in a process). Worker threads and child
// processes still start from the compiled modules in out/core: every `import.meta.url` of a bundled
// source is rewritten to the URL of that source's compiled module, so siblings are found where they are.
// bin/reverie.js runs it whenever it runs out/ at all (no source newer than the build stamp).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export const ENGINE_CLI_ENTRY = 'core/src/cli/main.ts';
export const ENGINE_SEARCH_ENTRY = 'core/src/cli/searchMain.ts';
export const ENGINE_CLI_DIR = 'out/core/cli-bundle';

/** `import.meta.url` in core/src/X.ts becomes the URL of out/core/X.js, computed from the chunk's own URL. */
function compiledModuleUrls(bundleDir) {
  return {
    name: 'compiled-module-urls',
    setup(build) {
      build.onLoad({ filter: /[/\\]core[/\\]src[/\\].*\.ts$/ }, async (args) => {
        const text = await fs.promises.readFile(args.path, 'utf8');
        if (!text.includes('import.meta.url')) return undefined;
        const compiled = path.join(root, 'out', 'core', path.relative(path.join(root, 'core', 'src'), args.path)).replace(/\.ts$/, '.js');
        const relative = path.relative(bundleDir, compiled).split(path.sep).join('/');
        return { contents: text.replaceAll('import.meta.url', `new URL(${JSON.stringify(relative)}, import.meta.url).href`), loader: 'ts' };
      });
    },
  };
}

/** Writes the bundle under `outRoot` (the repository's root by default); returns its entry and the sources it holds. */
export async function bundleEngineCli(outRoot = root) {
  const outdir = path.join(outRoot, ENGINE_CLI_DIR);
  fs.rmSync(outdir, { recursive: true, force: true });
  const result = await esbuild.build({
    // searchMain: `reverie search` without a host, its chunks shared with main (see core/src/cli/searchMain.ts).
    entryPoints: { main: path.join(root, ENGINE_CLI_ENTRY), searchMain: path.join(root, ENGINE_SEARCH_ENTRY) },
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    metafile: true,
    logLevel: 'warning',
    absWorkingDir: root,
    outdir,
    // The rewritten URLs point into out/core, which is laid out the same under any outRoot.
    plugins: [compiledModuleUrls(path.join(root, ENGINE_CLI_DIR))],
  });
  return { entry: path.join(outdir, 'main.js'), inputs: Object.keys(result.metafile.inputs).filter((input) => !input.startsWith('node_modules/')) };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await bundleEngineCli();
