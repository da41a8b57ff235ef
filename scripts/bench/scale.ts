/**
 * The scale benchmark (issue 24): a heavy agent user's daily notes and Claude Code transcripts,
 * generated at one or several sizes, each indexed by the product's engine in its own process
 * (scaleRun.ts). Prints, per size, the first index by phase and the time until search is
 * ready, the no-op resync, one edit's pickup, transcript ingest MB/s and peak memory, index
 * bytes per table and their ratio to the text, hybrid search p50/p95 per source filter and peak
 * RSS; across sizes, each figure's growth exponent (log-log least squares).
 *
 *   npm run bench -- --only scale [--notes N | --sizes 500,1000,2000] [--transcripts MB] [--transcript-file MB] [--profile DIR] [--keep] [--from-source]
 *
 * `--transcripts MB` is the transcript volume at the largest size; smaller sizes get the same
 * share per note. `--transcript-file MB` adds, at the largest size and after everything else, one
 * transcript of that size (the 2 GB bad-input case: streamed, bounded memory). `--profile DIR` runs each size under `node --cpu-prof` and summarises the top
 * self-time functions per phase. `--keep` leaves each size's workspace and data folder in place
 * (to time `reverie search` on them afterwards; the settings name the transcripts' home there).
 * The engine measured is the built one the product runs (`out/`, built first when stale);
 * `--from-source` runs the TypeScript sources through tsx instead (its compiler adds memory in
 * every thread).
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { summarizeCpuProfile, type PhaseProfile } from './cpuProfileSummary.js';
import { keepTempWorkspace, makeTempWorkspace, removeTempWorkspace } from './engine.js';
import { fitGrowth, type GrowthFit } from './growthFit.js';
import { writeClaudeHome, writeOneLargeTranscript } from './scaleCorpus.js';
import { runScaleJobInChild, type ScaleRunFigures, type SearchFilter } from './scaleRun.js';
import { log, percentile, round, table } from './stats.js';
import { makeQuestions, SyntheticCorpus } from './synthetic.js';

export interface ScaleOptions {
  /** Notes per run, ascending. */
  sizes: number[];
  /** Megabytes of transcripts at the largest size. */
  transcriptsMb: number;
  /** One transcript of this many MB, ingested last at the largest size; null for none. */
  transcriptFileMb: number | null;
  profileDir: string | null;
  /** Leave each size's temp workspace and data folder in place (their paths are logged) instead of deleting them. */
  keep: boolean;
  /** Measure the engine's TypeScript sources (through tsx) rather than the built `out/`. */
  fromSource: boolean;
}

export const DEFAULT_SCALE_SIZES = [500, 1000, 2000];
export const DEFAULT_TRANSCRIPTS_MB = 40;
export const QUICK_SCALE_SIZES = [100, 200];
export const QUICK_TRANSCRIPTS_MB = 4;

const MB = 1024 * 1024;
/** Questions per source filter (a third of the synthetic bench's mix of kinds). */
const QUESTION_SCALE = 0.3;
/** `reverie search` runs timed from spawn to exit (the first is the cold one). */
const CLI_RUNS = 5;
const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

export interface CliSearchFigures {
  runs: number;
  first_ms: number;
  p50_ms: number;
  max_ms: number;
}

export interface ScaleRun extends Omit<ScaleRunFigures, 'profile_windows' | 'pid'> {
  notes: number;
  notes_mb: number;
  transcripts_mb: number;
  transcript_files: number;
  generate_s: number;
  /** `reverie search` without a host (it loads the engine and reads the index read-only, no sync), from spawn to exit. */
  cli_search: CliSearchFigures;
  /** `reverie search` while `reverie daemon` hosts the workspace (the thin path: the host answers over its socket). */
  cli_search_host: CliSearchFigures;
  profile: { file: string; phases: PhaseProfile[] } | null;
}

