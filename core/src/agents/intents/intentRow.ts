import type { Intent } from '../../contract/index.js';
import { intentStatus } from './intentStatus.js';
import { processLogger } from '../../platform/log/processLog.js';

const log = processLogger('agents/intents');

/** A row of the `intents` table (agents migration 0001). */
export interface IntentRow {
  id: string;
  description: string;
  /** JSON array of strings. */
  keywords: string;
  project: string | null;
  created_by: string | null;
  created_at: string;
  expires_at: string;
  fire_budget: number;
  fired: number;
  cooldown_hours: number;
  last_fired_at: string | null;
  cancelled_at: string | null;
}

export function rowToIntent(row: IntentRow, nowMs: number): Intent {
  return {
    id: row.id,
    description: row.description,
    keywords: parseKeywords(row.keywords),
    project: row.project,
    createdBy: row.created_by,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    fireBudget: row.fire_budget,
    fired: row.fired,
    cooldownHours: row.cooldown_hours,
    lastFiredAt: row.last_fired_at,
    status: intentStatus(row, nowMs),
  };
}

/** A hand-edited or damaged keywords column reads as no keywords (the intent then never fires) rather than failing the list. */
export function parseKeywords(json: string): string[] {
  try {
    const value: unknown = JSON.parse(json);
    return Array.isArray(value) ? value.filter((k): k is string => typeof k === 'string') : [];
  } catch (error) {
    log.warn('An intent has damaged keywords; it will not fire', { keywords: json.slice(0, 200), error });
    return [];
  }
}
