import type Database from 'better-sqlite3';
import { inTimeSlices, SLICE_MS } from '../../platform/timeSlices.js';
import { CURATED_FILES } from '../../workspace/layout.js';
import { localDay } from '../../platform/localDay.js';
import { DocumentReader } from './documentLines.js';
import { entryHashOf, queryHash } from './entryKeys.js';
import { compactRecallSignals, compactRecallSignalsInSlices } from './recallCompaction.js';
import { entriesAnsweringQuery, queryStems } from './queryMatch.js';
import { processLogger } from '../../platform/log/processLog.js';

const log = processLogger('dreaming/recall');

/** Who asked: the app's UI, the CLI, or a local agent (socket / MCP). */
export type RecallTransport = 'ui' | 'cli' | 'agent' | 'mcp';

export interface RecalledResult {
  path: string;
  source: 'memory' | 'dreams' | 'sessions';
  startLine: number;
  endLine: number;
  score: number;
  /** The entries that answered, when a search worker already resolved them (else the recorder does). */
  entries?: readonly RecalledEntry[];
}

export interface RecalledEntry {
  startLine: number;
  endLine: number;
  hash: string;
}

/** Which entries of a result's cited lines answered the query, with their hashes: the rows a recall writes. */
export function recalledEntries(reader: DocumentReader, wanted: ReadonlySet<string>, result: Pick<RecalledResult, 'path' | 'startLine' | 'endLine'>): RecalledEntry[] {
  const cited = reader.entriesAround(result.path, result.startLine, result.endLine);
  const found: RecalledEntry[] = [];
  if (!cited || cited.length === 0) return found;
  for (const entry of entriesAnsweringQuery(wanted, cited)) {
    const hash = entryHashOf(entry);
    if (hash) found.push({ startLine: entry.startLine, endLine: entry.endLine, hash });
  }
  return found;
}

/** Whether the recorder keeps a result at all (dreams and curated files are not short-term recall). */
export function isRecordedResult(result: Pick<RecalledResult, 'path' | 'source'>): boolean {
  return result.source !== 'dreams' && !CURATED_FILES.has(result.path);
}

interface PendingSearch {
  /** Kept in memory until the flush only: the stored signal has the hash. */
  query: string;
  queryHash: string;
  transport: RecallTransport;
  at: number;
  results: RecalledResult[];
  /** The query's stems, made once for all its results when the first is written. */
  wanted?: ReadonlySet<string>;
  day?: string;
}

/**
 * A batch `drain` is writing, one result per step: `results[result]` of `searches[next]` is
 * the next to write. Everything before it is written (or was dropped with a failed slice).
 */
interface Batch {
  searches: PendingSearch[];
  next: number;
  result: number;
}

/** The same query from the same caller again within this long is the same look: recorded once. */
export const REPEAT_QUERY_WINDOW_MS = 10 * 60_000;
/** A read this soon after a search, by the same caller, of a result it showed, is that result being used. */
export const USE_AFTER_SEARCH_MS = 10 * 60_000;
const RECENT_SEARCHES = 50;
const INSERT_USE = 'INSERT OR IGNORE INTO recall_uses (path, entry_hash, query_hash, used_at, day, transport) VALUES (?, ?, ?, ?, ?, ?)';

const FLUSH_DELAY_MS = 250;
const FLUSH_AT_PENDING = 200;
const COMPACT_EVERY_FLUSHES = 50;
const INSERT_SIGNAL =
  'INSERT INTO recall_signals (path, start_line, end_line, entry_hash, query_hash, score, recalled_at, day, transport) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)';

/**
 * Records what every search returned, per entry, as dreaming's short-term signals. A search
 * only queues its results; a moment later they are resolved to entries and written by `drain`,
 * in transactions of about SLICE_MS with a turn of the event loop between them, so recording
 * never slows the search itself nor holds the engine's one thread while searches wait.
 * `flush` writes everything at once, for sweeps, `close` and tests.
 */
export class RecallRecorder {
  private pending: PendingSearch[] = [];
  /** The batch a drain is writing, while it waits for its next slice. */
  private inFlight: Batch | null = null;
  private draining: Promise<number> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private immediate: NodeJS.Immediate | null = null;
  private closed = false;
  private flushes = 0;
  private reader: DocumentReader | null = null;
  private readerDb: Database.Database | null = null;
  private insert: Database.Statement | null = null;
  private insertUse: Database.Statement | null = null;
  /** The last searches, newest last: a read that follows one of them is a use of its results. */
  private recent: PendingSearch[] = [];
  /** Searches whose recalled entries a search worker is still working out. */
  private readonly resolving = new Set<Promise<void>>();