export interface ScaleFigures {
  scale_sizes: number[];
  scale_notes: number;
  scale_notes_mb: number;
  scale_transcripts_mb: number;
  scale_first_index_s: number;
  scale_search_ready_s: number;
  scale_first_index_phases_s: Record<string, number>;
  scale_first_index_phases_cpu_s: Record<string, number>;
  scale_first_index_cpu_s: number;
  scale_noop_resync_s: number;
  /** The no-op resync once the transcripts are indexed too (null without transcripts). */
  scale_noop_resync_with_transcripts_s: number | null;
  scale_edit_searchable_ms: number;
  scale_search_p50_ms: Record<SearchFilter, number>;
  scale_search_p95_ms: Record<SearchFilter, number>;
  /** CPU time per search (wall time on a loaded 2-core machine is mostly waiting for a core). */
  scale_search_cpu_p95_ms: Record<SearchFilter, number>;
  scale_index_mb: number;
  scale_index_ratio: number;
  scale_index_notes_ratio: number;
  scale_index_tables_mb: Record<string, number>;
  scale_peak_rss_mb: number;
  scale_transcripts_mb_per_s: number | null;
  scale_transcripts_peak_rss_mb: number | null;
  /** CPU seconds (all threads) per MB of transcripts: the sessions step, and with the vectors that follow. */
  scale_transcripts_cpu_s_per_mb: number | null;
  scale_transcripts_ingest_cpu_s_per_mb: number | null;
  scale_large_transcript: ScaleRunFigures['large_transcript'];
  scale_cli_search_p50_ms: number;
  scale_cli_search_host_p50_ms: number;
  /** Exponent k of figure ≈ c·notes^k across the sizes (null with one size). */
  scale_growth: Record<string, GrowthFit>;
  scale_runs: ScaleRun[];
}

/** `--sizes 500,2000` → [500, 2000]: positive integers, sorted, no repeats. */
export function parseSizes(text: string): number[] {
  const sizes = text.split(',').map((s) => Number(s.trim()));
  if (sizes.length === 0 || sizes.some((n) => !Number.isInteger(n) || n < 10)) throw new Error(`--sizes takes note counts of at least 10, comma-separated (got "${text}")`);
  return [...new Set(sizes)].sort((a, b) => a - b);
}

/** The engine's main-thread profile: node names them CPU.<date>.<time>.<pid>.<thread id>.<seq>.cpuprofile (tsx's loader is thread 1). */
function mainThreadProfile(dir: string, pid: number): string | null {
  const main = fs.readdirSync(dir).find((f) => f.endsWith('.cpuprofile') && f.split('.').slice(-4, -2).join('.') === `${pid}.0`);
  return main ? path.join(dir, main) : null;
}

/**
 * `reverie search QUERY` against the bench's workspace and data folder, as a person types it
 * with no host running. The built CLI (out/) is timed: `node scripts/build.mjs` first, or
 * bin/reverie.js falls back to the TypeScript sources and the figure includes compiling them.
 */
function timeCliSearch(workspace: string, dataDir: string, queries: readonly string[]): CliSearchFigures {
  const times: number[] = [];
  for (const query of queries.slice(0, CLI_RUNS)) {
    const started = performance.now();
    const run = spawnSync(process.execPath, [path.join(REPO_ROOT, 'bin', 'reverie.js'), 'search', query, '--workspace', workspace, '--json'], {
      env: { ...process.env, REVERIE_DATA_DIR: dataDir, REVERIE_FROM_SOURCE: '' },
      encoding: 'utf8',
    });
    times.push(performance.now() - started);
    if (run.status !== 0) throw new Error(`reverie search exited with ${run.status}: ${run.stderr.slice(0, 500)}`);
  }
  return { runs: times.length, first_ms: round(times[0] ?? Number.NaN, 1), p50_ms: round(percentile(times, 50), 1), max_ms: round(Math.max(...times), 1) };
}

/** Runs `work` while the built `reverie daemon` hosts the workspace (ready line read first), then stops it. */
async function withDaemon<T>(workspace: string, dataDir: string, work: () => T): Promise<T> {
  const daemon = spawn(process.execPath, [path.join(REPO_ROOT, 'bin', 'reverie.js'), 'daemon', '--workspace', workspace, '--json'], {
    env: { ...process.env, REVERIE_DATA_DIR: dataDir, REVERIE_FROM_SOURCE: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => daemon.once('exit', () => resolve()));
  try {
    await new Promise<void>((resolve, reject) => {
      let out = '';
      let err = '';
      const timer = setTimeout(() => reject(new Error(`reverie daemon was not ready within 300 s: ${err.slice(0, 500)}`)), 300_000);
      daemon.stderr.on('data', (d: Buffer) => (err += d.toString()));
      daemon.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        if (!out.includes('\n')) return;
        clearTimeout(timer);
        resolve();
      });
      daemon.once('exit', (code) => reject(new Error(`reverie daemon exited with ${code}: ${err.slice(0, 500)}`)));
    });
    return work();
  } finally {
    daemon.kill('SIGTERM');
    await exited;
  }
}

