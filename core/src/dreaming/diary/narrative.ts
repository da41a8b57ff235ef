import type { DreamNarrativeFacts } from '../types.js';

export { classifyBackfillEntry } from './classifyBackfillEntry.js';

const MAX_QUOTES = 3;
const MAX_QUOTE_CHARS = 80;
const LOOKBACK_DAYS = 7;

type Promotion = DreamNarrativeFacts['promoted'][number];

/**
 * The diary's first-person paragraph for one run: what was looked at, what recurred, what was
 * kept, left for review or held back, what could not be written. Same facts, same words.
 */
export function narrateDream(facts: DreamNarrativeFacts): string {
  const quiet = facts.promoted.length === 0 && facts.proposed === 0 && facts.ineligible === 0 && facts.aborted.length === 0;
  if (quiet) return quietNight(facts);
  const sentences = [lookedOver(facts), promotedSentence(facts), heldSentence(facts), abortedSentence(facts)];
  return sentences.filter((s): s is string => s !== null).join(' ');
}

function quietNight(facts: DreamNarrativeFacts): string {
  if (facts.candidates === 0) return 'A quiet night: there was nothing new to look over, so I left memory as it was.';
  const t = facts.thresholds;
  return `A quiet night: I looked over ${count(facts.candidates, 'entry', 'entries')}, but none had come up often enough to keep for good (score ${t.minScore}, ${t.minRecallCount} recalls, ${t.minUniqueQueries} different searches), so memory stays as it was.`;
}

function lookedOver(facts: DreamNarrativeFacts): string {
  const opening = `I looked over ${count(facts.candidates, 'entry', 'entries')}, and ${facts.passed === 0 ? 'none' : facts.passed} passed the gates`;
  const themes = [...facts.themes]
    .filter((theme) => theme.days >= 2)
    .sort((a, b) => b.strength - a.strength || b.days - a.days || a.tag.localeCompare(b.tag))
    .slice(0, 2)
    .map((theme) => `${theme.tag} came up on ${Math.min(theme.days, LOOKBACK_DAYS)} of the last ${LOOKBACK_DAYS} days`);
  return themes.length === 0 ? `${opening}.` : `${opening}; ${joinClauses(themes)}.`;
}

function promotedSentence(facts: DreamNarrativeFacts): string | null {
  if (facts.promoted.length === 0) return null;
  const quoted = facts.promoted.slice(0, MAX_QUOTES).map(promotionClause);
  const rest = facts.promoted.length - quoted.length;
  const more = rest > 0 ? `, plus ${count(rest, 'more entry', 'more entries')}` : '';
  return `I ${joinClauses(quoted)}${more}.`;
}

function promotionClause(promotion: Promotion): string {
  const text = quote(promotion.text);
  if (promotion.action === 'superseded') return `replaced an older line in ${promotion.target} with ${text}`;
  if (promotion.action === 'merged') return `merged ${text} with what ${promotion.target} already said`;
  return `wrote ${text} into ${promotion.target}`;
}

function heldSentence(facts: DreamNarrativeFacts): string | null {
  const parts: string[] = [];
  if (facts.proposed > 0) parts.push(`I left ${count(facts.proposed, 'entry', 'entries')} for you to review${notYoursClause(facts.proposed, facts.proposedNotByYou ?? 0)}`);
  if (facts.ineligible > 0) {
    const one = facts.ineligible === 1;
    parts.push(
      `${one ? 'one entry' : `${facts.ineligible} entries`} came from outside (a web page, a tool or another agent), so I left ${one ? 'it' : 'them'} where ${one ? 'it was' : 'they were'}, unpromoted`,
    );
  }
  if (parts.length === 0) return null;
  return `${capitalize(parts.join(', and '))}.`;
}

function notYoursClause(proposed: number, notYours: number): string {
  if (notYours === 0) return '';
  const why = 'written by an agent or imported, not by you, and only you can make it part of your memory';
  if (notYours === proposed) return proposed === 1 ? `: it was ${why}` : `: they were ${why.replace('make it', 'make them')}`;
  return ` (${notYours} of them ${why.replace(', and only you can make it part of your memory', '')})`;
}

function abortedSentence(facts: DreamNarrativeFacts): string | null {
  if (facts.aborted.length === 0) return null;
  const reasons = facts.aborted.map((reason) => reason.trim().replace(/[.\s]+$/, ''));
  return `I stopped before ${facts.aborted.length === 1 ? 'one write' : `${facts.aborted.length} writes`} and left the file${facts.aborted.length === 1 ? '' : 's'} untouched: ${reasons.join('; ')}.`;
}

function quote(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim().replace(/[.\s]+$/, '');
  return `“${flat.length > MAX_QUOTE_CHARS ? `${flat.slice(0, MAX_QUOTE_CHARS - 1).trimEnd()}…` : flat}”`;
}

function joinClauses(clauses: string[]): string {
  if (clauses.length <= 1) return clauses.join('');
  return `${clauses.slice(0, -1).join(', ')} and ${clauses.at(-1)}`;
}

function count(n: number, singular: string, plural: string): string {
  return `${n} ${n === 1 ? singular : plural}`;
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
