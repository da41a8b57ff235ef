/**
 * Hermes import speed (issue 23: any input indexed in ≤ 5 s per MB): a ~2 MB Hermes MEMORY.md of
 * invented `§` entries in a temp home, imported by the real `reverie import apply` (which copies
 * and then indexes it). Wall and CPU seconds come from /usr/bin/time around the child, so process
 * start is included, as a person would pay it. Median of three fresh workspaces.
 *
 *   npm run bench -- --only hermes-import
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Rng } from './prng.js';
import { makeTempWorkspace, removeTempWorkspace } from './engine.js';
import { log, percentile, round } from './stats.js';

export interface HermesImportFigures {
  hermes_import_mb: number;
  hermes_import_entries: number;
  hermes_import_wall_s: number;
  hermes_import_cpu_s: number;
  /** CPU seconds per MB (the goal: ≤ 5). */
  hermes_import_cpu_s_per_mb: number;
  hermes_import_wall_s_per_mb: number;
  details: { runs: Array<{ wall_s: number; cpu_s: number }>; load: string };
}

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const PEOPLE = ['Mira', 'Tomasz', 'Ines', 'Kwame', 'Yuki', 'Sven', 'Lucia', 'Arjun', 'Noor', 'Felix'];
const PROJECTS = ['Kestrel', 'Ledgerd', 'Atlas', 'Piranesi', 'Glyph', 'Harbor', 'Quill', 'Tundra'];
const TOOLS = ['pnpm', 'restic', 'postgres', 'hetzner', 'docker', 'terraform', 'vitest', 'ruff', 'uv', 'caddy'];
const VERBS = ['prefers', 'deploys', 'reviews', 'pins', 'backs up', 'rotates', 'benchmarks', 'migrates', 'tags', 'archives'];
const OBJECTS = ['the staging gateway', 'invoice exports', 'the release branch', 'nightly snapshots', 'schema changes', 'the loopback proxy', 'timezone cutoffs', 'dentist reminders', 'tax statements', 'module boundaries'];

/** One invented Hermes entry: a sentence or two of the kind an agent records about its user. */
function hermesEntry(rng: Rng, i: number): string {
  const who = rng.pick(PEOPLE);
  const project = rng.pick(PROJECTS);
  const first = `${who} ${rng.pick(VERBS)} ${rng.pick(OBJECTS)} for ${project} with ${rng.pick(TOOLS)} (note ${i}).`;
  if (!rng.chance(0.6)) return first;
  return `${first} ${project} ${rng.pick(VERBS)} ${rng.pick(OBJECTS)} every ${rng.pick(['Monday', 'Friday', 'sprint', 'release', 'quarter'])}; ask ${rng.pick(PEOPLE)} before changing it.`;
}

/** A Hermes home whose default profile holds a MEMORY.md of about `bytes` bytes, entries joined by `\n§\n`. */
export function writeHermesHome(home: string, bytes: number, seed = 23): { bytes: number; entries: number } {
  const rng = new Rng(seed);
  const entries: string[] = [];
  let size = 0;
  while (size < bytes) {
    const entry = hermesEntry(rng, entries.length);
    entries.push(entry);
    size += Buffer.byteLength(entry) + 3;
  }
  const memories = path.join(home, 'memories');
  fs.mkdirSync(memories, { recursive: true });
  const text = `${entries.join('\n§\n')}\n`;
  fs.writeFileSync(path.join(memories, 'MEMORY.md'), text);
  fs.writeFileSync(path.join(memories, 'USER.md'), 'User prefers terse answers.\n§\nUser works in Berlin (CET).\n');
  return { bytes: Buffer.byteLength(text), entries: entries.length };
}

/** Runs `reverie import apply` under /usr/bin/time; returns wall and user+system CPU seconds. */
function timedImport(home: string, workspace: string, dataDir: string): { wall_s: number; cpu_s: number } {
  const env = { ...process.env, REVERIE_DATA_DIR: dataDir, REVERIE_WORKSPACE: '', HOME: path.join(dataDir, 'home'), NO_COLOR: '1' };
  fs.mkdirSync(env.HOME, { recursive: true });
  const args = ['-f', 'TIME %e %U %S', process.execPath, path.join(repoRoot, 'bin', 'reverie.js'), 'import', 'apply', '--source', 'hermes', '--from', home, '--workspace', workspace, '--data-dir', dataDir];
  const run = spawnSync('/usr/bin/time', args, { env, encoding: 'utf8', timeout: 600_000 });
  const timing = /TIME ([\d.]+) ([\d.]+) ([\d.]+)/.exec(run.stderr ?? '');
  if (run.status !== 0 || !timing) throw new Error(`import apply exited ${run.status}: ${(run.stderr ?? '').slice(-800)}`);
  return { wall_s: Number(timing[1]), cpu_s: Number(timing[2]) + Number(timing[3]) };
}

export async function runHermesImportBench(quick: boolean): Promise<HermesImportFigures> {
  if (!fs.existsSync('/usr/bin/time')) throw new Error('the hermes-import bench measures CPU with /usr/bin/time; install it (apt-get install time)');
  if (!fs.existsSync(path.join(repoRoot, 'out', '.build-stamp'))) log('  ! no out/ build: the CLI runs from sources through tsx, which adds its compile time (run node scripts/build.mjs)');
  const runs: Array<{ wall_s: number; cpu_s: number }> = [];
  let size = { bytes: 0, entries: 0 };
  for (let i = 0; i < (quick ? 1 : 3); i++) {
    const ws = makeTempWorkspace('hermes-import');
    try {
      const home = path.join(ws.root, 'hermes-home');
      size = writeHermesHome(home, 2 * 1024 * 1024);
      const run = timedImport(home, ws.workspace, ws.dataDir);
      log(`  run ${i + 1}: wall ${run.wall_s} s, CPU ${run.cpu_s.toFixed(2)} s`);
      runs.push(run);
    } finally {
      removeTempWorkspace(ws);
    }
  }
  const mb = size.bytes / 1024 / 1024;
  const wall = percentile(runs.map((r) => r.wall_s), 50);
  const cpu = percentile(runs.map((r) => r.cpu_s), 50);
  const load = fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  const figures: HermesImportFigures = {
    hermes_import_mb: round(mb, 2),
    hermes_import_entries: size.entries,
    hermes_import_wall_s: round(wall, 2),
    hermes_import_cpu_s: round(cpu, 2),
    hermes_import_cpu_s_per_mb: round(cpu / mb, 2),
    hermes_import_wall_s_per_mb: round(wall / mb, 2),
    details: { runs, load },
  };
  log(`Hermes import: ${figures.hermes_import_mb} MB, ${size.entries} entries; median wall ${figures.hermes_import_wall_s} s, CPU ${figures.hermes_import_cpu_s} s → ${figures.hermes_import_cpu_s_per_mb} CPU s/MB (goal ≤ 5), ${figures.hermes_import_wall_s_per_mb} wall s/MB; load ${load}`);
  return figures;
}
