/**
 * Fuzzed inputs (seeded): Markdown, transcripts, import trees and queries. Each must be indexed,
 * skipped or refused within 5 s per MB (at least 8 s: a process start on a busy machine); a
 * timeout is a hang, exit 2 or an uncaught stack a crash.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { firstLine, runCli, writeFile, type Family, type TortureContext, type TrialWorkspace } from '../harness.js';
import { budgetMs, verdict } from '../verify.js';
import { fuzzQuery, importInput, markdownInput, transcriptInput, type FuzzInput } from '../fuzzInputs.js';
import { generatedNotes } from '../corpus.js';

const MIN_BUDGET_MS = 8000;

function layDown(root: string, input: FuzzInput): number {
  let bytes = 0;
  for (const [rel, content] of Object.entries(input.files)) {
    // An input that makes a workspace file a folder ("MEMORY.md is a folder") replaces the file.
    for (let dir = path.dirname(rel); dir !== '.'; dir = path.dirname(dir)) {
      if (fs.statSync(path.join(root, dir), { throwIfNoEntry: false })?.isFile()) fs.rmSync(path.join(root, dir));
    }
    writeFile(root, rel, content);
    bytes += content.length;
  }
  for (const [rel, target] of Object.entries(input.symlinks ?? {})) {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.symlinkSync(target, path.join(root, rel));
  }
  for (const rel of input.fifos ?? []) {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    execFileSync('mkfifo', [path.join(root, rel)]);
  }
  return bytes;
}

interface Tally {
  inputs: number;
  hangs: number;
  crashes: number;
  maxSecondsPerMb: number;
  /** The input behind maxSecondsPerMb, printed with the table. */
  slowest: string;
  failures: string[];
}

async function judged(t: Tally, what: string, args: string[], ws: TrialWorkspace, bytes: number): Promise<void> {
  const budget = budgetMs(bytes, MIN_BUDGET_MS);
  const run = await runCli(args, ws.env, budget);
  const v = verdict(run);
  // Per MB only where there is a MB to speak of: below it a process start (~1 s) is most of the time.
  const perMb = run.ms / 1000 / (bytes / 1_048_576);
  if (bytes >= 1_048_576 && perMb > t.maxSecondsPerMb) {
    t.maxSecondsPerMb = perMb;
    t.slowest = `${what}: ${(bytes / 1_048_576).toFixed(1)} MB in ${(run.ms / 1000).toFixed(1)} s`;
  }
  if (v === 'hang') {
    t.hangs++;
    t.failures.push(`hang: ${what} (${(bytes / 1_048_576).toFixed(2)} MB) not done in ${(budget / 1000).toFixed(0)} s`);
  } else if (v === 'crash') {
    t.crashes++;
    t.failures.push(`crash: ${what}: exit ${run.code}: ${firstLine(run.stderr)}`);
  }
}

async function markdownBatches(ctx: TortureContext, t: Tally, count: number): Promise<void> {
  let batch: FuzzInput[] = [];
  const flush = async () => {
    if (batch.length === 0) return;
    const ws = ctx.workspace(generatedNotes(ctx.rng, 5));
    let bytes = 0;
    batch.forEach((input, k) => (bytes += layDown(ws.root, { ...input, files: Object.fromEntries(Object.entries(input.files).map(([rel, c]) => [rel.replace(/f\d+\.md$/, `f${k}.md`), c])) })));
    const kinds = [...new Set(batch.map((b) => b.kind))].join(', ');
    t.inputs += batch.length;
    await judged(t, `index of ${batch.length} Markdown inputs [${kinds}]`, ['index', ...ws.at], ws, bytes);
    if (batch.some((b) => b.heavy)) await judged(t, `search after [${kinds}]`, ['search', 'build host', ...ws.at], ws, bytes);
    batch = [];
  };
  for (let i = 0; i < count; i++) {
    const input = markdownInput(ctx.rng, i, ctx.quick);
    if (input.heavy) {
      await flush();
      batch = [input];
      await flush();
    } else {
      batch.push(input);
      if (batch.length >= 25) await flush();
    }
  }
  await flush();
}

export const fuzz: Family = {
  name: 'fuzz',
  async run(ctx) {
    const t: Tally = { inputs: 0, hangs: 0, crashes: 0, maxSecondsPerMb: 0, slowest: '', failures: [] };
    await markdownBatches(ctx, t, ctx.trials(12, 420));
    const transcripts = ctx.trials(4, 60);
    for (let start = 0; start < transcripts; start += 10) {
      const ws = ctx.workspace(generatedNotes(ctx.rng, 3));
      const home = path.join(ws.dataDir, 'fuzz-home');
      let bytes = 0;
      const n = Math.min(10, transcripts - start);
      for (let i = 0; i < n; i++) bytes += layDown(home, transcriptInput(ctx.rng, start + i));
      t.inputs += n;
      await judged(t, `sessions ingest of ${n} broken transcripts`, ['sessions', 'ingest', '--claude', path.join(home, 'claude'), '--codex', path.join(home, 'codex'), ...ws.at], ws, bytes);
    }
    const trees = ctx.trials(2, 30);
    for (let i = 0; i < trees; i++) {
      const ws = ctx.workspace(generatedNotes(ctx.rng, 3));
      const input = importInput(ctx.rng, i, ctx.quick);
      const home = path.join(ws.dataDir, 'fuzz-home');
      const bytes = layDown(home, input);
      t.inputs++;
      const from = ['--source', 'hermes', '--from', path.join(home, `hermes${i}`)];
      await judged(t, `import plan of a hostile Hermes tree`, ['import', 'plan', ...from, ...ws.at], ws, bytes);
      await judged(t, `import apply of a hostile Hermes tree`, ['import', 'apply', ...from, ...ws.at], ws, bytes);
    }
    const queries = ctx.trials(2, 30);
    const ws = ctx.workspace(generatedNotes(ctx.rng, 50));
    await runCli(['index', ...ws.at], ws.env);
    for (let i = 0; i < queries; i++) {
      const query = fuzzQuery(ctx.rng);
      t.inputs++;
      await judged(t, `search ${JSON.stringify(query.slice(0, 30))}`, ['search', query, ...ws.at], ws, Buffer.byteLength(query));
    }
    if (t.slowest) console.log(`  fuzz: slowest per MB: ${t.slowest}`);
    return { trials: t.inputs, failures: t.failures, figures: { inputs: t.inputs, hangs: t.hangs, crashes: t.crashes, 'max s/MB (inputs ≥ 1 MB)': t.maxSecondsPerMb.toFixed(1) } };
  },
};
