#!/usr/bin/env node
// The `reverie` command. Runs the built engine (out/core); in a checkout that has not been
// built yet it falls back to the TypeScript sources through tsx.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const built = path.join(root, 'out', 'core', 'cli', 'main.js');
let entry = built;
// REVERIE_FROM_SOURCE=1 runs the TypeScript sources (the test suite uses it so it never tests a stale build).
if (process.env.REVERIE_FROM_SOURCE === '1' || !fs.existsSync(built)) {
  const { register } = await import('tsx/esm/api');
  register();
  entry = path.join(root, 'core', 'src', 'cli', 'main.ts');
}
const { main } = await import(pathToFileURL(entry).href);
const code = await main(process.argv.slice(2));
// Let stdout drain before exiting so `--json` output is never cut short.
process.exitCode = code;
setImmediate(() => process.exit(code));
