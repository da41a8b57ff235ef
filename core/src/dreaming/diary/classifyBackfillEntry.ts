import { classifyEntry } from '../../workspace/entryKind.js';
import { conceptTags } from '../conceptTags.js';
import type { BackfillLabel } from './appendBackfillEntry.js';

/**
 * The state of something right now, not how it is for good: "broken again", "down", "still
 * waiting", "for now". A fact said this way is the day's news.
 */
const SITUATIONAL = /\b(?:again|still|currently|right now|at the moment|for now|today|tonight|this morning|this afternoon|broken|down|out of order|not working|stuck|flaky|open|pending|in progress|blocked|waiting|later|wip)\b/i;
/** A settled fact about a named thing: a verb of state or change, or a concrete value (a port, a version, a host). */
const DURABLE_VERB = /\b(?:moved|moves|migrated|switched|renamed|is|are|uses|owns|runs|lives|hosted on|deployed to|deploys|belongs to|reports to|leads|replaced|prefers|likes|works)\b/i;
const DURABLE_VALUE = /\bport\s*:?\s*\d+|\bv?\d+\.\d+(?:\.\d+)?\b|\b[a-z][a-z0-9]*(?:-[a-z0-9]+)*-\d+[a-z0-9-]*\b|\b[a-z0-9-]+\.(?:com|net|org|io|dev|internal|local)\b/i;

/**
 * A first guess at whether a daily-note line is worth keeping for good, for OpenClaw's backfill
 * candidates. The entry's kind decides first (workspace/entryKind.ts, the rules dreaming's gates
 * use): a task, an event or a dated fact is of its day; a question is unclear; a preference, a
 * decision or a procedure lasts. A plain fact lasts when it states something settled about a
 * named thing (a person, a project, a host) or a concrete value, and is of its day when it says
 * how things are right now.
 */
export function classifyBackfillEntry(raw: string, noteDay: string | null = null): BackfillLabel {
  const { kind } = classifyEntry(raw, noteDay);
  switch (kind) {
    case 'task':
    case 'event':
    case 'time-bounded':
      return 'likely_situational';
    case 'question':
      return 'unclear';
    case 'preference':
    case 'decision':
    case 'procedure':
      return 'likely_durable';
    case 'fact':
      if (SITUATIONAL.test(raw)) return 'likely_situational';
      return DURABLE_VALUE.test(raw) || (DURABLE_VERB.test(raw) && conceptTags(raw).length > 0) ? 'likely_durable' : 'unclear';
  }
}
