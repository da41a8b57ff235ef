import fs from 'node:fs';
import path from 'node:path';
import type Database from 'better-sqlite3';
import { toolLabel, type IngestReport } from '../contract/index.js';
import type { IndexStore } from '../index/indexStore.js';
import type { SessionKind } from '../contract/index.js';
import { readOpenClawSessionKinds } from './openclawSessionIndex.js';
import { isTranscriptSkipped } from './readTranscript.js';
import { discoverTranscripts, type DiscoveredTranscript, type TranscriptSources } from './transcriptDiscovery.js';
import type { TranscriptBatch } from './transcriptReadJob.js';
import { readerThreadCount } from '../platform/readerThreads.js';
import { TranscriptReaderPool } from './transcriptReaderPool.js';
import { TranscriptRows } from './transcriptRows.js';
import type { MalformedLine, TranscriptResumeState, TranscriptStats } from './types.js';
import { emptyIngestReport } from './toolHomes.js';
import { processLogger } from '../platform/log/processLog.js';

const log = processLogger('sessions');

export interface IngestOptions {
  maxBytes: number;
  /** The workspace's memory lines: transcript text repeating them was recalled, not said (read once, when the first reader starts). */
  memoryLines?: () => Iterable<string>;
  /** Transcripts read at the same time, each on its own reader thread (default: the cores left beside this thread, at most two). */
  readers?: number;
  onProgress?: (p: { done: number; total: number; path: string | null }) => void;
  /** A transcript untouched for this long is complete: its last line is read even without a newline. */
  quietMs?: number;
  /** Heap ceiling of each reader thread in MB, for tests of bounded memory (default none; see TranscriptReaderPool). */
  readerHeapMb?: number;
}

const DEFAULT_QUIET_MS = 60_000;
/**
 * Files handed to the readers beyond one each. A reader finishes a file and starts the next only
 * if it was handed over already, and a file is handed over when an earlier one is written and
 * finished here: with one file ahead, a reader that read a small file behind a large one waited
 * for this thread to write the large one (300 MB of generated transcripts at load 8–16: 7–8 s of
 * waiting for its next file with one ahead, 2–3 s with two). Two ahead keep its next file
 * queued; what waits in memory is still bounded by BATCHES_AHEAD (a queued file is a path), and
 * with one reader the files are still read and written in order.
 */
export const FILES_QUEUED_AHEAD = 2;

interface KnownTranscript {
  path: string;
  size: number;
  mtimeMs: number;
  status: string;
  reason: string | null;
  resume: TranscriptResumeState | null;
  lines: number;
  stats: TranscriptStats | null;
}

/**
 * Ingests agent transcripts as the `sessions` source: only user and assistant text, redacted,
 * with provenance per line and a line map back to the JSONL. Sources are only read; unchanged
 * transcripts cost a stat; grown ones are read from where the last run stopped. Files are read
 * and parsed on reader threads, several at a time; this thread only writes their batches.
 */
