#!/usr/bin/env node
// `npm test`: typecheck, lint, layer boundaries, unit tests, build, the quick torture run, end-to-end tests.
// Prints one closing line "N passed, N failed" over all vitest suites.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const resultsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'reverie-test-results-'));
const totals = { passed: 0, failed: 0, skipped: 0 };

function step(label, command, args) {
  const started = Date.now();
  console.error(`\n=== ${label}`);
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit' });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  if (result.status !== 0) {
    console.error(`=== ${label}: FAILED after ${seconds} s`);
    return false;
  }
  console.error(`=== ${label}: ok (${seconds} s)`);
  return true;
}

function vitest(label, config, outputName) {
  const output = path.join(resultsDir, outputName);
  const args = [path.join(root, 'node_modules', 'vitest', 'vitest.mjs'), 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${output}`];
  if (config) args.push('-c', config);
  const ok = step(label, process.execPath, args);
  try {
    const report = JSON.parse(fs.readFileSync(output, 'utf8'));
    totals.passed += report.numPassedTests ?? 0;
    totals.failed += report.numFailedTests ?? 0;
    totals.skipped += (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
  } catch {
    if (!ok) totals.failed += 1;
  }
  return ok;
}

const bin = (name) => path.join(root, 'node_modules', '.bin', name);

/**
 * The static checks are single-threaded programs: run them as many at a time as there are cores,
 * each one's output printed whole when it ends (interleaved output would be unreadable).
 */
async function staticChecks() {
  const tsc = path.join(root, 'node_modules', 'typescript', 'bin', 'tsc');
  const jobs = [
    ...['core', 'renderer', 'electron', 'e2e', 'scripts'].map((project) => ({ label: `typecheck ${project}`, command: process.execPath, args: [tsc, '-p', project] })),
    { label: 'lint', command: bin('eslint'), args: ['--max-warnings', '0', '.'] },
    { label: 'layer boundaries', command: process.execPath, args: ['scripts/check-boundaries.mjs'] },
  ];
  console.error(`\n=== static checks (typecheck of core, renderer, electron, e2e, scripts; lint; layer boundaries)`);
  const started = Date.now();
  let failed = 0;
  const run = (job) => new Promise((resolve) => {
    const jobStarted = Date.now();
    const child = spawn(job.command, job.args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    const output = [];
    child.stdout.on('data', (chunk) => output.push(chunk));
    child.stderr.on('data', (chunk) => output.push(chunk));
    child.on('error', (error) => output.push(Buffer.from(`${error.message}\n`)));
    child.on('close', (code) => {
      const seconds = ((Date.now() - jobStarted) / 1000).toFixed(1);
      if (code !== 0) failed += 1;
      process.stderr.write(`--- ${job.label}: ${code === 0 ? 'ok' : 'FAILED'} (${seconds} s)\n`);
      if (output.length > 0) process.stderr.write(Buffer.concat(output));
      resolve();
    });
  });
  const queue = [...jobs];
  const lanes = Array.from({ length: Math.max(2, os.availableParallelism()) }, async () => {
    for (let job = queue.shift(); job; job = queue.shift()) await run(job);
  });
  await Promise.all(lanes);
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  console.error(`=== static checks: ${failed === 0 ? 'ok' : `${failed} FAILED`} (${seconds} s)`);
  return failed === 0;
}

const checks = [
  staticChecks,
  () => vitest('unit and integration tests (vitest)', null, 'unit.json'),
  () => step('build', process.execPath, ['scripts/build.mjs']),
  // After the build: the package as `npm pack` makes it, installed globally without dev dependencies.
  () => step('pack and install the command (npm run test:pack)', process.execPath, ['scripts/packInstallCheck.mjs']),
  // After the build: the torture children start from out/ (fast) instead of the sources through tsx.
  () => step('torture suite, quick seeded subset (npm run torture -- --quick)', bin('tsx'), ['scripts/torture/main.ts', '--quick']),
  () => vitest('end-to-end tests (Playwright + Chromium)', 'e2e/vitest.config.ts', 'e2e.json'),
];

let ok = true;
for (const check of checks) {
  if (!(await check())) {
    ok = false;
    if (totals.failed === 0) totals.failed = 1; // a failed typecheck/lint/build counts as a failure
  }
}
fs.rmSync(resultsDir, { recursive: true, force: true });
console.log(`\n${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(ok ? 0 : 1);
