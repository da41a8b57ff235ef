#!/usr/bin/env node
// Bundles the commands agents run on every event (`reverie hook`, the thin `reverie mcp` bridge, the thin
// `search | status | get`) into one CommonJS file each, next to their compiled modules in out/: one file
// read instead of ~20 ES modules resolved and linked (the ESM loader was a quarter of a hook's CPU).
// Each bundle's source files are listed in `<bundle>.inputs.json`, so bin/reverie.js can tell a stale
// bundle by stating those few files instead of walking all of core/src.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Source entry → bundle in out/, beside the entry's compiled module (its dynamic imports stay relative to it). */
export const FAST_CLIENTS = [
  ['core/src/cli/hook/hookMain.ts', 'out/core/cli/hook/hookMain.bundle.cjs'],
  ['core/src/cli/fast/mcpFast.ts', 'out/core/cli/fast/mcpFast.bundle.cjs'],
  ['core/src/cli/fast/thinCommands.ts', 'out/core/cli/fast/thinCommands.bundle.cjs'],
];

/**
 * Dynamic imports (the no-host hook, the engine log) stay imports of the compiled ES modules, loaded
 * only when that path runs; their sources are collected in `found` so staleness covers them too.
 */
function keepDynamicImports(found) {
  return {
    name: 'keep-dynamic-imports',
    setup(build) {
      build.onResolve({ filter: /.*/ }, (args) => {
        if (args.kind !== 'dynamic-import') return undefined;
        if (args.path.startsWith('.')) found.add(path.relative(root, path.resolve(args.resolveDir, args.path.replace(/\.js$/, '.ts'))));
        return { path: args.path, external: true };
      });
    },
  };
}

/**
 * Node's built-ins stay `require`s, and one the bundle imports but never calls is not required at all
 * (esbuild keeps an unused external import for its side effects otherwise): the thin search imports
 * ownerToken.ts for its reader, and its writer's node:crypto would cost every start ~5 ms of CPU.
 */
const unusedBuiltinsDropped = {
  name: 'unused-builtins-dropped',
  setup(build) {
    build.onResolve({ filter: /^node:/ }, (args) => ({ path: args.path, external: true, sideEffects: false }));
  },
};

const COMMON = { bundle: true, format: 'cjs', platform: 'node', target: 'node20', packages: 'external', metafile: true, logLevel: 'warning', absWorkingDir: root };

/** Every Reverie source file `entry` runs, its dynamically imported modules' included. */
async function bundleInputs(entry, firstInputs, dynamic) {
  const inputs = new Set(firstInputs);
  const pending = [...dynamic];
  while (pending.length > 0) {
    const next = pending.pop();
    if (inputs.has(next) || !fs.existsSync(path.join(root, next))) continue;
    const more = new Set();
    const result = await esbuild.build({ ...COMMON, entryPoints: [path.join(root, next)], write: false, plugins: [keepDynamicImports(more), unusedBuiltinsDropped] });
    for (const input of Object.keys(result.metafile.inputs)) inputs.add(input);
    pending.push(...more);
  }
  return [...inputs].filter((input) => !input.startsWith('node_modules/')).sort();
}

/** Writes every bundle and its inputs list under `outRoot` (the repository's root by default: out/…); returns the bundles' paths. */
export async function bundleFastClients(outRoot = root) {
  const written = [];
  for (const [entry, bundle] of FAST_CLIENTS) {
    const dynamic = new Set();
    // Packages stay packages (a bundled copy would drift from node_modules).
    const result = await esbuild.build({ ...COMMON, entryPoints: [path.join(root, entry)], outfile: path.join(outRoot, bundle), plugins: [keepDynamicImports(dynamic), unusedBuiltinsDropped] });
    const inputs = await bundleInputs(entry, Object.keys(result.metafile.inputs), dynamic);
    fs.writeFileSync(path.join(outRoot, `${bundle}.inputs.json`), `${JSON.stringify(inputs)}\n`);
    written.push(path.join(outRoot, bundle));
  }
  return written;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await bundleFastClients();
