/**
 * One size of the scale benchmark, run in its own process so its peak memory is the engine's:
 * the first index of the notes by phase, a no-op resync, one edit's pickup, the transcripts'
 * ingest, index bytes per table, and hybrid searches per source filter. The parent
 * (scale.ts) generates the data and forks this file with `--child`.
 */
import { fork } from 'node:child_process';
import { buildSync } from 'esbuild';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { EngineEvent, SourceKind, SyncReport } from '../../core/src/contract/index.js';
import type { MemoryService } from '../../core/src/engine/memoryService.js';
import type { resolveExistingWorkspace } from '../../core/src/workspace/resolveWorkspace.js';
import type { PhaseWindow } from './cpuProfileSummary.js';
import { measureIndexBytes, type IndexBytes } from './indexBytes.js';
import { log, round, summarizeLatency, type LatencySummary } from './stats.js';

export interface ScaleJob {
  workspace: string;
  dataDir: string;
  /** Claude Code's home with the generated transcripts; null for none. */
  claudeHome: string | null;
  notesBytes: number;
  transcriptBytes: number;
  /** One large transcript, outside the home until it is moved in and ingested last; null for none. */
  largeTranscript: { file: string; bytes: number } | null;
  /** A note to append one line to, and a word found nowhere else. */
  editNote: string;
  editWord: string;
  queries: string[];
  /** Write a V8 CPU profile of the run into this folder (the parent adds --cpu-prof). */
  profileDir: string | null;
  /**
   * Run the engine from its TypeScript sources (through tsx) instead of the built `out/`: tsx
   * compiles inside every worker thread too, which adds ~70 MB of memory the product never has.
   */
  fromSource: boolean;
}

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

interface EngineModules {
  MemoryService: typeof MemoryService;
  resolveExistingWorkspace: typeof resolveExistingWorkspace;
}

/** The engine as the product runs it (the built `out/core`, which the parent builds first), or its sources. */
async function loadEngine(fromSource: boolean): Promise<EngineModules> {
  const root = fromSource ? '../../core/src' : path.join(REPO_ROOT, 'out', 'core');
  const at = (rel: string) => (fromSource ? `${root}/${rel}` : pathToFileURL(path.join(root, rel)).href);
  const [engine, workspace] = await Promise.all([import(at('engine/memoryService.js')), import(at('workspace/resolveWorkspace.js'))]);
  return { MemoryService: engine.MemoryService, resolveExistingWorkspace: workspace.resolveExistingWorkspace };
}

export type SearchFilter = 'memory' | 'sessions' | 'all';

const FILTERS: Record<SearchFilter, SourceKind[]> = { memory: ['memory'], sessions: ['sessions'], all: ['memory', 'sessions'] };

