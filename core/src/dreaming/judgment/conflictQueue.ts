import type Database from 'better-sqlite3';
import { DreamConflictSide, type DreamConflict } from '../../contract/index.js';
import { ReverieError } from '../../platform/errors.js';

type Row = { id: string; a_json: string; b_json: string; reason: string; run_id: string; detected_at: string; status: DreamConflict['status']; resolved_at: string | null };

/** Queues contradictions; a pair already queued (open or decided) keeps its row and decision. */
export function queueConflicts(db: Database.Database, conflicts: readonly DreamConflict[]): void {
  const insert = db.prepare('INSERT OR IGNORE INTO conflicts (id, a_json, b_json, reason, run_id, detected_at, status) VALUES (?, ?, ?, ?, ?, ?, ?)');
  db.transaction(() => {
    for (const c of conflicts) insert.run(c.id, JSON.stringify(c.a), JSON.stringify(c.b), c.reason, c.runId, c.detectedAt, 'open');
  })();
}

export function listConflicts(db: Database.Database, status: 'open' | 'all'): DreamConflict[] {
  const rows = db.prepare(`SELECT * FROM conflicts ${status === 'open' ? "WHERE status = 'open'" : ''} ORDER BY detected_at DESC, id`).all() as Row[];
  return rows.map(toConflict);
}

/** The person's decisions, by conflict id, for the next sweep's judgment. */
export function conflictDecisions(db: Database.Database): Map<string, DreamConflict['status']> {
  const rows = db.prepare("SELECT id, status FROM conflicts WHERE status <> 'open'").all() as Array<{ id: string; status: DreamConflict['status'] }>;
  return new Map(rows.map((r) => [r.id, r.status]));
}

export function resolveConflict(db: Database.Database, id: string, decision: Exclude<DreamConflict['status'], 'open'>, now: number): DreamConflict {
  const row = db.prepare('SELECT * FROM conflicts WHERE id = ?').get(id) as Row | undefined;
  if (!row) throw new ReverieError('not-found', `No contradiction ${id}. List them with \`reverie dream conflicts\`.`);
  db.prepare('UPDATE conflicts SET status = ?, resolved_at = ? WHERE id = ?').run(decision, new Date(now).toISOString(), id);
  return toConflict({ ...row, status: decision, resolved_at: new Date(now).toISOString() });
}

function toConflict(row: Row): DreamConflict {
  return {
    id: row.id,
    a: DreamConflictSide.parse(JSON.parse(row.a_json)),
    b: DreamConflictSide.parse(JSON.parse(row.b_json)),
    reason: row.reason,
    runId: row.run_id,
    detectedAt: row.detected_at,
    status: row.status,
    resolvedAt: row.resolved_at,
  };
}
