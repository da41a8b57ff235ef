import { randomBytes } from 'node:crypto';
import type Database from 'better-sqlite3';
import type { Intent } from '../../contract/index.js';
import { ReverieError } from '../../platform/errors.js';
import { sameProject } from '../context/activeEntries.js';
import { stemText } from '../context/wordStems.js';
import { rowToIntent, parseKeywords, type IntentRow } from './intentRow.js';
import { intentStatus, isActiveStatus, STATUS_ORDER } from './intentStatus.js';
import { matchedKeywords } from './keywordMatch.js';

export interface IntentInput {
  description: string;
  keywords: string[];
  project?: string;
  expiresInDays: number;
  fireBudget: number;
  cooldownHours: number;
}

const DAY_MS = 86_400_000;

/**
 * Standing intents (prospective memory) in the agents database: "bring this up when a message
 * mentions X". Firing is budgeted and cooled down so one intent cannot nag every turn.
 */
export class IntentStore {
  constructor(
    private readonly db: Database.Database,
    private readonly now: () => number = Date.now,
  ) {}

  create(input: IntentInput, createdBy: string | null): Intent {
    const keywords = [...new Set(input.keywords.map((k) => k.trim()).filter(Boolean))];
    if (keywords.length === 0) throw new ReverieError('invalid-input', 'An intent needs at least one keyword that is not blank.');
    const description = input.description.trim();
    if (description === '') throw new ReverieError('invalid-input', 'An intent needs a description.');
    const nowMs = this.now();
    const id = `intent:${randomBytes(9).toString('base64url')}`;
    this.db
      .prepare(
        `INSERT INTO intents (id, description, keywords, project, created_by, created_at, expires_at, fire_budget, fired, cooldown_hours)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, 0, ?)`,
      )
      .run(id, description, JSON.stringify(keywords), input.project ?? null, createdBy, iso(nowMs), iso(nowMs + input.expiresInDays * DAY_MS), input.fireBudget, input.cooldownHours);
    return this.get(id, nowMs)!;
  }

  /** Armed first, then cooling down; cancelled, expired and exhausted ones only with `includeInactive`. */
  list(includeInactive: boolean): Intent[] {
    const nowMs = this.now();
    return this.rows()
      .map((row) => rowToIntent(row, nowMs))
      .filter((intent) => includeInactive || isActiveStatus(intent.status))
      .sort((a, b) => STATUS_ORDER[a.status] - STATUS_ORDER[b.status]);
  }

  /** Idempotent: cancelling a cancelled intent returns it unchanged. */
  cancel(id: string): Intent {
    const nowMs = this.now();
    this.db.prepare('UPDATE intents SET cancelled_at = ? WHERE id = ? AND cancelled_at IS NULL').run(iso(nowMs), id);
    const intent = this.get(id, nowMs);
    if (!intent) throw new ReverieError('not-found', `No standing intent ${id}; \`intents.list\` with includeInactive shows every intent.`);
    return intent;
  }

  /**
   * Fires the armed intents the message mentions (most keywords matched first, at most `limit`):
   * each fire counts against the budget and starts the cooldown, in one transaction. An intent
   * with a project fires only when that same project is given; one without fires for any message.
   */
  matchAndFire(message: string, project?: string, limit = 3): Intent[] {
    const stems = stemText(message);
    const fire = this.db.prepare('UPDATE intents SET fired = fired + 1, last_fired_at = ? WHERE id = ?');
    const run = this.db.transaction((): string[] => {
      const nowMs = this.now();
      const candidates = this.rows()
        .filter((row) => intentStatus(row, nowMs) === 'armed' && projectAllows(row.project, project))
        .map((row) => {
          const keywords = parseKeywords(row.keywords);
          const matched = matchedKeywords(stems, keywords).length;
          return { row, matched, share: keywords.length ? matched / keywords.length : 0 };
        })
        .filter((c) => c.matched > 0)
        .sort((a, b) => b.matched - a.matched || b.share - a.share)
        .slice(0, Math.max(0, limit));
      for (const { row } of candidates) fire.run(iso(nowMs), row.id);
      return candidates.map((c) => c.row.id);
    });
    // IMMEDIATE: two hosts matching at once must not both fire an intent's last budget.
    const firedIds = run.immediate();
    const nowMs = this.now();
    return firedIds.map((id) => this.get(id, nowMs)!);
  }

  private get(id: string, nowMs: number): Intent | null {
    const row = this.db.prepare('SELECT * FROM intents WHERE id = ?').get(id) as IntentRow | undefined;
    return row ? rowToIntent(row, nowMs) : null;
  }

  /** In creation order (rowid): the sorts above are stable, so ties go to the older intent. */
  private rows(): IntentRow[] {
    return this.db.prepare('SELECT * FROM intents ORDER BY rowid').all() as IntentRow[];
  }
}

/** Project-scoped intents need the same project (case-insensitive); unscoped ones fire anywhere. */
function projectAllows(intentProject: string | null, project: string | undefined): boolean {
  return intentProject === null || sameProject(intentProject, project);
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}