export interface ScaleRunFigures {
  /** The engine process (its CPU profile carries the pid in its name). */
  pid: number;
  files: number;
  chunks: number;
  embedding_provider: string;
  engine_open_ms: number;
  /** The first index of the notes, wall seconds per phase (event to event) and the engine's own figures. */
  first_index: {
    total_s: number;
    search_ready_s: number;
    cpu_s: number;
    phases_s: Record<string, number>;
    /** CPU seconds (user + system, all threads) per phase: steadier than wall time on a loaded machine. */
    phases_cpu_s: Record<string, number>;
    /** Of those, the engine thread's alone (Linux; empty elsewhere): what worker threads took off it shows here. */
    phases_engine_cpu_s: Record<string, number>;
    report_keyword_s: number;
    report_embedding_s: number;
    report_graph_s: number;
    peak_rss_mb: number;
  };
  first_search_ms: number;
  noop_resync_s: number;
  edit_pickup: { searchable_ms: number; sync_total_ms: number; found: boolean };
  transcripts: null | {
    files: number;
    messages: number;
    ingest_s: number;
    ingest_mb_per_s: number;
    sync_total_s: number;
    searchable_mb_per_s: number;
    embedding_s: number;
    cpu_s: number;
    /** CPU seconds (all threads) per MB: the whole step with its vectors, and the sessions phase (read, parse, write) alone. */
    cpu_s_per_mb: number;
    ingest_cpu_s_per_mb: number;
    phases_s: Record<string, number>;
    phases_cpu_s: Record<string, number>;
    /** CPU seconds of the engine thread alone per phase (the rest is the reader threads'); NaN where /proc is missing. */
    phases_engine_cpu_s: Record<string, number>;
    peak_rss_mb: number;
    chunks_added: number;
    /** A no-op resync once the transcripts are indexed: the notes' sync and the transcripts' re-ingest. */
    noop_resync_s?: number;
  };
  /** The one large transcript, ingested after everything else (its own peak memory window). */
  large_transcript: null | {
    mb: number;
    messages: number;
    ingest_s: number;
    ingest_mb_per_s: number;
    sync_total_s: number;
    cpu_s: number;
    cpu_s_per_mb: number;
    phases_cpu_s: Record<string, number>;
    peak_rss_mb: number;
    chunks_added: number;
    problems: string[];
  };
  index_notes: IndexBytes & { ratio_to_text: number };
  index_final: IndexBytes & { ratio_to_text: number };
  /** Wall time per search, the engine's own `tookMs`, and CPU time (steady on a loaded machine: searches run on the engine thread here). */
  search: Record<SearchFilter, LatencySummary & { engine_p50_ms: number; engine_p95_ms: number; cpu_p50_ms: number; cpu_p95_ms: number; zero_results: number }>;
  peak_rss_mb: number;
  /** Phase windows for the CPU profile (microseconds of process.hrtime). */
  profile_windows: PhaseWindow[];
}

const MB = 1024 * 1024;

/** Peak resident memory since the last reset (Linux VmHWM), else the process's lifetime peak. */
function peakRssBytes(): number {
  try {
    const kb = /^VmHWM:\s+(\d+) kB$/m.exec(fs.readFileSync('/proc/self/status', 'utf8'))?.[1];
    if (kb) return Number(kb) * 1024;
  } catch {
    /* not Linux: the lifetime peak below */
  }
  return process.resourceUsage().maxRSS * 1024;
}

/** Starts a new peak-memory window (Linux: writing 5 to clear_refs resets VmHWM to the current RSS). */
function resetPeakRss(): boolean {
  try {
    fs.writeFileSync('/proc/self/clear_refs', '5');
    return true;
  } catch {
    return false;
  }
}

function nowUs(): number {
  return Number(process.hrtime.bigint() / 1000n);
}

// Clock ticks per second of /proc's per-thread times (USER_HZ, 100 on Linux).
const USER_HZ = 100;

/**
 * CPU microseconds of the engine thread alone (the process's main thread: SQLite writes, vectors),
 * from /proc; null where there is none. The rest of the process's CPU is the reader threads' (and
 * V8's and libuv's helpers'), which run beside it on another core.
 */
function engineThreadCpuUs(): number | null {
  try {
    const fields = fs.readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return ((Number(fields[11]) + Number(fields[12])) / USER_HZ) * 1e6;
  } catch {
    return null;
  }
}

function cpuSeconds(since: NodeJS.CpuUsage): number {
  const d = process.cpuUsage(since);
  return (d.user + d.system) / 1e6;
}

/** Marks where each sync phase starts, from the engine's own progress and ready events. */
class PhaseTimeline {
  readonly windows: Array<PhaseWindow & { cpuUs: number; engineCpuUs: number | null; peakAtEnd: number }> = [];
  private current: (PhaseWindow & { cpuUs: number; engineCpuUs: number | null; peakAtEnd: number }) | null = null;
  private cpuAtStart = process.cpuUsage();
  private engineCpuAtStart = engineThreadCpuUs();
  lastReady: SyncReport | null = null;
  private readyWaiters: Array<(at: number) => void> = [];

  constructor(private prefix: string) {}

