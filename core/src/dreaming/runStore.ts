import type Database from 'better-sqlite3';
import { DreamRun, type DreamRunSummary } from '../contract/index.js';
import { ReverieError } from '../platform/errors.js';

/**
 * Dream runs as records (`dream:<id>`), stored whole (a run is read and shown as one
 * document) beside a small summary, so listing runs never parses thousands of candidates.
 */
export class DreamRunStore {
  constructor(private readonly db: Database.Database) {}

  save(run: DreamRun): void {
    this.db
      .prepare(
        `INSERT INTO dream_runs (id, status, started_at, finished_at, dry_run, summary, record) VALUES (?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT(id) DO UPDATE SET status = excluded.status, finished_at = excluded.finished_at, summary = excluded.summary, record = excluded.record`,
      )
      .run(run.id, run.status, run.startedAt, run.finishedAt, run.dryRun ? 1 : 0, JSON.stringify(summarize(run)), JSON.stringify(run));
  }

  get(id: string): DreamRun {
    const row = this.db.prepare('SELECT record FROM dream_runs WHERE id = ?').get(id) as { record: string } | undefined;
    if (!row) throw new ReverieError('not-found', `No dream run ${id}; list runs with \`reverie dream runs\`.`);
    return DreamRun.parse(JSON.parse(row.record));
  }

  list(limit: number): DreamRunSummary[] {
    const rows = this.db.prepare('SELECT summary FROM dream_runs ORDER BY started_at DESC, rowid DESC LIMIT ?').all(limit) as Array<{ summary: string }>;
    return rows.map(({ summary }) => JSON.parse(summary) as DreamRunSummary);
  }

  /** The newest finished real run (dry runs write nothing, so they never stand in for a sweep). */
  lastFinished(trigger?: DreamRun['trigger'][]): DreamRunSummary | null {
    const rows = this.db
      .prepare("SELECT summary FROM dream_runs WHERE status != 'running' AND dry_run = 0 ORDER BY started_at DESC LIMIT 50")
      .all() as Array<{ summary: string }>;
    for (const { summary } of rows) {
      const run = JSON.parse(summary) as DreamRunSummary;
      if (!trigger || trigger.includes(run.trigger)) return run;
    }
    return null;
  }

  /** Runs left `running` by a process that died are failed, never silently forgotten. */
  markInterrupted(exceptRunId: string | null): number {
    let changed = 0;
    for (const { id } of this.db.prepare("SELECT id FROM dream_runs WHERE status = 'running'").all() as Array<{ id: string }>) {
      if (id === exceptRunId) continue;
      const run = this.get(id);
      this.save({
        ...run,
        status: 'failed',
        reason: 'interrupted: the process stopped during the sweep (crash or kill); files were left as they were before or after their atomic write',
        finishedAt: new Date().toISOString(),
      });
      changed++;
    }
    return changed;
  }
}

function summarize(run: DreamRun): DreamRunSummary {
  return {
    id: run.id,
    status: run.status,
    reason: run.reason,
    trigger: run.trigger,
    dryRun: run.dryRun,
    startedAt: run.startedAt,
    finishedAt: run.finishedAt,
    rolledBack: run.rolledBack,
    candidates: run.candidates.length,
    promoted: run.promoted.filter((p) => p.decision === 'auto' || p.decision === 'approved').length,
    proposed: run.promoted.filter((p) => p.decision === 'proposed').length,
  };
}