async function runOneSize(notes: number, transcriptBytes: number, largeTranscriptBytes: number, profileDir: string | null, keep: boolean, fromSource: boolean): Promise<ScaleRun> {
  const ws = makeTempWorkspace(`scale-${notes}`);
  try {
    const started = performance.now();
    const corpus = new SyntheticCorpus(ws.workspace);
    const root = corpus.writeRootFiles();
    const written = corpus.writeNotes(notes);
    const claudeHome = transcriptBytes > 0 || largeTranscriptBytes > 0 ? path.join(ws.root, 'claude-home') : null;
    if (claudeHome) fs.mkdirSync(claudeHome, { recursive: true });
    const transcripts = claudeHome && transcriptBytes > 0 ? writeClaudeHome(claudeHome, transcriptBytes, corpus) : null;
    // Kept outside the home until its own ingest (the child moves it in).
    const largeFile = path.join(ws.root, 'large-transcript', '00000000-0000-4000-8000-00000000beef.jsonl');
    const large = largeTranscriptBytes > 0 ? writeOneLargeTranscript(largeFile, largeTranscriptBytes, corpus) : null;
    const generateS = (performance.now() - started) / 1000;
    const notesBytes = root.bytes + written.bytes;
    log(
      `  scale ${notes} notes: ${(notesBytes / MB).toFixed(1)} MB of notes` +
        (transcripts ? `, ${transcripts.files} transcripts ${(transcripts.bytes / MB).toFixed(1)} MB` : '') +
        (large ? `, one transcript of ${(large.bytes / MB).toFixed(0)} MB` : '') +
        ` generated in ${generateS.toFixed(1)} s`,
    );
    const runProfileDir = profileDir ? path.join(profileDir, `notes-${notes}`) : null;
    if (runProfileDir) fs.mkdirSync(runProfileDir, { recursive: true });
    const queries = makeQuestions(corpus, 777, QUESTION_SCALE).map((q) => q.query);
    const figures = await runScaleJobInChild({
      workspace: ws.workspace,
      dataDir: ws.dataDir,
      claudeHome,
      notesBytes,
      transcriptBytes: transcripts?.bytes ?? 0,
      largeTranscript: large ? { file: largeFile, bytes: large.bytes } : null,
      editNote: corpus.note(Math.min(notes - 1, 3)).rel,
      editWord: `quillorbit${notes}`,
      queries,
      profileDir: runProfileDir,
      fromSource,
    });
    const cliSearch = timeCliSearch(ws.workspace, ws.dataDir, queries);
    log(`    reverie search (no host): first ${cliSearch.first_ms} ms, p50 ${cliSearch.p50_ms} ms of ${cliSearch.runs}`);
    const cliSearchHost = await withDaemon(ws.workspace, ws.dataDir, () => timeCliSearch(ws.workspace, ws.dataDir, queries));
    log(`    reverie search (reverie daemon hosting): first ${cliSearchHost.first_ms} ms, p50 ${cliSearchHost.p50_ms} ms of ${cliSearchHost.runs}`);
    const { profile_windows: windows, pid, ...rest } = figures;
    const profileFile = runProfileDir ? mainThreadProfile(runProfileDir, pid) : null;
    const profile = profileFile ? { file: profileFile, phases: summarizeCpuProfile(profileFile, windows) } : null;
    if (runProfileDir && !profileFile) log(`  ! no .cpuprofile was written to ${runProfileDir}`);
    return {
      notes,
      notes_mb: round(notesBytes / MB, 2),
      transcripts_mb: round((transcripts?.bytes ?? 0) / MB, 2),
      transcript_files: transcripts?.files ?? 0,
      generate_s: round(generateS, 2),
      ...rest,
      cli_search: cliSearch,
      cli_search_host: cliSearchHost,
      profile,
    };
  } finally {
    if (keep) log(`    kept: --workspace ${ws.workspace} with REVERIE_DATA_DIR=${keepTempWorkspace(ws).dataDir}`);
    else removeTempWorkspace(ws);
  }
}