  begin(phase: string): void {
    this.end();
    this.cpuAtStart = process.cpuUsage();
    this.engineCpuAtStart = engineThreadCpuUs();
    const at = nowUs();
    this.current = { phase: `${this.prefix}${phase}`, startUs: at, endUs: at, cpuUs: 0, engineCpuUs: null, peakAtEnd: 0 };
    this.windows.push(this.current);
  }

  /** Closes the current phase: its wall span, and the process's CPU time (all threads) within it. */
  end(): void {
    if (!this.current) return;
    this.current.endUs = nowUs();
    const cpu = process.cpuUsage(this.cpuAtStart);
    this.current.cpuUs = cpu.user + cpu.system;
    const engine = engineThreadCpuUs();
    this.current.engineCpuUs = engine === null || this.engineCpuAtStart === null ? null : engine - this.engineCpuAtStart;
    this.current.peakAtEnd = peakRssBytes();
    this.current = null;
  }

  setPrefix(prefix: string): void {
    this.prefix = prefix;
  }

  onEvent(event: EngineEvent): void {
    if (event.type === 'index-progress' && this.current && this.current.phase !== `${this.prefix}${event.phase}`) this.begin(event.phase);
    // After search is ready: the entries' kinds, then the graph (the engine reports progress as each ends).
    if (event.type === 'derived-progress' && !event.progress.kinds && this.current?.phase === `${this.prefix}kinds`) this.begin('graph');
    if (event.type === 'index-ready') {
      this.lastReady = event.report;
      if (this.current) this.begin('kinds');
      const at = performance.now();
      for (const w of this.readyWaiters.splice(0)) w(at);
    }
  }

  /** The peak RSS so far (MB, since the last reset) as each phase whose name starts with `prefix` ended: the phase where it grows holds the peak. */
  peaksAtEnd(prefix: string): Record<string, number> {
    const out: Record<string, number> = {};
    for (const w of this.windows) if (w.phase.startsWith(prefix)) out[w.phase.slice(prefix.length)] = Math.round(w.peakAtEnd / MB);
    return out;
  }

  nextReady(): Promise<number> {
    return new Promise((resolve) => this.readyWaiters.push(resolve));
  }

  /** Wall seconds (or CPU seconds: all threads, or the engine thread's) of each phase whose name starts with `prefix`. */
  seconds(prefix: string, clock: 'wall' | 'cpu' | 'engine-cpu' = 'wall'): Record<string, number> {
    const out: Record<string, number> = {};
    for (const w of this.windows) {
      if (!w.phase.startsWith(prefix)) continue;
      const name = w.phase.slice(prefix.length);
      const us = clock === 'wall' ? w.endUs - w.startUs : clock === 'cpu' ? w.cpuUs : (w.engineCpuUs ?? Number.NaN);
      out[name] = round((out[name] ?? 0) + us / 1e6, 3);
    }
    return out;
  }
}

async function timedSearch(service: MemoryService, query: string, sources: SourceKind[]): Promise<{ wallMs: number; tookMs: number; cpuMs: number; results: number }> {
  const started = performance.now();
  const cpu = process.cpuUsage();
  const out = await service.invoke('memory.search', { query, limit: 10, sources });
  return { wallMs: performance.now() - started, tookMs: out.tookMs, cpuMs: cpuSeconds(cpu) * 1000, results: out.results.length };
}

