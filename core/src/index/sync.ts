import type { SyncReport } from '../contract/index.js';
import { inTimeSlices, yieldToEventLoop } from '../platform/timeSlices.js';
import { discoverChangedPaths, discoverWorkspace, type DiscoveryOptions } from '../workspace/discovery.js';
import { CHUNKER_VERSION } from './chunker.js';
import { readMarkdownFile, type ReadBytes } from './fileReader.js';
import type { IndexStore } from './indexStore.js';
import { ENTRY_KINDS_VERSION } from './entryKinds.js';
import { LINE_DATES_VERSION } from './lineDates.js';
import { explainDiskFull } from './diskFull.js';
import type { NoteReadJob } from './noteReadJob.js';
import { readerThreadCount } from '../platform/readerThreads.js';
import { NoteReaderPool } from './noteReaderPool.js';
import { preparedFromRead, preparedWithoutReading, rowFor, type PrepareOptions, type PreparedFile } from './notePreparation.js';

export interface SyncProgress {
  /** `migrate`: an index of an older layout is rewritten as it opens (database.ts), before any sync. */
  phase: 'discover' | 'index' | 'sessions' | 'embed' | 'migrate';
  done: number;
  total: number;
  path: string | null;
}

export interface SyncOptions {
  force?: boolean;
  maxFileBytes: number;
  onProgress?: (progress: SyncProgress) => void;
  /** Test seam: how file bytes are read. */
  readBytes?: ReadBytes;
  /** Checked between waves of files: the host is closing, leave the rest for the next sync. */
  shouldStop?: () => boolean;
  /**
   * Only these paths changed (absolute files or folders, as the watcher reports them): they are
   * discovered and compared, the rest of the index is left as it is. A sync that must read every
   * file anyway (a new chunker or line-date rules, a forced or first sync) ignores it.
   */
  changedPaths?: readonly string[];
  /**
   * Note reader threads that read and chunk the files while this thread writes: by default
   * (undefined) readerThreadCount() when at least MIN_FILES_FOR_READERS files are to be
   * read, else none; 0 reads on this thread. The `readBytes` seam always reads on this thread.
   */
  readerThreads?: number;
  /**
   * Hash vectors are computed with the chunks (on the reader threads) and stored in the same
   * transaction, so the embedding step finds nothing left to do. Only for a generation whose every
   * chunk already has its vector: the embedding step's "the newest chunk has one, so all do"
   * must stay true (see VectorStore.isEveryChunkEmbedded).
   */
  chunkVectors?: ChunkVectorSink;
}

/** Where vectors computed with the chunks go: `put` inside the transaction that wrote the chunk. */
export interface ChunkVectorSink {
  dims: number;
  put(chunkId: number, vector: Float32Array): void;
}

// Bounded so that one sync never holds the whole corpus in memory; writes go in short transactions.
const READ_CONCURRENCY = 16;
const BATCH_FILES = 256;
const BATCH_BYTES = 8 * 1024 * 1024;
const PROGRESS_INTERVAL_MS = 100;
// Fewer files than this are read on this thread: starting a reader thread costs more than it saves.
const MIN_FILES_FOR_READERS = 64;
// Files handed to a reader thread at once, and how many such groups may be read ahead of the writes.
const READER_WAVE_FILES = 32;
const READER_WAVE_BYTES = 4 * 1024 * 1024;
const READER_WAVES_AHEAD = 6;

/**
 * Brings the index in line with the disk: unchanged files (same mtime and size, or same
 * hash) are skipped, vanished ones removed, changed ones re-chunked in one transaction.
 * Yields to the event loop between batches so a host stays responsive.
 */
