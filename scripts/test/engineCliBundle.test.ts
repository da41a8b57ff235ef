import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleEngineCli, ENGINE_CLI_DIR } from '../bundleEngineCli.mjs';
import { cliEnv, repoRoot, runCli } from '../../core/test/helpers/cli.js';
import { createTempWorkspace, SAMPLE_NOTES, type TempWorkspace } from '../../core/test/helpers/workspace.js';

// Inside the repository, so the bundle's chunks find node_modules as out/ does; removed afterwards.
const outRoot = path.join(repoRoot, `.test-engine-bundle-${process.pid}`);
let entry: string;
let sources: string[];
let ws: TempWorkspace;

beforeAll(async () => {
  ({ entry, inputs: sources } = await bundleEngineCli(outRoot));
  ws = createTempWorkspace(SAMPLE_NOTES);
}, 120_000);
afterAll(() => {
  fs.rmSync(outRoot, { recursive: true, force: true });
  ws?.cleanup();
});

/** The bundled command line in a fresh Node, as bin/reverie.js runs it. */
function runBundled(args: string[], entryFile = entry): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const code = `import(${JSON.stringify(`file://${entryFile}`)}).then(({ main }) => main(process.argv.slice(1))).then((c) => { process.exitCode = c; })`;
    const child = spawn(process.execPath, ['-e', code, '--', ...args], { env: cliEnv(ws.dataDir), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('exit', (exitCode) => resolve({ code: exitCode, stdout, stderr }));
  });
}

describe('the bundled command line (out/core/cli-bundle)', () => {
  it('points every import.meta.url at the compiled module of its source, so workers start from out/core', () => {
    const chunks = fs.readdirSync(path.join(outRoot, ENGINE_CLI_DIR)).filter((f) => f.endsWith('.js'));
    const text = chunks.map((f) => fs.readFileSync(path.join(outRoot, ENGINE_CLI_DIR, f), 'utf8')).join('\n');
    const rewritten = [...text.matchAll(/new URL\("([^"]+)", import\.meta\.url\)/g)].map((m) => m[1]!);
    // The search workers' pool, the transcript readers' pool and the package root, at least.
    expect(rewritten).toEqual(expect.arrayContaining(['../search/workers/searchWorkerPool.js', '../sessions/transcriptReaderPool.js', '../platform/packageRoot.js']));
    for (const url of rewritten) {
      const compiled = path.resolve(repoRoot, ENGINE_CLI_DIR, url);
      const source = path.join(repoRoot, 'core', 'src', path.relative(path.join(repoRoot, 'out', 'core'), compiled)).replace(/\.js$/, '.ts');
      expect(fs.existsSync(source), url).toBe(true);
    }
    // No other use of the chunk's own URL is left (it would name out/core/cli-bundle).
    expect(text.replace(/new URL\("[^"]+", import\.meta\.url\)/g, '')).not.toMatch(/import\.meta\.url/);
    expect(sources).toEqual(expect.arrayContaining(['core/src/cli/main.ts', 'core/src/cli/searchMain.ts']));
  });

  it('prints what the command line from the sources prints', async () => {
    const where = ['--workspace', ws.root, '--data-dir', ws.dataDir];
    // The bundle indexes the workspace; then both read the same index.
    const indexed = await runBundled(['index', '--json', ...where]);
    expect(indexed.code, indexed.stderr).toBe(0);
    expect((JSON.parse(indexed.stdout) as { added: number }).added).toBe(Object.keys(SAMPLE_NOTES).length);
    for (const args of [['search', 'atlas', 'systemd', '--json'], ['search', 'restic', '--limit', '2'], ['get', 'MEMORY.md', '--lines', '3'], ['status', '--json'], ['search', '--bogus']]) {
      const bundled = await runBundled([...args, ...where]);
      const fromSource = await runCli([...args, ...where], cliEnv(ws.dataDir, { REVERIE_THIN: '0' }), 240_000);
      const steady = (out: string) => out.replace(/"(tookMs|durationMs|startedAt|finishedAt|at)":[^,}]+/g, '"$1":_');
      expect({ code: bundled.code, stdout: steady(bundled.stdout), stderr: bundled.stderr }, args.join(' ')).toEqual({ code: fromSource.code, stdout: steady(fromSource.stdout), stderr: fromSource.stderr });
      if (args[0] !== 'search') continue;
      // What bin/reverie.js runs for a search no host answers: the search command's own entry.
      const searchOnly = await runBundled([...args, ...where], path.join(path.dirname(entry), 'searchMain.js'));
      expect({ code: searchOnly.code, stdout: steady(searchOnly.stdout), stderr: searchOnly.stderr }, `searchMain ${args.join(' ')}`).toEqual({ code: fromSource.code, stdout: steady(fromSource.stdout), stderr: fromSource.stderr });
    }
  }, 600_000);
});
