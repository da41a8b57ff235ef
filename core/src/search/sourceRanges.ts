import type Database from 'better-sqlite3';
import type { SourceKind } from '../contract/index.js';
import { RUN_TRIGGERS } from '../index/migrations/0017-chunk-source-runs.js';

/** Chunk ids `lo`..`hi` (inclusive); `mixed` when chunks of other sources lie inside too and each match's source must be read. */
export interface IdRange {
  lo: number;
  hi: number;
  mixed: boolean;
}

/**
 * Where a source's chunks are in the id space, read from `chunk_source_runs` (migration 0017,
 * kept true by triggers on `chunks`): a search filtered to a source asks FTS5 for those id
 * ranges only, so the matches of the other sources are never walked nor their source read.
 * The runs are read again whenever any connection wrote to the index.
 */
export class SourceRanges {
  private readonly allRuns: Database.Statement<[], { first_id: number; last_id: number; source: string }> | null;
  private readonly triggers: Database.Statement<[], { n: number }> | null;
  private runs: Array<{ first_id: number; last_id: number; source: string }> | null = null;
  private held: ReadonlySet<string> | null = null;
  private readonly bySources = new Map<string, IdRange[]>();
  private stamp = '';

  constructor(db: Database.Database) {
    const hasTable = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'chunk_source_runs'").get() !== undefined;
    this.allRuns = hasTable ? db.prepare('SELECT first_id, last_id, source FROM chunk_source_runs ORDER BY first_id') : null;
    this.triggers = hasTable
      ? db.prepare(`SELECT count(*) AS n FROM sqlite_master WHERE type = 'trigger' AND name IN (${RUN_TRIGGERS.map((t) => `'${t}'`).join(', ')})`)
      : null;
  }

  /**
   * The ranges holding every chunk of `sources`, newest first, at most `maxRanges` of them (the
   * runs nearest each other are joined into mixed ranges first); null when the runs cannot be
   * trusted (no table, or a trigger that keeps it is missing): the caller reads each match's source.
   * `writes` changes whenever the index was written to (KeywordSearcher.writesSeen).
   */
  of(sources: ReadonlySet<SourceKind>, writes: string, maxRanges: number): IdRange[] | null {
    this.readRuns(writes);
    if (this.runs === null) return null;
    const key = `${[...sources].sort().join(',')}/${maxRanges}`;
    let ranges = this.bySources.get(key);
    if (!ranges) {
      ranges = rangesOf(this.runs, sources, maxRanges);
      this.bySources.set(key, ranges);
    }
    return ranges;
  }

  /** The sources that hold at least one chunk; null when the runs cannot be trusted (see `of`). */
  holding(writes: string): ReadonlySet<string> | null {
    this.readRuns(writes);
    return this.held;
  }

  private readRuns(writes: string): void {
    if (writes === this.stamp) return;
    this.stamp = writes;
    this.bySources.clear();
    this.runs = this.allRuns && this.triggers!.get()!.n === RUN_TRIGGERS.length ? this.allRuns.all() : null;
    this.held = this.runs === null ? null : new Set(this.runs.map((r) => r.source));
  }
}

/** The share of the id space below which a gap between two ranges is joined (see `rangesOf`). */
const JOIN_GAP_SHARE = 1 / 20;

/** Runs in id order → the wanted sources' ranges, newest first (exported for tests). */
export function rangesOf(runs: ReadonlyArray<{ first_id: number; last_id: number; source: string }>, sources: ReadonlySet<string>, maxRanges: number): IdRange[] {
  // Wanted runs with no unwanted run between them are one range (ids between them belong to no live chunk).
  const pure: IdRange[] = [];
  let open: IdRange | null = null;
  for (const run of runs) {
    if (!sources.has(run.source)) {
      open = null;
      continue;
    }
    if (open) open.hi = run.last_id;
    else pure.push((open = { lo: run.first_id, hi: run.last_id, mixed: false }));
  }
  if (pure.length <= 1) return pure;
  // Each range costs FTS5 a query that walks the query words' postings once more (for BM25's
  // counts, ~0.1 µs each), while a match inside a joined gap costs a read of its source (~2.6 µs
  // on a 180k-chunk index): a gap narrower than JOIN_GAP_SHARE of the ids, which holds about that
  // share of the matches, is cheaper joined. Past `maxRanges` the narrowest gaps are joined too.
  const span = runs[runs.length - 1]!.last_id - runs[0]!.first_id + 1;
  const gaps = pure.slice(1).map((r, i) => ({ at: i + 1, width: r.lo - pure[i]!.hi }));
  const wide = gaps.filter((g) => g.width >= span * JOIN_GAP_SHARE);
  const kept = new Set(wide.sort((a, b) => b.width - a.width || a.at - b.at).slice(0, Math.max(0, maxRanges - 1)).map((g) => g.at));
  const joined: IdRange[] = [];
  pure.forEach((r, i) => {
    const last = joined.at(-1);
    if (last && !kept.has(i)) {
      last.hi = r.hi;
      last.mixed = true;
    } else joined.push({ ...r });
  });
  return joined.reverse();
}
