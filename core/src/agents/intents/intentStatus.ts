import type { Intent } from '../../contract/index.js';
import type { IntentRow } from './intentRow.js';

export type IntentStatus = Intent['status'];

const HOUR_MS = 3_600_000;

/** Derived, never stored, so it is right at any clock: cancelled > expired > exhausted > cooling-down > armed. */
export function intentStatus(row: Pick<IntentRow, 'cancelled_at' | 'expires_at' | 'fired' | 'fire_budget' | 'last_fired_at' | 'cooldown_hours'>, nowMs: number): IntentStatus {
  if (row.cancelled_at !== null) return 'cancelled';
  if (nowMs >= Date.parse(row.expires_at)) return 'expired';
  if (row.fired >= row.fire_budget) return 'exhausted';
  if (row.last_fired_at !== null && nowMs < Date.parse(row.last_fired_at) + row.cooldown_hours * HOUR_MS) return 'cooling-down';
  return 'armed';
}

/** List order: what may fire soonest first. */
export const STATUS_ORDER: Record<IntentStatus, number> = { armed: 0, 'cooling-down': 1, exhausted: 2, expired: 3, cancelled: 4 };

/** Armed and cooling-down intents still stand; the rest are kept for the record. */
export function isActiveStatus(status: IntentStatus): boolean {
  return status === 'armed' || status === 'cooling-down';
}
