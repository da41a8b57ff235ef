import { sha256Hex } from '../platform/hash.js';
import { inTimeSlices, yieldToEventLoop } from '../platform/timeSlices.js';
import type { StoredEntryKind } from './entryKinds.js';
import { kindsOfReadText, type ClassifiedFile } from './entryKindsJob.js';
import { EntryKindsPool, entryKindsThreadCount } from './entryKindsPool.js';
import { readMarkdownFile, type ReadBytes } from './fileReader.js';
import type { IndexStore } from './indexStore.js';

/** Files read at once on the engine thread, as the sync reads them (sync.ts): the reads overlap, the classifying does not. */
const READ_CONCURRENCY = 16;
/** Fewer pending files are classified on the engine thread: a kinds thread takes tens of milliseconds to start. */
const MIN_FILES_FOR_THREADS = 64;
/** Files per request to a kinds thread, and requests in flight per thread (so a thread never waits for the engine thread's writes). */
const THREAD_WAVE_FILES = 32;
const WAVES_AHEAD_PER_THREAD = 2;

export interface EntryKindsPass {
  /** Files whose kinds were written. */
  derived: number;
  /** Files left for later: changed on disk since they were indexed (the next sync reads them), or gone. */
  deferred: number;
  durationMs: number;
}

export interface EntryKindsOptions {
  /** The tests' seam for reading file bytes: always read (and classified) on the engine thread. */
  readBytes?: ReadBytes;
  /**
   * Kinds threads (entryKindsWorker.ts) that read and classify while the engine thread writes:
   * (undefined) entryKindsThreadCount() when at least MIN_FILES_FOR_THREADS files are pending,
   * else none; 0 classifies on the engine thread.
   */
  threads?: number;
}

/** A file read for its kinds: written only if `sha256` is still the indexed text's; `kinds` is classified when asked (on the engine thread, only then). */
interface FileToWrite {
  path: string;
  sha256: string;
  kinds: () => readonly StoredEntryKind[];
}

/**
 * The entry kinds of every indexed memory file that has none yet (new or edited since, or all
 * of them after the kinds rules changed), derived after `index-ready` like the graph: the kind
 * scorer reads every line, a third of a first index's CPU when it ran inside the sync. Files are
 * read again from disk and their kinds written only when the text is the one indexed (same
 * hash, checked in the transaction that writes them), so a file edited meanwhile never gets the
 * kinds of other text: it stays pending until the sync that reads it. A large pass reads and
 * classifies on kinds threads, leaving the engine thread the checks and writes (~1.7 ms of
 * classifying per note otherwise). Work goes in time slices that stop when `shouldStop` says so
 * (a sync waits, the engine closes); the rest is found again by the next pass, as the files
 * without a row.
 */
export async function deriveEntryKinds(store: IndexStore, shouldStop: () => boolean, options: EntryKindsOptions = {}): Promise<EntryKindsPass> {
  const started = performance.now();
  const pass: EntryKindsPass = { derived: 0, deferred: 0, durationMs: 0 };
  const pending = store.filesAwaitingKinds();
  const threads = options.readBytes ? 0 : (options.threads ?? (pending.length >= MIN_FILES_FOR_THREADS ? entryKindsThreadCount() : 0));
  const pool = threads > 0 && pending.length > 0 ? new EntryKindsPool(threads) : null;
  try {
    const waves = pool ? classifiedOnThreads(store, pending, pool, threads, shouldStop) : readHere(store, pending, options.readBytes, shouldStop);
    for await (const wave of waves) {
      await inTimeSlices(wave, (work) => store.transaction(work), (file) => {
        // Checked inside the transaction that writes: nothing changes the row between the check and the write.
        if (!file || store.indexedMemorySha(file.path) !== file.sha256) {
          pass.deferred++;
          return;
        }
        store.writeKinds(file.path, file.kinds());
        pass.derived++;
      }, { shouldStop });
      await yieldToEventLoop();
    }
  } finally {
    await pool?.close();
  }
  pass.durationMs = performance.now() - started;
  return pass;
}

/** Waves of files read on the engine thread, classified as they are written (inside the write's time slice). */
async function* readHere(store: IndexStore, pending: readonly PendingFile[], readBytes: ReadBytes | undefined, shouldStop: () => boolean): AsyncGenerator<Array<FileToWrite | null>> {
  for (let next = 0; next < pending.length && !shouldStop(); ) {
    const wave = pending.slice(next, next + READ_CONCURRENCY);
    next += wave.length;
    yield await Promise.all(
      wave.map(async (file): Promise<FileToWrite | null> => {
        const outcome = await readMarkdownFile(file.absPath, readBytes);
        if (outcome.kind !== 'text') return null;
        return { path: file.path, sha256: sha256Hex(outcome.bytes), kinds: () => kindsOfReadText(file.path, outcome.text, store.lineProvenance([file.path]).get(file.path)) };
      }),
    );
  }
}

type PendingFile = ReturnType<IndexStore['filesAwaitingKinds']>[number];

/**
 * Waves of files read and classified on kinds threads, in order, with more waves in flight
 * while one is written. The lines' recorded origins go with each file (read when its wave is
 * sent): a line Reverie wrote changes the file, and so its hash, which the write checks.
 */
async function* classifiedOnThreads(store: IndexStore, pending: readonly PendingFile[], pool: EntryKindsPool, threads: number, shouldStop: () => boolean): AsyncGenerator<Array<FileToWrite | null>> {
  // Settled, not bare promises: a wave left unawaited when the pass stops fails as the pool closes, and that is no unhandled rejection.
  const ahead: Promise<{ classified: ClassifiedFile[] } | { error: unknown }>[] = [];
  let next = 0;
  const sendMore = (): void => {
    while (next < pending.length && ahead.length < threads * WAVES_AHEAD_PER_THREAD) {
      const wave = pending.slice(next, next + THREAD_WAVE_FILES);
      next += wave.length;
      const origins = store.lineProvenance(wave.map((f) => f.path));
      const jobs = wave.map((f) => ({ path: f.path, absPath: f.absPath, lineOrigins: origins.get(f.path) }));
      ahead.push(pool.classify(jobs).then((classified) => ({ classified }), (error: unknown) => ({ error })));
    }
  };
  sendMore();
  while (ahead.length > 0 && !shouldStop()) {
    const settled = await ahead.shift()!;
    if ('error' in settled) throw settled.error;
    const { classified } = settled;
    sendMore();
    yield classified.map((c) => c && { path: c.path, sha256: c.sha256, kinds: () => c.kinds });
  }
}