export async function runScaleJob(job: ScaleJob): Promise<ScaleRunFigures> {
  const { MemoryService, resolveExistingWorkspace } = await loadEngine(job.fromSource);
  const timeline = new PhaseTimeline('notes:');
  let t = performance.now();
  timeline.begin('open');
  const service = new MemoryService({ dataDir: job.dataDir, workspace: resolveExistingWorkspace(job.workspace) });
  const engineOpenMs = performance.now() - t;
  const unsubscribe = service.onDidEmitEvent((event) => timeline.onEvent(event));
  try {
    // First index of the notes.
    resetPeakRss();
    const cpu0 = process.cpuUsage();
    t = performance.now();
    const readyAt = timeline.nextReady();
    timeline.begin('start');
    const first = await service.invoke('index.sync', { force: false });
    timeline.end();
    const firstS = (performance.now() - t) / 1000;
    const searchReadyS = ((await readyAt) - t) / 1000;
    const firstCpuS = cpuSeconds(cpu0);
    const firstPeak = peakRssBytes();
    log(
      `    first index ${firstS.toFixed(1)} s (search ready ${searchReadyS.toFixed(1)} s; cpu ${firstCpuS.toFixed(1)} s): ${first.files} files, ${first.chunks} chunks; ` +
        `phases wall ${JSON.stringify(timeline.seconds('notes:'))}, cpu ${JSON.stringify(timeline.seconds('notes:', 'cpu'))}, engine thread cpu ${JSON.stringify(timeline.seconds('notes:', 'engine-cpu'))}; peak RSS ${(firstPeak / MB).toFixed(0)} MB (so far, at each phase's end: ${JSON.stringify(timeline.peaksAtEnd('notes:'))})`,
    );
    if (first.failed + first.skipped > 0) log(`    ! ${first.failed} failed, ${first.skipped} skipped: ${JSON.stringify(first.problems.slice(0, 3))}`);

    t = performance.now();
    await timedSearch(service, job.queries[0] ?? 'meeting', FILTERS.memory);
    const firstSearchMs = performance.now() - t;

    const indexNotes = measureIndexBytes(service.indexPath);

    timeline.setPrefix('noop:');
    timeline.begin('start');
    t = performance.now();
    const noop = await service.invoke('index.sync', { force: false });
    timeline.end();
    const noopS = (performance.now() - t) / 1000;
    if (noop.added + noop.updated + noop.removed > 0) throw new Error(`the no-op resync changed files: ${JSON.stringify({ added: noop.added, updated: noop.updated, removed: noop.removed })}`);

    // One edit: from the write until a search finds the new word (the graph update follows, timed too).
    timeline.setPrefix('edit:');
    t = performance.now();
    fs.appendFileSync(`${job.workspace}/${job.editNote}`, `\n- Follow-up: ${job.editWord} moved to Thursday after the review.\n`);
    const editReady = timeline.nextReady();
    timeline.begin('start');
    const editSync = service.invoke('index.sync', { force: false });
    await editReady;
    const found = await service.invoke('memory.search', { query: job.editWord, limit: 5, sources: ['memory'] });
    const searchableMs = performance.now() - t;
    await editSync;
    timeline.end();
    const editTotalMs = performance.now() - t;
    const editFound = found.results.some((r) => r.path === job.editNote);
    log(`    no-op resync ${noopS.toFixed(2)} s; one edit searchable after ${searchableMs.toFixed(0)} ms (found: ${editFound}), sync with graph ${editTotalMs.toFixed(0)} ms`);

    let transcripts: ScaleRunFigures['transcripts'] = null;
    if (job.claudeHome) {
      timeline.setPrefix('transcripts:');
      resetPeakRss();
      const cpu1 = process.cpuUsage();
      const before = first.chunks;
      t = performance.now();
      timeline.begin('start');
      const ingest = await service.invoke('sessions.ingest', { homes: { 'claude-code': job.claudeHome } });
      timeline.end();
      const syncS = (performance.now() - t) / 1000;
      const report = timeline.lastReady;
      const chunksAfter = (await service.invoke('status', {})).index.chunks;
      const ingestS = ingest.durationMs / 1000;
      transcripts = {
        files: ingest.transcripts,
        messages: ingest.messages,
        ingest_s: round(ingestS, 3),
        ingest_mb_per_s: round(job.transcriptBytes / MB / ingestS, 2),
        sync_total_s: round(syncS, 3),
        searchable_mb_per_s: round(job.transcriptBytes / MB / syncS, 2),
        embedding_s: round((report?.embedding?.durationMs ?? 0) / 1000, 3),
        cpu_s: round(cpuSeconds(cpu1), 2),
        cpu_s_per_mb: round(cpuSeconds(cpu1) / (job.transcriptBytes / MB), 4),
        ingest_cpu_s_per_mb: round((timeline.seconds('transcripts:', 'cpu').sessions ?? 0) / (job.transcriptBytes / MB), 4),
        phases_s: timeline.seconds('transcripts:'),
        phases_cpu_s: timeline.seconds('transcripts:', 'cpu'),
        phases_engine_cpu_s: timeline.seconds('transcripts:', 'engine-cpu'),
        peak_rss_mb: round(peakRssBytes() / MB, 1),
        chunks_added: chunksAfter - before,
      };
      if (ingest.failed + ingest.skipped > 0) log(`    ! transcripts: ${ingest.failed} failed, ${ingest.skipped} skipped: ${JSON.stringify(ingest.problems.slice(0, 3))}`);
      log(
        `    transcripts: ${ingest.transcripts} files, ${ingest.messages} messages, ${(job.transcriptBytes / MB).toFixed(1)} MB ingested in ${ingestS.toFixed(1)} s ` +
          `(${transcripts.ingest_mb_per_s} MB/s; searchable after ${syncS.toFixed(1)} s, vectors ${transcripts.embedding_s} s), peak RSS ${transcripts.peak_rss_mb} MB; ` +
          `cpu ${transcripts.cpu_s} s = ${transcripts.cpu_s_per_mb} s/MB (sessions phase ${transcripts.ingest_cpu_s_per_mb} s/MB), by phase ${JSON.stringify(transcripts.phases_cpu_s)}, ` +
          `of which the engine thread ${JSON.stringify(transcripts.phases_engine_cpu_s)}`,
      );
      // The no-op resync again with every transcript indexed (the "at 1M chunks"): the
      // notes' sync and the transcripts' re-ingest, neither finding anything new.
      timeline.setPrefix('noop-all:');
      timeline.begin('start');
      t = performance.now();
      const notesAgain = await service.invoke('index.sync', { force: false });
      const transcriptsAgain = await service.invoke('sessions.ingest', { homes: { 'claude-code': job.claudeHome } });
      timeline.end();
      transcripts.noop_resync_s = round((performance.now() - t) / 1000, 3);
      if (notesAgain.added + notesAgain.updated + notesAgain.removed > 0 || transcriptsAgain.added + transcriptsAgain.appended + transcriptsAgain.removed > 0)
        throw new Error(`the no-op resync after the transcripts changed something: ${JSON.stringify({ notes: notesAgain.added + notesAgain.updated + notesAgain.removed, transcripts: transcriptsAgain.added + transcriptsAgain.appended + transcriptsAgain.removed })}`);
      log(`    no-op resync with the transcripts indexed (notes sync + transcripts re-ingest): ${transcripts.noop_resync_s} s`);
    }

    const textBytes = job.notesBytes + job.transcriptBytes;
    const indexFinal = measureIndexBytes(service.indexPath);

    // Hybrid searches (memory.search always fuses BM25 and vectors) per source filter.
    timeline.setPrefix('search:');
    const search = {} as ScaleRunFigures['search'];
    // Every filter meets the same warm caches: the warm-up runs each filter, and the measured
    // queries take the filters in turn, starting with another one each query (measured one
    // filter after another, the first paid for warming the shared caches: +70 % CPU at p50).
    // The warm-up's queries are not measured again: the host's cache of recent answers would answer them.
    const filters = Object.entries(FILTERS) as Array<[SearchFilter, SourceKind[]]>;
    timeline.begin('warm-up');
    const warmUp = job.queries.slice(0, 10);
    for (const q of warmUp) for (const [, sources] of filters) await timedSearch(service, q, sources);
    const measured = job.queries.slice(warmUp.length);
    const samples = new Map(filters.map(([filter]) => [filter, { wall: [] as number[], took: [] as number[], cpu: [] as number[], zero: 0 }]));
    for (const [i, q] of measured.entries()) {
      for (let k = 0; k < filters.length; k++) {
        const [filter, sources] = filters[(i + k) % filters.length]!;
        timeline.begin(filter);
        const r = await timedSearch(service, q, sources);
        const into = samples.get(filter)!;
        into.wall.push(r.wallMs);
        into.took.push(r.tookMs);
        into.cpu.push(r.cpuMs);
        if (r.results === 0) into.zero++;
      }
    }
    for (const [filter, { wall, took, cpu, zero }] of samples) {
      const engine = summarizeLatency(took);
      const cpuTime = summarizeLatency(cpu);
      search[filter] = { ...summarizeLatency(wall), engine_p50_ms: engine.p50_ms, engine_p95_ms: engine.p95_ms, cpu_p50_ms: cpuTime.p50_ms, cpu_p95_ms: cpuTime.p95_ms, zero_results: zero };
      log(`    search ${filter}: p50 ${search[filter].p50_ms} ms, p95 ${search[filter].p95_ms} ms; cpu p50 ${cpuTime.p50_ms} ms, p95 ${cpuTime.p95_ms} ms (${zero} of ${wall.length} without results)`);
    }
    timeline.end();
    const largeTranscript = job.largeTranscript && job.claudeHome ? await ingestLargeTranscript(service, timeline, job.claudeHome, job.largeTranscript) : null;
    const status = await service.invoke('status', {});
    return {
      pid: process.pid,
      files: status.index.files,
      chunks: status.index.chunks,
      embedding_provider: status.embedding.provider,
      engine_open_ms: round(engineOpenMs, 1),
      first_index: {
        total_s: round(firstS, 3),
        search_ready_s: round(searchReadyS, 3),
        cpu_s: round(firstCpuS, 2),
        phases_s: timeline.seconds('notes:'),
        phases_cpu_s: timeline.seconds('notes:', 'cpu'),
        phases_engine_cpu_s: timeline.seconds('notes:', 'engine-cpu'),
        report_keyword_s: round(first.durationMs / 1000, 3),
        report_embedding_s: round((first.embedding?.durationMs ?? 0) / 1000, 3),
        report_graph_s: round((first.graph?.durationMs ?? 0) / 1000, 3),
        peak_rss_mb: round(firstPeak / MB, 1),
      },
      first_search_ms: round(firstSearchMs, 1),
      noop_resync_s: round(noopS, 3),
      edit_pickup: { searchable_ms: round(searchableMs, 1), sync_total_ms: round(editTotalMs, 1), found: editFound },
      transcripts,
      large_transcript: largeTranscript,
      index_notes: { ...indexNotes, ratio_to_text: round(indexNotes.file_bytes / job.notesBytes, 2) },
      index_final: { ...indexFinal, ratio_to_text: round(indexFinal.file_bytes / textBytes, 2) },
      search,
      peak_rss_mb: round((process.resourceUsage().maxRSS * 1024) / MB, 1),
      profile_windows: timeline.windows.map(({ phase, startUs, endUs }) => ({ phase, startUs, endUs })),
    };
  } finally {
    unsubscribe();
    await service.close();
  }
}