  constructor(
    private readonly dreamDb: Database.Database,
    private readonly indexDb: () => Database.Database,
    private readonly workspaceRoot: string,
    private readonly now: () => number = Date.now,
    /** How long one of `drain`'s transactions may run before it yields (tests pass 0: one result each). */
    private readonly sliceMs = SLICE_MS,
  ) {}

  record(query: string, results: readonly RecalledResult[], transport: RecallTransport, at = this.now()): void {
    if (this.closed) return;
    const kept = results.filter(isRecordedResult);
    if (query.trim() === '' || kept.length === 0) return;
    const search: PendingSearch = { query, queryHash: queryHash(query), transport, at, results: kept.map((r) => ({ ...r })) };
    // An agent retrying a search, or a person pressing Enter twice, is one recall, not two.
    const repeat = this.recent.some((r) => r.queryHash === search.queryHash && r.transport === transport && at >= r.at && at - r.at < REPEAT_QUERY_WINDOW_MS);
    if (repeat) return;
    this.pending.push(search);
    this.recent.push(search);
    if (this.recent.length > RECENT_SEARCHES) this.recent.shift();
    this.schedule();
  }

  /**
   * A caller read lines `fromLine`–`toLine` of `path` (null: the whole file): each entry there
   * that one of its searches of the last minutes returned and that answered that search is
   * recorded as used. Returns the rows written (0 when the read followed no search).
   */
  recordUse(path: string, fromLine: number, toLine: number | null, transport: RecallTransport, at = this.now()): number {
    if (this.closed) return 0;
    const last = toLine ?? Number.MAX_SAFE_INTEGER;
    const uses: Array<{ entry: RecalledEntry; search: PendingSearch }> = [];
    for (const search of this.recent) {
      if (search.transport !== transport || at < search.at || at - search.at > USE_AFTER_SEARCH_MS) continue;
      for (const result of search.results) {
        if (result.path !== path || result.endLine < fromLine || result.startLine > last) continue;
        const entries = result.entries ?? recalledEntries(this.readerFor(this.indexDb()), (search.wanted ??= queryStems(search.query)), result);
        for (const entry of entries) if (entry.endLine >= fromLine && entry.startLine <= last) uses.push({ entry, search });
      }
    }
    if (uses.length === 0) return 0;
    const insert = (this.insertUse ??= this.dreamDb.prepare(INSERT_USE));
    const day = localDay(at);
    return this.dreamDb.transaction(() => uses.reduce((n, { entry, search }) => n + insert.run(path, entry.hash, search.queryHash, at, day, transport).changes, 0))();
  }

  /**
   * Records a search whose recalled entries are still being worked out elsewhere (a search
   * worker); if that fails, this thread works them out as for `record`. The time is now's.
   */
  recordWhenResolved(query: string, results: ReadonlyArray<RecalledResult & { id: string }>, transport: RecallTransport, entries: Promise<Record<string, RecalledEntry[]>>): void {
    const at = this.now();
    const settled: Promise<void> = entries
      .then(
        (byId) => this.record(query, results.map((r) => ({ ...r, entries: byId[r.id] })), transport, at),
        () => this.record(query, results, transport, at),
      )
      .finally(() => this.resolving.delete(settled));
    this.resolving.add(settled);
  }

  /** Resolves when every search recorded so far is queued (its recalled entries resolved). */
  async whenResolved(): Promise<void> {
    await Promise.allSettled([...this.resolving]);
  }

  /**
   * Writes every queued search now, and what a running drain has not written yet, in one
   * transaction; returns the number of signal rows written. It holds the thread for the whole
   * batch: searches are recorded for `drain` to write, this is for sweeps, `close` and tests.
   */
  flush(): number {
    this.cancelTimers();
    const searches = this.takeAll();
    if (searches.length === 0) return 0;
    const insert = this.insertStatement();
    let rows = 0;
    this.dreamDb.transaction(() => {
      for (const search of searches) for (const result of search.results) rows += this.write(search, result, insert);
    })();
    if (this.compactionDue()) compactRecallSignals(this.dreamDb, this.now());
    return rows;
  }

  /**
   * Writes every queued search, and those recorded while it runs, in transactions of about
   * SLICE_MS with a turn of the event loop between them. Resolves to the rows written; rejects
   * when a write fails, the rest of that batch dropped (as a failed `flush` drops its batch).
   * While one runs, calling it again returns the same promise.
   */
  drain(): Promise<number> {
    if (this.closed) return Promise.resolve(0);
    this.draining ??= this.drainAll().finally(() => {
      this.draining = null;
      this.schedule(); // anything recorded after the last batch was taken
    });
    return this.draining;
  }

