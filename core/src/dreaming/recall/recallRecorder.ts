import type Database from 'better-sqlite3';
import { CURATED_FILES } from '../../workspace/layout.js';
import { localDay } from '../localDay.js';
import { DocumentReader } from './documentLines.js';
import { entryHashOf, queryHash } from './entryKeys.js';
import { compactRecallSignals } from './recallCompaction.js';
import { entriesAnsweringQuery } from './queryMatch.js';

/** Who asked: the app's UI, the CLI, or a local agent (socket / MCP). */
export type RecallTransport = 'ui' | 'cli' | 'agent' | 'mcp';

export interface RecalledResult {
  path: string;
  source: 'memory' | 'dreams' | 'sessions';
  startLine: number;
  endLine: number;
  score: number;
}

interface PendingSearch {
  /** Kept in memory until the flush only: the stored signal has the hash. */
  query: string;
  queryHash: string;
  transport: RecallTransport;
  at: number;
  results: RecalledResult[];
}

const FLUSH_DELAY_MS = 250;
const FLUSH_AT_PENDING = 200;
const COMPACT_EVERY_FLUSHES = 50;

/**
 * Records what every search returned, per entry, as dreaming's short-term signals. A search
 * only queues its results; rows are resolved to entries and written in one transaction a
 * moment later, so recording never slows the search itself.
 */
export class RecallRecorder {
  private pending: PendingSearch[] = [];
  private timer: NodeJS.Timeout | null = null;
  private flushes = 0;
  private reader: DocumentReader | null = null;
  private readerDb: Database.Database | null = null;

  constructor(
    private readonly dreamDb: Database.Database,
    private readonly indexDb: () => Database.Database,
    private readonly workspaceRoot: string,
    private readonly now: () => number = Date.now,
  ) {}

  record(query: string, results: readonly RecalledResult[], transport: RecallTransport, at = this.now()): void {
    const kept = results.filter((r) => r.source !== 'dreams' && !CURATED_FILES.has(r.path));
    if (query.trim() === '' || kept.length === 0) return;
    this.pending.push({ query, queryHash: queryHash(query), transport, at, results: kept.map((r) => ({ ...r })) });
    if (this.pending.length >= FLUSH_AT_PENDING) setImmediate(() => this.flushQuietly());
    else this.timer ??= setTimeout(() => this.flushQuietly(), FLUSH_DELAY_MS).unref();
  }

  /** Writes every queued search now; returns the number of signal rows written. */
  flush(): number {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const batch = this.pending.splice(0);
    if (batch.length === 0) return 0;
    const db = this.indexDb();
    // One reader per index connection: its parsed notes are reused while the files are unchanged.
    if (!this.reader || this.readerDb !== db) {
      this.reader = new DocumentReader(db, this.workspaceRoot);
      this.readerDb = db;
    }
    const reader = this.reader;
    const insert = this.dreamDb.prepare(
      'INSERT INTO recall_signals (path, start_line, end_line, entry_hash, query_hash, score, recalled_at, day, transport) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
    );
    let rows = 0;
    this.dreamDb.transaction(() => {
      for (const search of batch) {
        const day = localDay(search.at);
        for (const result of search.results) {
          const doc = reader.read(result.path);
          if (!doc) continue;
          const score = Math.max(0, Math.min(1, result.score));
          const cited = doc.entries.filter((e) => e.endLine >= result.startLine && e.startLine <= result.endLine);
          for (const entry of entriesAnsweringQuery(search.query, cited)) {
            const hash = entryHashOf(entry);
            if (!hash) continue;
            insert.run(result.path, entry.startLine, entry.endLine, hash, search.queryHash, score, search.at, day, search.transport);
            rows++;
          }
        }
      }
    })();
    if (++this.flushes % COMPACT_EVERY_FLUSHES === 0) compactRecallSignals(this.dreamDb, this.now());
    return rows;
  }

  close(): void {
    this.flushQuietly();
  }

  private flushQuietly(): void {
    try {
      this.flush();
    } catch {
      // Signals are a hint for dreaming; a failed batch must never surface as a search error.
    }
  }
}
