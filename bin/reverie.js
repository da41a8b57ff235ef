#!/usr/bin/env node
// The `reverie` command. Runs the built engine (out/core); in a checkout that has not been
// built yet it falls back to the TypeScript sources through tsx.
// CommonJS (bin/package.json): an ES module entry starts Node's ES module loader first, about 8 ms
// of CPU on every hook; the engine's ES modules are still loaded with import() when a command needs them.
'use strict';
/* eslint-disable @typescript-eslint/no-require-imports -- a CommonJS file */
const fs = require('node:fs');
const path = require('node:path');
const { pathToFileURL } = require('node:url');

const root = path.resolve(__dirname, '..');
const argv = process.argv.slice(2);
// `--version` alone needs nothing but package.json.
if (argv.length === 1 && argv[0] === '--version') {
  process.stdout.write(`${JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')).version}\n`);
  process.exit(0);
}
const fromSource = process.env.REVERIE_FROM_SOURCE === '1';
const wantsHelp = argv.includes('--help') || argv.includes('-h');
// Hooks, `reverie mcp` and `search | status | get` run on every agent event and start: a host answers
// them over its socket, so they load one pre-built file (scripts/bundleFastClients.mjs) and no engine.
const fast = wantsHelp ? null : argv[0] === 'hook' ? 'hook/hookMain' : argv[0] === 'mcp' ? 'fast/mcpFast' : ['search', 'status', 'get'].includes(argv[0]) && process.env.REVERIE_THIN !== '0' ? 'fast/thinCommands' : null;
const fastBundle = fast && !fromSource ? freshBundle(path.join(root, 'out', 'core', 'cli', `${fast}.bundle.cjs`)) : null;

const built = path.join(root, 'out', 'core', 'cli', 'main.js');
let engine = null;
/** Where the engine's CLI modules are: out/, or the TypeScript sources through tsx. Decided on first use. */
async function engineCli() {
  // REVERIE_FROM_SOURCE=1 runs the TypeScript sources (the test suite uses it so it never tests a stale build).
  if (!engine && (fromSource || !fs.existsSync(built) || isBuildStale())) {
    const { register } = await import('tsx/esm/api');
    register();
    engine = { cli: path.join(root, 'core', 'src', 'cli'), ext: '.ts' };
  }
  engine ??= { cli: path.join(root, 'out', 'core', 'cli'), ext: '.js' };
  return engine;
}
async function fullCommand() {
  const { cli, ext } = await engineCli();
  // A search no host answered loads the search command alone (cli/searchMain.ts), not every command's modules.
  const name = argv[0] === 'search' ? 'searchMain' : 'main';
  // Built with out/ (scripts/bundleEngineCli.mjs) and so fresh whenever out/ is: one bundle instead of the
  // engine's ~470 ES modules, ~250 ms of CPU less per command.
  const bundled = path.join(root, 'out', 'core', 'cli-bundle', `${name}.js`);
  const entry = ext === '.js' && fs.existsSync(bundled) ? bundled : path.join(cli, `${name}${ext}`);
  const { main } = await import(pathToFileURL(entry).href);
  return main(argv);
}
async function fastModule() {
  if (fastBundle) return require(fastBundle);
  const { cli, ext } = await engineCli();
  return import(pathToFileURL(path.join(cli, `${fast}${ext}`)).href);
}
/** Runs the command and exits with its code. */
async function run() {
  if (fast === 'hook/hookMain') {
    const { runHook } = await fastModule();
    return finish(await runHook(argv.slice(1)));
  }
  if (fast === 'fast/mcpFast') {
    const { runMcpFast } = await fastModule();
    return finish(await runMcpFast(argv.slice(1), fullCommand));
  }
  // `reverie search | status | get` ask a running host over its socket and load no engine (REVERIE_THIN=0 turns that off).
  if (fast === 'fast/thinCommands') {
    const { runThinCommand } = await fastModule();
    return finish(await runThinCommand(argv, fullCommand));
  }
  return finish(await fullCommand());
}

/**
 * `bundle` when it exists and none of the sources it was built from (its .inputs.json) is newer than
 * the last build; null otherwise (then the command runs as the other commands do). An installed
 * package ships without sources: missing sources are never newer.
 */
function freshBundle(bundle) {
  let inputs;
  try {
    inputs = JSON.parse(fs.readFileSync(`${bundle}.inputs.json`, 'utf8'));
  } catch {
    return null; // not built (or built before bundles existed)
  }
  const stamp = fs.statSync(path.join(root, 'out', '.build-stamp'), { throwIfNoEntry: false })?.mtimeMs;
  if (stamp === undefined) return null;
  for (const input of inputs) if ((fs.statSync(`${root}/${input}`, { throwIfNoEntry: false })?.mtimeMs ?? 0) > stamp) return null;
  return bundle;
}

/**
 * True when an engine source file is newer than the last build (a developer edited core/ since).
 * Every hook and `reverie mcp` start in a checkout pays for this walk (~380 files), so it joins
 * paths by hand and never throws: path.join's normalising was half its CPU time.
 */
function isBuildStale() {
  const stamp = fs.statSync(path.join(root, 'out', '.build-stamp'), { throwIfNoEntry: false })?.mtimeMs;
  if (stamp === undefined) return true;
  const stack = [path.join(root, 'core', 'src')];
  while (stack.length > 0) {
    const dir = stack.pop();
    let entries = [];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      continue; // an installed app ships without sources
    }
    for (const entry of entries) {
      const p = `${dir}/${entry.name}`;
      if (entry.isDirectory()) stack.push(p);
      else if ((fs.statSync(p, { throwIfNoEntry: false })?.mtimeMs ?? 0) > stamp) return true;
    }
  }
  return false;
}

run().catch((error) => {
  // What an ES module entry's top-level await did with an error: printed, exit code 1.
  console.error(error);
  process.exit(1);
});

/**
 * process.exit drops whatever a pipe has not taken yet (a 270 KB `status --json | wc -c` read 64 KB),
 * so exit only once stdout and stderr have handed over everything written; exiting at all still
 * matters, as a worker or timer left open must not keep a finished command alive.
 */
async function finish(code) {
  process.exitCode = code;
  await Promise.all([process.stdout, process.stderr].map(flushed));
  process.exit(code);
}

/** Resolves once every byte written to `stream` so far is out (or the reader is gone). */
function flushed(stream) {
  return new Promise((resolve) => {
    if (stream.destroyed || !stream.writable) return resolve();
    stream.once('error', () => resolve());
    // Writable.prototype.write: `reverie mcp` re-points process.stdout.write at stderr; the real stream must flush.
    // An empty write's callback runs after every earlier write has been handed to the OS.
    require('node:stream').Writable.prototype.write.call(stream, '', () => resolve());
  });
}