  /** Writes everything still queued (synchronously: the store closes next); later searches are not recorded. */
  close(): void {
    this.closed = true;
    this.flushQuietly();
  }

  private async drainAll(): Promise<number> {
    let rows = 0;
    while (!this.closed && this.pending.length > 0) {
      this.cancelTimers();
      const batch: Batch = { searches: this.pending.splice(0), next: 0, result: 0 };
      this.inFlight = batch;
      const insert = this.insertStatement();
      try {
        await inTimeSlices(
          stepsOf(batch),
          (work) => this.dreamDb.transaction(work)(),
          () => {
            // A synchronous flush between two slices may have written the rest already.
            const search = batch.searches[batch.next];
            if (!search) return;
            const result = search.results[batch.result++]!;
            if (batch.result >= search.results.length) {
              batch.next++;
              batch.result = 0;
            }
            rows += this.write(search, result, insert);
          },
          // Closed (the store is about to close) or flushed: nothing of this batch is left to write.
          { budgetMs: this.sliceMs, shouldStop: () => this.closed || batch.next >= batch.searches.length },
        );
      } finally {
        if (this.inFlight === batch) this.inFlight = null;
      }
      if (!this.closed && this.compactionDue()) {
        await compactRecallSignalsInSlices(this.dreamDb, this.now(), { shouldStop: () => this.closed });
      }
    }
    return rows;
  }

  /** What a drain has not written yet, then the queued searches; the drain finds nothing left. */
  private takeAll(): PendingSearch[] {
    const batch = this.inFlight;
    const taken: PendingSearch[] = [];
    if (batch && batch.next < batch.searches.length) {
      const current = batch.searches[batch.next]!;
      taken.push(batch.result === 0 ? current : { ...current, results: current.results.slice(batch.result) });
      taken.push(...batch.searches.slice(batch.next + 1));
      batch.next = batch.searches.length;
      batch.result = 0;
    }
    return taken.concat(this.pending.splice(0));
  }

  /** The rows of one result: the entries it cites that answered the query. */
  private write(search: PendingSearch, result: RecalledResult, insert: Database.Statement): number {
    const entries = result.entries ?? recalledEntries(this.readerFor(this.indexDb()), (search.wanted ??= queryStems(search.query)), result);
    if (entries.length === 0) return 0;
    const score = Math.max(0, Math.min(1, result.score));
    const day = (search.day ??= localDay(search.at));
    for (const entry of entries) insert.run(result.path, entry.startLine, entry.endLine, entry.hash, search.queryHash, score, search.at, day, search.transport);
    return entries.length;
  }

  /** One reader per index connection: its parsed notes are reused while the files are unchanged. */
  private readerFor(db: Database.Database): DocumentReader {
    if (!this.reader || this.readerDb !== db) {
      this.reader = new DocumentReader(db, this.workspaceRoot);
      this.readerDb = db;
    }
    return this.reader;
  }

  private insertStatement(): Database.Statement {
    return (this.insert ??= this.dreamDb.prepare(INSERT_SIGNAL));
  }

  /** Every so many batches the table is compacted (`drain` does it in slices too: at the cap it folds tens of thousands of rows). */
  private compactionDue(): boolean {
    return ++this.flushes % COMPACT_EVERY_FLUSHES === 0;
  }

  /** A drain soon: after a short delay, or on the next turn once many searches wait. A running drain takes them itself. */
  private schedule(): void {
    if (this.closed || this.draining || this.pending.length === 0) return;
    if (this.pending.length >= FLUSH_AT_PENDING) {
      if (this.timer) clearTimeout(this.timer);
      this.timer = null;
      this.immediate ??= setImmediate(() => {
        this.immediate = null;
        this.drainQuietly();
      });
    } else {
      this.timer ??= setTimeout(() => {
        this.timer = null;
        this.drainQuietly();
      }, FLUSH_DELAY_MS).unref();
    }
  }

  private cancelTimers(): void {
    if (this.timer) clearTimeout(this.timer);
    if (this.immediate) clearImmediate(this.immediate);
    this.timer = null;
    this.immediate = null;
  }

  // Signals are a hint for dreaming; a failed batch must never surface as a search error.
  private drainQuietly(): void {
    this.drain().catch((error: unknown) => log.warn('Recall signals could not be saved', { error }));
  }

  private flushQuietly(): void {
    try {
      this.flush();
    } catch (error) {
      // As above.
      log.warn('Recall signals could not be saved', { error });
    }
  }
}

/** One step per result left in the batch; the step itself takes the result, so a flush in between leaves it nothing. */
function* stepsOf(batch: Batch): Generator<void> {
  while (batch.next < batch.searches.length) yield;
}