export async function syncIndex(store: IndexStore, discovery: DiscoveryOptions, options: SyncOptions): Promise<SyncReport> {
  const started = performance.now();
  const report: SyncReport = {
    files: 0, chunks: 0, added: 0, updated: 0, removed: 0, unchanged: 0, skipped: 0, failed: 0,
    durationMs: 0, problems: [], notices: [],
  };
  options.onProgress?.({ phase: 'discover', done: 0, total: 0, path: null });
  // Index identity: which workspace this index describes and how it was chunked.
  if (store.getMeta('workspace_root') === null) {
    store.setMeta('workspace_root', discovery.workspaceRoot);
    store.setMeta('created_at', new Date().toISOString());
  }
  if (store.getMeta('chunker') !== CHUNKER_VERSION) {
    if (store.getMeta('chunker') !== null) report.notices.push('The chunker changed since the last index: every file is re-chunked.');
    options = { ...options, force: true };
  }
  // Entry kinds made by other rules are due again: derived after search is ready, like every file's kinds (entryKindsStep.ts).
  if (store.getMeta('entry_kinds') !== ENTRY_KINDS_VERSION) {
    store.transaction(() => {
      store.clearKinds();
      store.setMeta('entry_kinds', ENTRY_KINDS_VERSION);
    });
  }
  // Line dates made by other rules (or none yet, after the upgrade that added them): every file is read again, not re-chunked.
  const refreshLineDates = store.getMeta('line_dates') !== LINE_DATES_VERSION;
  const changed = options.changedPaths && !options.force && !refreshLineDates && store.getMeta('last_sync_at') !== null ? discoverChangedPaths(discovery, options.changedPaths) : null;
  const { files, warnings } = changed ?? discoverWorkspace(discovery);
  report.notices.push(...warnings);

  // Transcripts are indexed by the sessions ingester, not from the workspace: leave them alone.
  const known = new Map([...(changed ? store.filesWithin(changed.covered) : store.allFiles())].filter(([, row]) => row.source !== 'sessions'));
  const lineOrigins = store.lineProvenance(changed ? files.map((f) => f.path) : undefined);
  const forgotten = store.forgottenPaths();
  const discoveredPaths = new Set(files.map((f) => f.path));
  const gone = [...known.keys()].filter((p) => !discoveredPaths.has(p));
  if (gone.length > 0) {
    store.transaction(() => gone.forEach((p) => store.removeFile(p)));
    report.removed += gone.length;
  }

  let done = 0;
  let lastProgress = 0;
  const progress = (path: string | null, force = false): void => {
    const now = performance.now();
    if (!force && now - lastProgress < PROGRESS_INTERVAL_MS) return;
    lastProgress = now;
    options.onProgress?.({ phase: 'index', done, total: files.length, path });
  };

  const pending: PreparedFile[] = [];
  let pendingBytes = 0;
  const flush = async (): Promise<void> => {
    if (pending.length === 0) return;
    await commitPending().catch((error: unknown) => {
      throw explainDiskFull(error, store.db.name, store.counts().indexed, files.length);
    });
  };
  // A slice's files that came with vectors: stored once their chunks are in (and have ids), in the slice's transaction.
  const withVectors: PreparedFile[] = [];
  const storeVectors = (): void => {
    const sink = options.chunkVectors;
    for (const p of withVectors.splice(0)) {
      if (!sink || !p.vectors || !p.chunks) continue;
      const ids = store.chunkIdsOf(p.row.path);
      if (ids.length !== p.chunks.length || p.vectors.length !== ids.length * sink.dims) {
        throw new Error(`${p.row.path}: ${ids.length} chunks were written for ${p.chunks.length} chunks and ${p.vectors.length / sink.dims} vectors`);
      }
      ids.forEach((id, i) => sink.put(id, p.vectors!.subarray(i * sink.dims, (i + 1) * sink.dims)));
    }
  };
  const commitPending = async (): Promise<void> => {
    const slice = (work: () => void): void =>
      store.transaction(() => {
        withVectors.length = 0;
        store.writeFilesTogether(work);
        storeVectors();
      });
    await inTimeSlices(pending, slice, (p) => {
      if (p.outcome === 'vanished') store.removeFile(p.row.path);
      else if (p.outcome === 'touched') {
        store.touchFile(p.row.path, p.row.mtimeMs, p.row.size);
        if (p.lineDates) store.writeLineDates(p.row.path, p.lineDates);
      } else if (p.outcome !== 'unchanged') {
        store.writeFile(p.row, p.chunks, p.lineDates ?? null);
        if (p.vectors) withVectors.push(p);
      }
    });
    pending.length = 0;
    pendingBytes = 0;
  };

  const tally = (p: PreparedFile): void => {
    switch (p.outcome) {
      case 'added': report.added++; break;
      case 'updated': report.updated++; break;
      case 'unchanged': case 'touched': report.unchanged++; break;
      case 'vanished': if (known.has(p.row.path)) report.removed++; break;
      case 'skipped': report.skipped++; report.problems.push({ path: p.row.path, status: 'skipped', reason: p.row.reason ?? '' }); break;
      case 'failed': report.failed++; report.problems.push({ path: p.row.path, status: 'failed', reason: p.row.reason ?? '' }); break;
    }
  };

  // Whether each file must be read is known without reading it; those that must are read (and
  // chunked) on reader threads when there are enough of them, else on this thread.
  const prepareOptions: PrepareOptions = {
    force: options.force, maxFileBytes: options.maxFileBytes, refreshLineDates,
    ...(options.chunkVectors ? { hashVectorDims: options.chunkVectors.dims } : {}),
  };
  const decided = files.map((file): PreparedFile | null =>
    forgotten.has(file.path)
      ? { row: { ...rowFor(file), status: 'skipped', reason: 'forgotten (reverie forget); remove the tombstone to index it again' }, chunks: null, outcome: 'skipped', bytes: 0 }
      : preparedWithoutReading(file, known.get(file.path), prepareOptions),
  );
  const toRead = decided.reduce((n, d) => (d === null ? n + 1 : n), 0);
  const threads = options.readBytes ? 0 : (options.readerThreads ?? (toRead >= MIN_FILES_FOR_READERS ? readerThreadCount() : 0));
  const pool = threads > 0 && toRead > 0 ? new NoteReaderPool(threads) : null;
  const jobOf = (i: number): NoteReadJob => ({ file: files[i]!, previous: known.get(files[i]!.path), lineOrigins: lineOrigins.get(files[i]!.path) });

  // Waves of files, in file order (chunk ids follow it), prepared ahead while earlier waves are written.
  let next = 0;
  const nextWave = (): Promise<PreparedFile[]> => {
    const from = next;
    if (!pool) {
      // A small pool of async reads on this thread.
      next = Math.min(files.length, next + READ_CONCURRENCY);
      return Promise.all(decided.slice(from, next).map(async (d, k) => d ?? preparedFromRead(files[from + k]!, known.get(files[from + k]!.path), await readMarkdownFile(files[from + k]!.absPath, options.readBytes), prepareOptions, lineOrigins.get(files[from + k]!.path))));
    }
    const reads: number[] = [];
    let bytes = 0;
    while (next < files.length && reads.length < READER_WAVE_FILES && bytes < READER_WAVE_BYTES) {
      if (decided[next] === null) {
        reads.push(next);
        bytes += files[next]!.size;
      }
      next++;
    }
    const wave = decided.slice(from, next);
    return pool.prepare(reads.map(jobOf), prepareOptions).then((prepared) => {
      reads.forEach((i, k) => (wave[i - from] = prepared[k]!));
      return wave as PreparedFile[];
    });
  };
  // Settled, not bare promises: a wave left unwritten by a stop or an earlier failure is no unhandled rejection.
  const ahead: Promise<{ wave: PreparedFile[] } | { error: unknown }>[] = [];
  const fillAhead = (): void => {
    while (next < files.length && ahead.length < (pool ? READER_WAVES_AHEAD : 1)) {
      ahead.push(nextWave().then((wave) => ({ wave }), (error: unknown) => ({ error })));
    }
  };

  try {
    fillAhead();
    while (ahead.length > 0 && !options.shouldStop?.()) {
      const settled = await ahead.shift()!;
      if ('error' in settled) throw settled.error;
      const { wave } = settled;
      fillAhead();
      for (const prepared of wave) {
        done++;
        tally(prepared);
        if (prepared.outcome !== 'unchanged') {
          pending.push(prepared);
          pendingBytes += prepared.bytes;
        }
        progress(prepared.row.path);
      }
      if (pending.length >= BATCH_FILES || pendingBytes >= BATCH_BYTES) await flush();
      await yieldToEventLoop(); // reading and chunking a wave of files is work too
    }
  } finally {
    await pool?.close();
  }
  await flush();
  progress(null, true);

  const counts = store.counts();
  report.files = counts.files;
  report.chunks = counts.chunks;
  report.durationMs = Math.round(performance.now() - started);
  store.setMeta('last_sync_at', new Date().toISOString());
  store.setMeta('chunker', CHUNKER_VERSION);
  // A stopped sync leaves files unread: their line dates are refreshed by the next one.
  if (!options.shouldStop?.()) store.setMeta('line_dates', LINE_DATES_VERSION);
  return report;
}
