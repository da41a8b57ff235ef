import type { BackfillLabel } from './appendBackfillEntry.js';

// Work in progress: it matters today, not for good. Checked first, so "still uses X" is situational.
const SITUATIONAL = /\b(still|todo|to-do|wip|today|tomorrow|tonight|open|pending|chore|for now|in progress|blocked|waiting|later|fixme)\b/i;
// Settled facts and decisions about named things.
const DURABLE_VERB = /\b(moved|moves|migrated|switched|decided|is|are|was renamed|uses|use|owns|own|runs on|lives on|lives in|hosted on|deployed to|prefers|always|never)\b/i;
// Concrete values: ports, versions, host-like names with digits.
const DURABLE_VALUE = /\bport\s*:?\s*\d+|\bv?\d+\.\d+(?:\.\d+)?\b|\b[a-z][a-z0-9]*(?:-[a-z0-9]+)*-\d+[a-z0-9-]*\b|\b[a-z0-9-]+\.(?:com|net|org|io|dev|internal|local)\b/i;

/** A deterministic first guess at whether a daily-note line is worth keeping for good. */
export function classifyBackfillEntry(text: string): BackfillLabel {
  if (SITUATIONAL.test(text)) return 'likely_situational';
  if (DURABLE_VERB.test(text) || DURABLE_VALUE.test(text)) return 'likely_durable';
  return 'unclear';
}
