import type Database from 'better-sqlite3';
import type { StatusOutput } from '../contract/index.js';

type SessionTotals = StatusOutput['sessions'];

/** Totals over every ingested transcript's stats, for `status`. */
export function sessionTotals(db: Database.Database): SessionTotals {
  const totals: SessionTotals = { transcripts: 0, lines: 0, messages: 0, unknownLines: 0, malformedLines: 0, toolCalls: 0, redactions: 0, recalledStripped: 0 };
  for (const row of db.prepare('SELECT stats FROM transcripts').iterate() as Iterable<{ stats: string }>) {
    totals.transcripts++;
    const stats = JSON.parse(row.stats) as Partial<Record<keyof SessionTotals, number>>;
    for (const key of ['lines', 'messages', 'unknownLines', 'malformedLines', 'toolCalls', 'redactions', 'recalledStripped'] as const) totals[key] += stats[key] ?? 0;
  }
  return totals;
}