export async function ingestTranscripts(db: Database.Database, store: IndexStore, sources: TranscriptSources, options: IngestOptions): Promise<IngestReport> {
  const started = performance.now();
  const report: IngestReport = emptyIngestReport();
  const discovered = discoverTranscripts(sources);
  const known = loadKnown(db);
  const forgottenSessions = new Set((db.prepare("SELECT key FROM tombstones WHERE kind = 'session'").all() as Array<{ key: string }>).map((r) => r.key));
  const forgottenPaths = store.forgottenPaths();

  // A transcript gone from a home folder that still exists is gone; if the whole folder is
  // missing (unmounted disk, moved home), keep what was indexed and say so.
  const present = new Set(discovered.map((d) => d.path));
  const liveToolPrefixes: string[] = [];
  for (const [tool, home] of Object.entries(sources)) {
    if (!home) continue;
    if (fs.existsSync(home)) liveToolPrefixes.push(`sessions/${tool}/`);
    else report.problems.push({ path: home, status: 'failed', reason: `${toolLabel(tool)} home folder not found; its transcripts stay indexed until it is back` });
  }
  const gone = [...known.keys()].filter((p) => !present.has(p) && liveToolPrefixes.some((prefix) => p.startsWith(prefix)));
  if (gone.length > 0) {
    store.transaction(() => gone.forEach((p) => store.removeFile(p)));
    report.removed = gone.length;
  }

  const openClawKinds = new Map<string, Map<string, SessionKind>>();
  const rows = new TranscriptRows(db);
  const readerCount = Math.max(1, options.readers ?? readerThreadCount());
  const readers = new TranscriptReaderPool(options.memoryLines ?? (() => []), readerCount, options.readerHeapMb);
  const running = new Set<Promise<void>>();
  const concurrency = readerCount + FILES_QUEUED_AHEAD;
  let done = 0;
  try {
    for (const t of discovered) {
      options.onProgress?.({ done: done++, total: discovered.length, path: t.path });
      report.transcripts++;
      const previous = known.get(t.path);
      const skip = (reason: string): void => {
        store.writeFile({ path: t.path, absPath: t.absPath, source: 'sessions', sha256: null, mtimeMs: t.mtimeMs, size: t.size, status: 'skipped', reason }, null);
        report.skipped++;
        report.problems.push({ path: t.path, status: 'skipped', reason });
      };
      // Skipped before reading, as last time and for the same reason: counted, nothing written (every sync passes every transcript by here).
      const skipBeforeReading = (reason: string): void => {
        if (previous?.status === 'skipped' && previous.reason === reason && previous.size === t.size && previous.mtimeMs === t.mtimeMs) {
          report.skipped++;
          report.problems.push({ path: t.path, status: 'skipped', reason });
        } else skip(reason);
      };
      if (t.skipReason) {
        skipBeforeReading(t.skipReason);
        continue;
      }
      if (forgottenPaths.has(t.path)) {
        report.skipped++;
        continue;
      }
      if (t.size > options.maxBytes) {
        skipBeforeReading(`too large (${(t.size / 1048576).toFixed(1)} MB; the limit is ${(options.maxBytes / 1048576).toFixed(0)} MB, setting maxTranscriptSizeMB)`);
        continue;
      }
      if (previous && previous.status === 'indexed' && previous.size === t.size && previous.mtimeMs === t.mtimeMs) {
        report.unchanged++;
        continue;
      }
      const ingest = async (): Promise<void> => {
        try {
          const outcome = await ingestOne(rows, store, readers, t, previous ?? null, options, await sessionKindFor(t, openClawKinds), forgottenSessions);
          if (outcome.kind === 'skipped') skip(outcome.reason);
          else {
            if (outcome.kind === 'added') report.added++;
            else if (outcome.kind === 'appended') report.appended++;
            else report.unchanged++;
            report.messages += outcome.messages;
            report.unknownLines += outcome.stats.unknownLines;
            report.malformedLines += outcome.stats.malformedLines;
            reportMalformed(report, t, outcome);
            report.redactions += outcome.stats.redactions;
            report.recalledStripped += outcome.stats.recalledStripped;
          }
        } catch (error) {
          report.failed++;
          const reason = `unreadable (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`;
          report.problems.push({ path: t.path, status: 'failed', reason });
          store.writeFile({ path: t.path, absPath: t.absPath, source: 'sessions', sha256: null, mtimeMs: t.mtimeMs, size: t.size, status: 'failed', reason }, null);
        }
      };
      const task = ingest().finally(() => running.delete(task));
      running.add(task);
      if (running.size >= concurrency) await Promise.race(running);
    }
    await Promise.all(running);
  } finally {
    await readers.close();
  }
  options.onProgress?.({ done, total: discovered.length, path: null });
  report.durationMs = Math.round(performance.now() - started);
  return report;
}

type IngestOutcome =
  | { kind: 'added' | 'appended' | 'unchanged'; messages: number; stats: TranscriptStats; malformed: MalformedLine[] }
  | { kind: 'skipped'; reason: string };

/** Malformed lines were skipped: the report and the log name the file and the lines. */
function reportMalformed(report: IngestReport, t: DiscoveredTranscript, outcome: { stats: TranscriptStats; malformed: MalformedLine[] }): void {
  if (outcome.stats.malformedLines === 0) return;
  for (const m of outcome.malformed) report.problems.push({ path: t.path, status: 'indexed', reason: `line ${m.line} skipped: ${m.reason}` });
  const unnamed = outcome.stats.malformedLines - outcome.malformed.length;
  if (unnamed > 0) report.problems.push({ path: t.path, status: 'indexed', reason: `${unnamed} more malformed lines skipped` });
  log.warn('Malformed transcript lines were skipped', { path: t.absPath, lines: outcome.malformed.map((m) => m.line), count: outcome.stats.malformedLines });
}