/**
 * The 2 GB case: one transcript moved into the tool's home and ingested on its own, with the size
 * cap raised to let it in; its own peak-memory window shows whether it was streamed.
 */
async function ingestLargeTranscript(service: MemoryService, timeline: PhaseTimeline, claudeHome: string, large: { file: string; bytes: number }): Promise<ScaleRunFigures['large_transcript']> {
  const mb = large.bytes / MB;
  await service.invoke('settings.set', { patch: { maxTranscriptSizeMB: Math.min(65536, Math.ceil(mb) + 1) } });
  const target = path.join(claudeHome, 'projects', '-home-dana-large', path.basename(large.file));
  fs.mkdirSync(path.dirname(target), { recursive: true });
  fs.renameSync(large.file, target);
  const before = (await service.invoke('status', {})).index.chunks;
  timeline.setPrefix('large:');
  resetPeakRss();
  const cpu = process.cpuUsage();
  const t = performance.now();
  timeline.begin('start');
  const ingest = await service.invoke('sessions.ingest', { homes: { 'claude-code': claudeHome } });
  timeline.end();
  const syncS = (performance.now() - t) / 1000;
  const cpuS = cpuSeconds(cpu);
  const figures = {
    mb: round(mb, 1),
    messages: ingest.messages,
    ingest_s: round(ingest.durationMs / 1000, 2),
    ingest_mb_per_s: round(mb / (ingest.durationMs / 1000), 2),
    sync_total_s: round(syncS, 2),
    cpu_s: round(cpuS, 2),
    cpu_s_per_mb: round(cpuS / mb, 4),
    phases_cpu_s: timeline.seconds('large:', 'cpu'),
    peak_rss_mb: round(peakRssBytes() / MB, 1),
    chunks_added: (await service.invoke('status', {})).index.chunks - before,
    problems: ingest.problems.map((p) => `${p.status}: ${p.path} — ${p.reason}`),
  };
  log(
    `    one ${figures.mb} MB transcript: ${figures.messages} messages ingested in ${figures.ingest_s} s (${figures.ingest_mb_per_s} MB/s; searchable after ${figures.sync_total_s} s), ` +
      `cpu ${figures.cpu_s} s = ${figures.cpu_s_per_mb} s/MB, by phase ${JSON.stringify(figures.phases_cpu_s)}; peak RSS ${figures.peak_rss_mb} MB` +
      (figures.problems.length > 0 ? `; problems: ${figures.problems.slice(0, 3).join('; ')}` : ''),
  );
  return figures;
}