function growthOf(runs: readonly ScaleRun[]): Record<string, GrowthFit> {
  const fit = (value: (r: ScaleRun) => number | undefined): GrowthFit => fitGrowth(runs.map((r) => ({ n: r.notes, value: value(r) ?? 0 })));
  const phases = [...new Set(runs.flatMap((r) => Object.keys(r.first_index.phases_s)))];
  const growth: Record<string, GrowthFit> = {
    first_index_s: fit((r) => r.first_index.total_s),
    first_index_cpu_s: fit((r) => r.first_index.cpu_s),
    search_ready_s: fit((r) => r.first_index.search_ready_s),
    noop_resync_s: fit((r) => r.noop_resync_s),
    edit_searchable_ms: fit((r) => r.edit_pickup.searchable_ms),
    index_bytes: fit((r) => r.index_final.file_bytes),
    peak_rss_mb: fit((r) => r.peak_rss_mb),
    cli_search_p50_ms: fit((r) => r.cli_search.p50_ms),
    cli_search_host_p50_ms: fit((r) => r.cli_search_host.p50_ms),
    transcripts_ingest_s: fit((r) => r.transcripts?.ingest_s),
  };
  for (const phase of phases) {
    growth[`phase_${phase}_s`] = fit((r) => r.first_index.phases_s[phase]);
    growth[`phase_${phase}_cpu_s`] = fit((r) => r.first_index.phases_cpu_s[phase]);
  }
  for (const filter of ['memory', 'sessions', 'all'] as const) growth[`search_p95_${filter}_ms`] = fit((r) => r.search[filter].p95_ms);
  for (const k of Object.keys(growth)) {
    const g = growth[k]!;
    growth[k] = { ...g, exponent: g.exponent === null ? null : round(g.exponent, 2), r2: g.r2 === null ? null : round(g.r2, 3) };
  }
  return growth;
}

function printSummary(runs: readonly ScaleRun[], growth: Record<string, GrowthFit>): void {
  const phases = [...new Set(runs.flatMap((r) => Object.keys(r.first_index.phases_s)))];
  log(
    table(
      ['notes', 'MB', 'index s', 'cpu s', 'ready s', ...phases.map((p) => `${p} s`), 'no-op s', 'edit ms', 'index MB', '×text', 'RSS MB'],
      runs.map((r) => [
        String(r.notes), r.notes_mb.toFixed(1), r.first_index.total_s.toFixed(1), r.first_index.cpu_s.toFixed(1), r.first_index.search_ready_s.toFixed(1),
        ...phases.map((p) => (r.first_index.phases_s[p] ?? 0).toFixed(2)),
        r.noop_resync_s.toFixed(2), r.edit_pickup.searchable_ms.toFixed(0), (r.index_final.file_bytes / MB).toFixed(1), r.index_final.ratio_to_text.toFixed(1), r.peak_rss_mb.toFixed(0),
      ]),
    ),
  );
  log(
    table(
      ['notes', 'transcripts MB', 'ingest MB/s', 'searchable MB/s', 'ingest RSS MB', 'p95 memory', 'p95 sessions', 'p95 all', 'cpu p95 memory', 'cpu p95 sessions', 'cpu p95 all'],
      runs.map((r) => [
        String(r.notes), r.transcripts_mb.toFixed(1), String(r.transcripts?.ingest_mb_per_s ?? '-'), String(r.transcripts?.searchable_mb_per_s ?? '-'), String(r.transcripts?.peak_rss_mb ?? '-'),
        r.search.memory.p95_ms.toFixed(1), r.search.sessions.p95_ms.toFixed(1), r.search.all.p95_ms.toFixed(1),
        r.search.memory.cpu_p95_ms.toFixed(1), r.search.sessions.cpu_p95_ms.toFixed(1), r.search.all.cpu_p95_ms.toFixed(1),
      ]),
    ),
  );
  if (runs.length > 1) log(`  growth exponents: ${Object.entries(growth).map(([k, g]) => `${k} ${g.exponent ?? '-'}`).join(', ')}`);
  for (const r of runs) {
    if (!r.profile) continue;
    log(`  CPU profile of ${r.notes} notes: ${r.profile.file}`);
    for (const p of r.profile.phases) {
      log(`    ${p.phase} (${p.sampled_ms} ms sampled): ${p.top_functions.slice(0, 5).map((f) => `${f.name} ${f.pct}%`).join('; ')}`);
      log(`      by core caller: ${p.top_core_callers.slice(0, 5).map((f) => `${f.name} ${f.pct}%`).join('; ')}`);
    }
  }
}

