import type Database from 'better-sqlite3';

/** Everything dreaming knows about how one entry was recalled. */
export interface EntryRecall {
  path: string;
  entryHash: string;
  /** Where the entry was when last recalled (it may have moved since). */
  startLine: number;
  endLine: number;
  count: number;
  /** Distinct searches whose result was then used (opened in the window, read by an agent): see recall_uses. */
  uses: number;
  scoreSum: number;
  queries: Set<string>;
  days: Set<string>;
  firstAt: number;
  lastAt: number;
}

export function entryRef(path: string, entryHash: string): string {
  return `${path}\u0000${entryHash}`;
}

/** Raw signals plus the aggregates of older ones, per entry. */
export function readRecallStats(db: Database.Database): Map<string, EntryRecall> {
  const stats = new Map<string, EntryRecall>();
  const at = (path: string, hash: string, startLine: number, endLine: number): EntryRecall => {
    const ref = entryRef(path, hash);
    let s = stats.get(ref);
    if (!s) {
      s = { path, entryHash: hash, startLine, endLine, count: 0, uses: 0, scoreSum: 0, queries: new Set(), days: new Set(), firstAt: Infinity, lastAt: 0 };
      stats.set(ref, s);
    }
    return s;
  };
  for (const row of db.prepare('SELECT * FROM recall_aggregates').iterate() as Iterable<{
    path: string;
    entry_hash: string;
    count: number;
    score_sum: number;
    query_hashes: string;
    days: string;
    first_at: number;
    last_at: number;
  }>) {
    const s = at(row.path, row.entry_hash, 1, 1);
    s.count += row.count;
    s.scoreSum += row.score_sum;
    for (const q of JSON.parse(row.query_hashes) as string[]) s.queries.add(q);
    for (const d of JSON.parse(row.days) as string[]) s.days.add(d);
    s.firstAt = Math.min(s.firstAt, row.first_at);
    s.lastAt = Math.max(s.lastAt, row.last_at);
  }
  for (const row of db.prepare('SELECT path, start_line, end_line, entry_hash, query_hash, score, recalled_at, day FROM recall_signals ORDER BY id').iterate() as Iterable<{
    path: string;
    start_line: number;
    end_line: number;
    entry_hash: string;
    query_hash: string;
    score: number;
    recalled_at: number;
    day: string;
  }>) {
    const s = at(row.path, row.entry_hash, row.start_line, row.end_line);
    s.startLine = row.start_line;
    s.endLine = row.end_line;
    s.count++;
    s.scoreSum += row.score;
    s.queries.add(row.query_hash);
    s.days.add(row.day);
    s.firstAt = Math.min(s.firstAt, row.recalled_at);
    s.lastAt = Math.max(s.lastAt, row.recalled_at);
  }
  for (const row of db.prepare('SELECT path, entry_hash, count(*) AS uses, max(used_at) AS last_at FROM recall_uses GROUP BY path, entry_hash').iterate() as Iterable<{
    path: string;
    entry_hash: string;
    uses: number;
    last_at: number;
  }>) {
    const s = stats.get(entryRef(row.path, row.entry_hash));
    if (!s) continue; // a use without its search's signal (compacted away): nothing to weigh
    s.uses = row.uses;
    s.lastAt = Math.max(s.lastAt, row.last_at);
  }
  return stats;
}
