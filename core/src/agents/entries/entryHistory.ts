import type Database from 'better-sqlite3';
import type { EntryChange } from '../../contract/index.js';
import { lineVersion } from './entryRef.js';

/** Every change agents made (or proposed) to an entry, with the text before and after: nothing an agent edits is lost. */
export class EntryHistory {
  constructor(
    private readonly db: Database.Database,
    private readonly now: () => number,
  ) {}

  record(change: Omit<EntryChange, 'at'>): void {
    this.db
      .prepare('INSERT INTO entry_history (at, agent, action, path, line, before, after) VALUES (?, ?, ?, ?, ?, ?, ?)')
      .run(new Date(this.now()).toISOString(), change.agent, change.action, change.path, change.line, change.before, change.after);
  }

  since(at: string, limit = 200): EntryChange[] {
    return (this.db.prepare('SELECT at, agent, action, path, line, before, after FROM entry_history WHERE at > ? ORDER BY id DESC LIMIT ?').all(at, limit) as EntryChange[]).map((c) => ({ ...c }));
  }

  /** The latest update or removal of a line that read as `version`: it was changed after the caller read it. */
  successorOf(path: string, version: string): EntryChange | null {
    const rows = this.db
      .prepare("SELECT at, agent, action, path, line, before, after FROM entry_history WHERE path = ? AND action IN ('updated', 'forgotten', 'accepted') ORDER BY id DESC LIMIT 200")
      .all(path) as EntryChange[];
    return rows.find((r) => lineVersion(r.before) === version) ?? null;
  }
}
