import type { DreamCandidate, DreamPromotion, DreamRun } from '../../contract/index.js';
import { gateFunnel, passedClause, shortfalls, type GateFunnel } from './gateFunnel.js';
import { isNotThePersons } from '../promotionReview.js';
import { quoteEntry } from './quoteEntry.js';
import { supersessionsOf } from './supersessions.js';

export { classifyBackfillEntry } from './classifyBackfillEntry.js';

/** What the narrative reads: the run record as the sweep has it just before the diary is written. */
export type NarratedRun = Pick<DreamRun, 'candidates' | 'promoted' | 'thresholds' | 'phases' | 'writes'> & Partial<Pick<DreamRun, 'curation' | 'contradictions'>>;

const LOOKBACK_DAYS = 7;
const CLOSEST_SHOWN = 3;

/**
 * The diary's first-person account of one run, read from its record so it cannot say other
 * than what happened: how many entries passed each gate, every promotion and supersession by
 * name (grouped by file, with counts), what waits for review and why, the closest entries held
 * back with the gate that held them and by how much, and what could not be written. Same run,
 * same words.
 */
export function narrateDream(run: NarratedRun): string {
  const funnel = gateFunnel(run.candidates, run.thresholds);
  const written = run.promoted.filter((p) => p.decision === 'auto' || p.decision === 'approved');
  const proposals = run.promoted.filter((p) => p.decision === 'proposed');
  const ineligible = run.candidates.filter((c) => c.outcome === 'ineligible').length;
  const aborted = run.writes.filter((w) => w.outcome === 'aborted').map((w) => w.reason ?? w.file);
  if (written.length === 0 && proposals.length === 0 && ineligible === 0 && aborted.length === 0) return [quietNight(run, funnel), judgmentSentence(run)].filter(Boolean).join('\n\n');
  const paragraphs = [
    [lookedOver(run, funnel), themesSentence(run)],
    [...writtenSentences(run, written)],
    [judgmentSentence(run)],
    [heldSentence(run, proposals, ineligible)],
    [closestSentence(run)],
    [abortedSentence(aborted)],
  ];
  return paragraphs
    .map((sentences) => sentences.filter((s): s is string => s !== null).join(' '))
    .filter((p) => p !== '')
    .join('\n\n');
}

/** What the judgment kept out: restatements, older claims a newer note replaces, contradictions for the person. */
function judgmentSentence(run: NarratedRun): string | null {
  const c = run.curation;
  if (!c || c.dedupes + c.stale + c.conflicts === 0) return null;
  const clauses: string[] = [];
  if (c.dedupes > 0) clauses.push(`left out ${count(c.dedupes, 'restatement', 'restatements')} of what memory already says (the entry cites the new note instead)`);
  if (c.stale > 0) clauses.push(`did not write ${count(c.stale, 'older claim', 'older claims')} that a newer note replaces`);
  const queued = run.contradictions ?? [];
  if (queued.length > 0) clauses.push(`queued ${count(queued.length, 'contradiction', 'contradictions')} for you in Dreams → Conflicts (${queued.map((q) => `${quoteEntry(q.a.text)} against ${quoteEntry(q.b.text)}`).join('; ')})`);
  return `I ${joinClauses(clauses)}.`;
}

function quietNight(run: NarratedRun, funnel: GateFunnel): string {
  if (funnel.looked === 0) return 'A quiet night: there was nothing new to look over, so I left memory as it was.';
  const closest = closestHeldBack(run, 1)[0];
  const why = closest ? ` The closest was ${quoteEntry(closest.text)} (${shortfalls(closest, run.thresholds).join('; ')}).` : '';
  return `A quiet night: I looked over ${count(funnel.looked, 'entry', 'entries')}, and none passed every gate, so memory stays as it was.${why}`;
}

/** "I looked over 44 entries: 40 could be promoted…, 30 scored at least 0.65 …; 20 passed every gate, and the limit of 10 a night let 10 through." */
function lookedOver(run: NarratedRun, funnel: GateFunnel): string {
  const dropped = funnel.steps.filter((step, i) => step.passed < (i === 0 ? funnel.looked : funnel.steps[i - 1]!.passed));
  const clauses = dropped.map((step) => `${step.passed} ${passedClause(step.gate, run.thresholds)}`);
  const opening = `I looked over ${count(funnel.looked, 'entry', 'entries')}`;
  const every = funnel.passedGates === funnel.looked && funnel.looked > 1 ? `all ${funnel.looked} passed every gate` : `${funnel.passedGates} passed every gate`;
  const limit = funnel.limit ? `, and the limit of ${funnel.limit.max} a night let ${funnel.limit.through} of them through` : '';
  return clauses.length === 0 ? `${opening}, and ${every}${limit}.` : `${opening}: ${joinClauses(clauses)}. In the end ${every}${limit}.`;
}