/** The product's build (`out/`), which the runs and `reverie search` measure: rebuilt when a source is newer. */
function buildIfStale(): void {
  const build = spawnSync(process.execPath, [path.join(REPO_ROOT, 'scripts', 'build.mjs'), '--if-stale'], { encoding: 'utf8' });
  if (build.status !== 0) throw new Error(`node scripts/build.mjs --if-stale failed (exit ${build.status}): ${build.stderr.slice(0, 500)}`);
}

export async function runScaleBench(options: ScaleOptions): Promise<ScaleFigures> {
  const largest = options.sizes[options.sizes.length - 1]!;
  log(`Scale: ${options.sizes.join(', ')} notes, ${options.transcriptsMb} MB of transcripts at ${largest}; engine ${options.fromSource ? 'from its sources (tsx)' : 'built (out/)'}`);
  if (!options.fromSource) buildIfStale();
  const runs: ScaleRun[] = [];
  for (const notes of options.sizes) {
    const largeBytes = notes === largest && options.transcriptFileMb ? Math.round(options.transcriptFileMb * MB) : 0;
    runs.push(await runOneSize(notes, Math.round((options.transcriptsMb * MB * notes) / largest), largeBytes, options.profileDir, options.keep, options.fromSource));
  }
  const growth = growthOf(runs);
  printSummary(runs, growth);
  const top = runs[runs.length - 1]!;
  return {
    scale_sizes: options.sizes,
    scale_notes: top.notes,
    scale_notes_mb: top.notes_mb,
    scale_transcripts_mb: top.transcripts_mb,
    scale_first_index_s: top.first_index.total_s,
    scale_search_ready_s: top.first_index.search_ready_s,
    scale_first_index_phases_s: top.first_index.phases_s,
    scale_first_index_phases_cpu_s: top.first_index.phases_cpu_s,
    scale_first_index_cpu_s: top.first_index.cpu_s,
    scale_noop_resync_s: top.noop_resync_s,
    scale_noop_resync_with_transcripts_s: top.transcripts?.noop_resync_s ?? null,
    scale_edit_searchable_ms: top.edit_pickup.searchable_ms,
    scale_search_p50_ms: { memory: top.search.memory.p50_ms, sessions: top.search.sessions.p50_ms, all: top.search.all.p50_ms },
    scale_search_p95_ms: { memory: top.search.memory.p95_ms, sessions: top.search.sessions.p95_ms, all: top.search.all.p95_ms },
    scale_search_cpu_p95_ms: { memory: top.search.memory.cpu_p95_ms, sessions: top.search.sessions.cpu_p95_ms, all: top.search.all.cpu_p95_ms },
    scale_index_mb: round(top.index_final.file_bytes / MB, 1),
    scale_index_ratio: top.index_final.ratio_to_text,
    scale_index_notes_ratio: top.index_notes.ratio_to_text,
    scale_index_tables_mb: Object.fromEntries(Object.entries(top.index_final.tables).map(([k, v]) => [k, round(v / MB, 2)])),
    scale_peak_rss_mb: top.peak_rss_mb,
    scale_transcripts_mb_per_s: top.transcripts?.ingest_mb_per_s ?? null,
    scale_transcripts_peak_rss_mb: top.transcripts?.peak_rss_mb ?? null,
    scale_transcripts_cpu_s_per_mb: top.transcripts?.cpu_s_per_mb ?? null,
    scale_transcripts_ingest_cpu_s_per_mb: top.transcripts?.ingest_cpu_s_per_mb ?? null,
    scale_large_transcript: top.large_transcript,
    scale_cli_search_p50_ms: top.cli_search.p50_ms,
    scale_cli_search_host_p50_ms: top.cli_search_host.p50_ms,
    scale_growth: growth,
    scale_runs: runs,
  };
}
