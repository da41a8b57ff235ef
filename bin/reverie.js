#!/usr/bin/env node
// The `reverie` command. Runs the built engine (out/core); in a checkout that has not been
// built yet it falls back to the TypeScript sources through tsx.
import fs from 'node:fs';
import path from 'node:path';
import { Writable } from 'node:stream';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const argv = process.argv.slice(2);
// `--version` alone needs nothing but package.json.
if (argv.length === 1 && argv[0] === '--version') {
  process.stdout.write(`${JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')).version}\n`);
  process.exit(0);
}
const built = path.join(root, 'out', 'core', 'cli', 'main.js');
let cli = path.join(root, 'out', 'core', 'cli');
let ext = '.js';
// REVERIE_FROM_SOURCE=1 runs the TypeScript sources (the test suite uses it so it never tests a stale build).
if (process.env.REVERIE_FROM_SOURCE === '1' || !fs.existsSync(built) || isBuildStale()) {
  const { register } = await import('tsx/esm/api');
  register();
  cli = path.join(root, 'core', 'src', 'cli');
  ext = '.ts';
}
const entry = path.join(cli, `main${ext}`);
// Hooks and `reverie mcp` run on every agent event and start: they load only what they use (a host answers them over its socket).
const wantsHelp = argv.includes('--help') || argv.includes('-h');
if (argv[0] === 'hook' && !wantsHelp) {
  const { runHook } = await import(pathToFileURL(path.join(cli, 'hook', `hookMain${ext}`)).href);
  await finish(await runHook(argv.slice(1)));
}
if (argv[0] === 'mcp' && !wantsHelp) {
  const { runMcpFast } = await import(pathToFileURL(path.join(cli, 'fast', `mcpFast${ext}`)).href);
  const code = await runMcpFast(argv.slice(1), () => import(pathToFileURL(entry).href).then((m) => m.main(argv)));
  await finish(code);
}
// `reverie search | status | get` ask a running host over its socket and load no engine (REVERIE_THIN=0 turns that off).
if (['search', 'status', 'get'].includes(argv[0]) && !wantsHelp && process.env.REVERIE_THIN !== '0') {
  const { runThinCommand } = await import(pathToFileURL(path.join(cli, 'fast', `thinCommands${ext}`)).href);
  await finish(await runThinCommand(argv, () => import(pathToFileURL(entry).href).then((m) => m.main(argv))));
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

const { main } = await import(pathToFileURL(entry).href);
await finish(await main(argv));

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
    Writable.prototype.write.call(stream, '', () => resolve());
  });
}
