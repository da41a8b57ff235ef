import type Database from 'better-sqlite3';
import type { AccessLogEntry } from '../contract/index.js';
import type { AgentRegistry } from './agentRegistry.js';
import type { Logger } from '../platform/log/logger.js';
import { processLogger } from '../platform/log/processLog.js';

const FLUSH_DELAY_MS = 200;
const MAX_ROWS = 100_000;
const MAX_DETAIL_CHARS = 200;

export interface AccessRecord extends Omit<AccessLogEntry, 'agent'> {
  agentId: string;
  agentName: string;
}

/**
 * Every agent call, per agent: method, what was asked (shortened), result count, time.
 * Calls are queued and written in one transaction a moment later, so logging never slows
 * an answer; the table keeps the newest 100k rows.
 */
export class AccessLog {
  private pending: AccessRecord[] = [];
  private timer: NodeJS.Timeout | null = null;
  private closed = false;

  constructor(
    private readonly db: Database.Database,
    private readonly registry: AgentRegistry,
    private readonly logger: Logger = processLogger('agents/accessLog'),
  ) {}

  record(entry: AccessRecord): void {
    // A call that was still running when the host closed its store has nowhere to be logged.
    if (this.closed) return;
    this.pending.push({ ...entry, detail: entry.detail === null ? null : shorten(entry.detail) });
    this.timer ??= setTimeout(() => this.flushQuietly(), FLUSH_DELAY_MS).unref();
  }

  /** Writes what is queued; nothing is recorded afterwards (the database closes next). */
  close(): void {
    this.flush();
    this.closed = true;
  }

  private flushQuietly(): void {
    try {
      this.flush();
    } catch (error) {
      // The access log is a record for the person, not part of the answer: a failed batch never takes the host down.
      this.logger.warn('Agent calls could not be written to the access log', { error });
    }
  }

  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.closed) return;
    const batch = this.pending.splice(0);
    if (batch.length === 0) return;
    const insert = this.db.prepare(
      'INSERT INTO access_log (at, agent, method, detail, results, ok, error, duration_ms, transport) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
    );
    this.db.transaction(() => {
      const perAgent = new Map<string, { calls: number; at: string }>();
      for (const e of batch) {
        insert.run(e.at, e.agentName, e.method, e.detail, e.results, e.ok ? 1 : 0, e.error, e.durationMs, e.transport);
        perAgent.set(e.agentId, { calls: (perAgent.get(e.agentId)?.calls ?? 0) + 1, at: e.at });
      }
      for (const [id, { calls, at }] of perAgent) this.registry.noteUse(id, calls, at);
      const newest = (this.db.prepare('SELECT max(id) AS id FROM access_log').get() as { id: number | null }).id ?? 0;
      if (newest > MAX_ROWS) this.db.prepare('DELETE FROM access_log WHERE id <= ?').run(newest - MAX_ROWS);
    })();
  }

  list(agent: string | undefined, limit: number): AccessLogEntry[] {
    this.flush();
    const rows = (
      agent
        ? this.db.prepare('SELECT * FROM access_log WHERE agent = ? ORDER BY id DESC LIMIT ?').all(agent, limit)
        : this.db.prepare('SELECT * FROM access_log ORDER BY id DESC LIMIT ?').all(limit)
    ) as Array<{ at: string; agent: string; method: string; detail: string | null; results: number | null; ok: number; error: string | null; duration_ms: number; transport: string }>;
    return rows.map((r) => ({
      at: r.at,
      agent: r.agent,
      method: r.method,
      detail: r.detail,
      results: r.results,
      ok: r.ok === 1,
      error: r.error,
      durationMs: r.duration_ms,
      transport: r.transport === 'mcp' ? 'mcp' : 'socket',
    }));
  }
}

function shorten(detail: string): string {
  const flat = detail.replace(/\s+/g, ' ').trim();
  return flat.length > MAX_DETAIL_CHARS ? `${flat.slice(0, MAX_DETAIL_CHARS - 1)}…` : flat;
}