async function ingestOne(
  rows: TranscriptRows,
  store: IndexStore,
  readers: TranscriptReaderPool,
  t: DiscoveredTranscript,
  previous: KnownTranscript | null,
  options: IngestOptions,
  sessionKind: SessionKind | undefined,
  forgottenSessions: ReadonlySet<string>,
): Promise<IngestOutcome> {
  const quiet = Date.now() - t.mtimeMs > (options.quietMs ?? DEFAULT_QUIET_MS);
  const resume = previous?.status === 'indexed' ? previous.resume : null;

  // Rows beyond the recorded line count belong to a run that did not finish: drop them first.
  let nextLine = resume ? (previous?.lines ?? 0) + 1 : 1;
  const file = { path: t.path, absPath: t.absPath, source: 'sessions' as const, sha256: null, mtimeMs: t.mtimeMs, size: t.size, status: 'indexed' as const, reason: null };
  store.transaction(() => {
    if (!resume) {
      // mtime -1 until the end: a run killed half-way is never mistaken for a finished one.
      store.writeFile({ ...file, mtimeMs: -1 }, null);
      rows.startFresh(t.path, t.tool, t.absPath);
    } else {
      rows.dropFrom(t.path, nextLine);
    }
  });
  let messages = 0;
  // One transaction per batch: the reader has rendered, chunked and packed it; this thread only writes.
  const write = (batch: TranscriptBatch): void => {
    store.transaction(() => {
      rows.insertLines(t.path, batch.linesJson);
      store.appendPackedChunks(file, batch.chunks);
    });
    nextLine += batch.lineCount;
    messages += batch.messages;
  };
  const outcome = await readers.read(
    { absPath: t.absPath, format: t.format, resume, final: quiet, maxBytes: options.maxBytes, firstLine: nextLine, ...(sessionKind ? { sessionKind } : {}) },
    write,
  );
  if (isTranscriptSkipped(outcome)) return { kind: 'skipped', reason: outcome.skipped };
  if (outcome.restarted && resume) {
    // The file was rewritten: what was indexed from it is stale; read it again from the start.
    return ingestOne(rows, store, readers, t, null, options, sessionKind, forgottenSessions);
  }

  if (forgottenSessions.has(outcome.meta.sessionId)) {
    store.transaction(() => store.writeFile({ ...file, status: 'skipped', reason: 'forgotten (reverie forget --session)' }, null));
    return { kind: 'skipped', reason: 'forgotten (reverie forget --session)' };
  }
  const totals = addStats(previous?.stats ?? null, outcome.stats);
  store.transaction(() => {
    store.writeFileRowOnly(file);
    rows.finish({ path: t.path, tool: t.tool, absPath: t.absPath, meta: outcome.meta, resumeJson: JSON.stringify(outcome.resume), statsJson: JSON.stringify(totals), lines: nextLine - 1 });
  });
  return { kind: resume ? (messages > 0 ? 'appended' : 'unchanged') : 'added', messages, stats: outcome.stats, malformed: outcome.malformed };
}

function loadKnown(db: Database.Database): Map<string, KnownTranscript> {
  const rows = db
    .prepare(
      `SELECT f.path, f.size, f.mtime_ms, f.status, f.reason, t.resume_state, t.lines, t.stats
       FROM files f LEFT JOIN transcripts t ON t.path = f.path WHERE f.source = 'sessions'`,
    )
    .all() as Array<{ path: string; size: number; mtime_ms: number; status: string; reason: string | null; resume_state: string | null; lines: number | null; stats: string | null }>;
  return new Map(
    rows.map((r) => [
      r.path,
      {
        path: r.path,
        size: r.size,
        mtimeMs: r.mtime_ms,
        status: r.status,
        reason: r.reason,
        resume: r.resume_state ? (JSON.parse(r.resume_state) as TranscriptResumeState | null) : null,
        lines: r.lines ?? 0,
        stats: r.stats && r.stats !== '{}' ? (JSON.parse(r.stats) as TranscriptStats) : null,
      },
    ]),
  );
}

async function sessionKindFor(t: DiscoveredTranscript, cache: Map<string, Map<string, SessionKind>>): Promise<SessionKind | undefined> {
  // OpenClaw keeps each session's kind in a sessions.json beside the transcripts.
  if (t.format !== 'openclaw-jsonl') return undefined;
  const dir = path.dirname(t.absPath);
  let kinds = cache.get(dir);
  if (!kinds) cache.set(dir, (kinds = await readOpenClawSessionKinds(dir).catch((error: unknown) => noSessionKinds(dir, error))));
  return kinds.get(path.basename(t.absPath, '.jsonl'));
}

function addStats(a: TranscriptStats | null, b: TranscriptStats): TranscriptStats {
  if (!a) return b;
  const sum = { ...a };
  for (const k of Object.keys(b) as Array<keyof TranscriptStats>) sum[k] = a[k] + b[k];
  return sum;
}

/** The session index could not be read: its transcripts are ingested without kinds. */
function noSessionKinds(dir: string, error: unknown): Map<string, SessionKind> {
  log.warn('The OpenClaw session kinds could not be read', { dir, error });
  return new Map();
}