/**
 * The child's entry. This file is TypeScript; measuring the built engine, it is bundled to plain
 * JavaScript (`out/bench/`, two folders below the repository like this one) so the child runs
 * without tsx, whose loader costs ~30 MB in the process the product's peak memory is read from.
 */
function childEntry(fromSource: boolean): string {
  const self = fileURLToPath(import.meta.url);
  if (fromSource) return self;
  const outfile = path.join(REPO_ROOT, 'out', 'bench', 'scaleRun.mjs');
  buildSync({ entryPoints: [self], outfile, bundle: true, format: 'esm', platform: 'node', target: 'node20', packages: 'external', logLevel: 'error' });
  return outfile;
}

/** Runs one size in a child process (with --cpu-prof when asked) and waits for its figures. */
export function runScaleJobInChild(job: ScaleJob): Promise<ScaleRunFigures> {
  return new Promise((resolve, reject) => {
    const profile = job.profileDir ? ['--cpu-prof', `--cpu-prof-dir=${job.profileDir}`] : [];
    const child = fork(childEntry(job.fromSource), ['--child'], {
      execArgv: [...profile, ...(job.fromSource ? ['--import', import.meta.resolve('tsx')] : [])],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    let figures: ScaleRunFigures | null = null;
    let failure: string | null = null;
    child.on('message', (message: { figures?: ScaleRunFigures; error?: string }) => {
      if (message.figures) figures = message.figures;
      else failure = message.error ?? 'unknown error';
    });
    child.on('error', reject);
    child.on('exit', (code) => (figures ? resolve(figures) : reject(new Error(`scale run failed (exit ${code}): ${failure ?? 'no figures'}`))));
    child.send(job);
  });
}

if (process.argv.includes('--child')) {
  process.once('message', (job: ScaleJob) => {
    runScaleJob(job).then(
      // exit through process.exit so --cpu-prof writes its profile; after the message is sent.
      (figures) => process.send!({ figures }, () => process.exit(0)),
      (error: unknown) => process.send!({ error: (error as Error).stack ?? String(error) }, () => process.exit(1)),
    );
  });
}