/** Recurring concepts of the week (names, projects, hosts), written as the notes write them. */
function themesSentence(run: NarratedRun): string | null {
  const themes = [...run.phases.rem.themes]
    .filter((theme) => theme.boosted && theme.days >= 2)
    .sort((a, b) => b.strength - a.strength || b.days - a.days || a.tag.localeCompare(b.tag))
    .slice(0, 2)
    .map((theme) => `${asWritten(theme.tag, run.candidates)} came up on ${Math.min(theme.days, LOOKBACK_DAYS)} of the last ${LOOKBACK_DAYS} days`);
  return themes.length === 0 ? null : `${capitalize(joinClauses(themes))}.`;
}

/** Every promotion by name: grouped by file and by what was done, with a count when there is more than one. */
function writtenSentences(run: NarratedRun, written: readonly DreamPromotion[]): string[] {
  const sentences: string[] = [];
  const textOf = (p: DreamPromotion) => run.candidates.find((c) => c.key === p.candidateKey)?.text ?? p.candidateKey;
  for (const target of ['MEMORY.md', 'USER.md'] as const) {
    const added = written.filter((p) => p.target === target && p.action === 'added');
    if (added.length > 0) sentences.push(`Into ${target} I wrote ${added.length === 1 ? '' : `${added.length} entries: `}${joinClauses(added.map((p) => quoteEntry(textOf(p))))}.`);
    const merged = written.filter((p) => p.target === target && p.action === 'merged');
    if (merged.length > 0) sentences.push(`In ${target} I merged ${merged.length === 1 ? '' : `${merged.length} entries with what was already there: `}${joinClauses(merged.map((p) => quoteEntry(textOf(p))))}${merged.length === 1 ? ' with what was already there' : ''}.`);
    const replaced = supersessionsOf(run, written).filter((s) => s.target === target);
    if (replaced.length > 0) {
      const clauses = replaced.map((s) => (s.replaced.length > 0 ? `${joinClauses(s.replaced.map(quoteEntry))} with ${quoteEntry(s.text)}` : `an older line with ${quoteEntry(s.text)}`));
      sentences.push(`In ${target} I replaced ${replaced.length === 1 ? '' : `${replaced.length} entries: `}${joinClauses(clauses)}.`);
    }
  }
  return sentences;
}

function heldSentence(run: NarratedRun, proposals: readonly DreamPromotion[], ineligible: number): string | null {
  const parts: string[] = [];
  if (proposals.length > 0) {
    const notYours = proposals.filter((p) => {
      const c = run.candidates.find((candidate) => candidate.key === p.candidateKey);
      return c !== undefined && isNotThePersons(c);
    }).length;
    parts.push(`I left ${count(proposals.length, 'entry', 'entries')} for you to review${notYoursClause(proposals.length, notYours)}`);
  }
  if (ineligible > 0) {
    const one = ineligible === 1;
    parts.push(
      `${one ? 'one entry' : `${ineligible} entries`} came from outside (a web page, a tool or another agent), so I left ${one ? 'it' : 'them'} where ${one ? 'it was' : 'they were'}, unpromoted`,
    );
  }
  return parts.length === 0 ? null : `${capitalize(parts.join(', and '))}.`;
}

function notYoursClause(proposed: number, notYours: number): string {
  if (notYours === 0) return '';
  const why = 'written by an agent or imported, not by you, and only you can make it part of your memory';
  if (notYours === proposed) return proposed === 1 ? `: it was ${why}` : `: they were ${why.replace('make it', 'make them')}`;
  return ` (${notYours} of them ${why.replace(', and only you can make it part of your memory', '')})`;
}

/** The strongest candidates held back, each with the gate that held it and by how much. */
function closestSentence(run: NarratedRun): string | null {
  const closest = closestHeldBack(run, CLOSEST_SHOWN);
  if (closest.length === 0) return null;
  const clauses = closest.map((c) => `${quoteEntry(c.text)} (${shortfalls(c, run.thresholds).join('; ')})`);
  return `The closest I held back: ${joinClauses(clauses)}.`;
}

function closestHeldBack(run: NarratedRun, n: number): DreamCandidate[] {
  return run.candidates
    .filter((c) => c.outcome === 'below-gates')
    .sort((a, b) => b.score - a.score || a.key.localeCompare(b.key))
    .slice(0, n);
}

function abortedSentence(aborted: readonly string[]): string | null {
  if (aborted.length === 0) return null;
  const reasons = aborted.map((reason) => reason.trim().replace(/[.\s]+$/, ''));
  return `I stopped before ${aborted.length === 1 ? 'one write' : `${aborted.length} writes`} and left the file${aborted.length === 1 ? '' : 's'} untouched: ${reasons.join('; ')}.`;
}

/** A theme tag (lower-cased to group) as the notes spell it: "Kestrel", "GitHub Actions". */
function asWritten(tag: string, candidates: readonly DreamCandidate[]): string {
  const pattern = new RegExp(`(?<![\\p{L}\\p{N}])${tag.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\p{L}\\p{N}])`, 'iu');
  for (const c of candidates) {
    const match = pattern.exec(c.text);
    if (match) return match[0];
  }
  return tag;
}

function joinClauses(clauses: readonly string[]): string {
  if (clauses.length <= 1) return clauses.join('');
  return `${clauses.slice(0, -1).join(', ')} and ${clauses.at(-1)}`;
}

function count(n: number, singular: string, plural: string): string {
  return `${n} ${n === 1 ? singular : plural}`;
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
