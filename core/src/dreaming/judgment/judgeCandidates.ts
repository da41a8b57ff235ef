import type { RankedCandidate } from '../phases/deepPhase.js';
import type { CuratedEntry } from './curatedEntries.js';
import { allNamesOf, entryFacts, recogniseNames, type EntryFacts } from './entryFacts.js';
import { rarityOver } from './rarity.js';
import { relate, statesTheSameValues, type Rarity } from './relation.js';
import type { DreamConflict } from '../../contract/index.js';
import { conflictId } from './conflictId.js';
import { classifyEntry } from '../../workspace/entryKind.js';

/**
 * Judgment before writing: each candidate (oldest note first) is compared with the active
 * entries of MEMORY.md/USER.md and with the candidates accepted before it.
 * - a restatement reinforces what is there instead of adding a line;
 * - a different value for the same subject supersedes by the day its note was written (never
 *   by the order of promotion): the newer one stays, the older is retired or not written;
 * - two that cannot be ordered (same day, or the person's own undated line and no announced
 *   change) are both held for the person to decide.
 */

export interface JudgedItem {
  /** A curated entry, or a candidate of this sweep. */
  curated: CuratedEntry | null;
  candidate: RankedCandidate | null;
  text: string;
  day: string | null;
  target: 'MEMORY.md' | 'USER.md';
  facts: EntryFacts;
}

export interface Judgment {
  accepted: Array<{ candidate: RankedCandidate; retires: JudgedItem[] }>;
  duplicates: Array<{ candidate: RankedCandidate; into: JudgedItem; reason: string }>;
  /** Candidates not written because a newer note says otherwise. */
  stale: Array<{ candidate: RankedCandidate; newer: JudgedItem; reason: string }>;
  conflicts: Array<{ a: JudgedItem; b: JudgedItem; reason: string }>;
}

export function judgeCandidates(
  candidates: readonly RankedCandidate[],
  curated: readonly CuratedEntry[],
  noteDayOf: (r: RankedCandidate) => string | null,
  decisions: ReadonlyMap<string, DreamConflict['status']> = new Map(),
): Judgment {
  const items = candidates.map((candidate) => ({
    curated: null,
    candidate,
    text: candidate.entry.text,
    day: noteDayOf(candidate),
    target: candidate.candidate.target ?? 'MEMORY.md',
    facts: entryFacts(candidate.entry.text),
  }));
  const active: JudgedItem[] = curated.map((c) => ({ curated: c, candidate: null, text: c.body, day: c.day, target: c.file, facts: c.facts }));
  recogniseNames([...items, ...active].map((i) => i.facts));
  const rarity = rarityOver([...items, ...active].map((i) => i.facts));
  const judgment: Judgment = { accepted: [], duplicates: [], stale: [], conflicts: [] };
  const retiresOf = new Map<JudgedItem, JudgedItem[]>();
  const held = new Set<JudgedItem>();
  /** An older candidate of this sweep → the active entry that replaced it. */
  const replacedBy = new Map<JudgedItem, JudgedItem>();

  const ordered = [...items].sort((a, b) => (a.day ?? '9999').localeCompare(b.day ?? '9999') || b.candidate.candidate.score - a.candidate.candidate.score);
  for (const item of ordered) {
    const relations = active.map((other) => ({ other, ...relate(item.facts, other.facts, rarity) }));
    // A time-bounded fact ("acting head until Jan 8") stands beside the lasting one it overlays, and retires on its own;
    // said again with the same end (the same freeze in two notes), it is still one line.
    if (item.candidate.candidate.kind === 'time-bounded') {
      const until = item.candidate.candidate.validUntil;
      const restated = relations.find((r) => r.relation === 'duplicate' && until !== null && validUntilOf(r.other) === until);
      if (restated) {
        judgment.duplicates.push({ candidate: item.candidate, into: restated.other, reason: restated.reason });
        continue;
      }
      active.push(item);
      retiresOf.set(item, []);
      continue;
    }
    movePersonalTermsToUser(item, relations);
    const duplicate = relations.find((r) => r.relation === 'duplicate') ?? restatedSuccessor(item, replacedBy, active, rarity);
    const rivals = relations.filter((r) => r.relation === 'same-attribute' && r.other.target === item.target);
    if (duplicate && rivals.every((r) => !isNewer(r.other.day, item.day))) {
      judgment.duplicates.push({ candidate: item.candidate, into: duplicate.other, reason: duplicate.reason });
      continue;
    }
    let verdict: 'accept' | 'stale' | 'conflict' = 'accept';
    const retires: JudgedItem[] = [];
    for (const rival of rivals) {
      const order = decidedOrder(item, rival.other, decisions) ?? orderOf(item, rival.other);
      if (order === 'both') continue;
      if (order === 'newer') retires.push(rival.other);
      else if (order === 'older') {
        judgment.stale.push({ candidate: item.candidate, newer: rival.other, reason: rival.reason });
        replacedBy.set(item, rival.other);
        verdict = 'stale';
        break;
      } else if (!rival.byValue) {
        // Same subject, different wording, no value in dispute: not a contradiction worth asking about.
        continue;
      } else {
        judgment.conflicts.push({ a: rival.other, b: item, reason: rival.reason });
        held.add(rival.other);
        verdict = 'conflict';
      }
    }
    if (verdict !== 'accept') continue;
    // A candidate this one replaces hands on what it replaced: "ArgoCD" after "GitHub Actions" after "make deploy" retires "make deploy" too.
    for (const r of [...retires]) if (r.candidate) retires.push(...(retiresOf.get(r) ?? []).filter((inherited) => !retires.includes(inherited)));
    for (const r of retires) remove(active, r);
    active.push(item);
    retiresOf.set(item, retires);
  }
  for (const [item, retires] of retiresOf) {
    // A candidate superseded later in this sweep, or part of a contradiction, is not written.
    if (held.has(item) || !active.includes(item)) continue;
    judgment.accepted.push({ candidate: item.candidate!, retires });
  }
  for (const [item] of retiresOf) {
    if (!active.includes(item)) {
      const newer = active.find((a) => a.candidate && retiresOf.get(a)?.includes(item));
      if (newer) judgment.stale.push({ candidate: item.candidate!, newer, reason: 'a newer note in this sweep says otherwise' });
    }
  }
  return judgment;
}

/**
 * A restatement after a supersession: "tip pool is 80/20 FOH/BOH now" beside "tip pool changed:
 * BOH 20%, FOH 80%", which replaced "FOH keeps 85%, BOH 15%". Worded apart, the two newer entries
 * are each a change of the same older one, so they are about one thing; when every value of one
 * is stated by the other, it is the same fact said again, and reinforces the line. (Only ever a
 * restatement: a successor's different value is left to the rules above, never inferred here.)
 */
function restatedSuccessor(item: JudgedItem, replacedBy: ReadonlyMap<JudgedItem, JudgedItem>, active: readonly JudgedItem[], rarity: Rarity): { other: JudgedItem; reason: string } | undefined {
  for (const [older, successor] of replacedBy) {
    if (successor === item || !active.includes(successor) || !isNewer(item.day, older.day)) continue;
    if (!statesTheSameValues(item.facts, successor.facts)) continue;
    const toOlder = relate(item.facts, older.facts, rarity);
    if (toOlder.relation !== 'same-attribute') continue;
    return { other: successor, reason: `both replace "${older.text}"; ${toOlder.reason}` };
  }
  return undefined;
}

/** "My day rate…", "I bill…": the person's own terms. */
const FIRST_PERSON = /(?<![\p{L}'’])(?:my|i|i['’]m|me|mine)(?![\p{L}'’])/iu;

/**
 * The person's own terms that change a line of USER.md ("Raising my day rate to 780" after "My
 * day rate is 720; never quote less") belong where the line they change is, or both stay active
 * in two files. So does a change announced without naming anyone ("PRs up to 600 lines are fine
 * now" after "Always keep PRs under 400 lines"): the person's rule, reworded. Someone else's news
 * about the same subject (it names them, or their product) stays in MEMORY.md.
 */
function movePersonalTermsToUser(item: JudgedItem, relations: ReadonlyArray<{ other: JudgedItem; relation: string }>): void {
  if (item.target !== 'MEMORY.md') return;
  const unnamedChange = item.facts.announcesChange && allNamesOf(item.facts).size === 0;
  if (!FIRST_PERSON.test(item.text) && !unnamedChange) return;
  if (!relations.some((r) => r.relation === 'same-attribute' && r.other.target === 'USER.md')) return;
  item.target = 'USER.md';
  if (item.candidate) item.candidate.candidate.target = 'USER.md';
}

/** The person's decision on this pair, if they made one: it outranks the dates. */
function decidedOrder(item: JudgedItem, other: JudgedItem, decisions: ReadonlyMap<string, DreamConflict['status']>): 'newer' | 'older' | 'both' | null {
  const id = conflictId(item.text, other.text);
  const decision = decisions.get(id);
  if (!decision || decision === 'open') return null;
  if (decision === 'keep-both' || decision === 'dismissed') return 'both';
  // keep-a / keep-b name the sides as queued; the side's text says which one this item is.
  const [first] = [item.text, other.text].sort();
  const keptFirst = decision === 'keep-a';
  return (item.text === first) === keptFirst ? 'newer' : 'older';
}

/** Whether `item` is newer than `other` by the days their notes were written; `unordered` when that cannot be told. */
function orderOf(item: JudgedItem, other: JudgedItem): 'newer' | 'older' | 'unordered' {
  if (item.day && other.day) return item.day > other.day ? 'newer' : item.day < other.day ? 'older' : 'unordered';
  // The person's own undated line: a note that announces the change ("Staging moved: …") is newer.
  if (item.day && !other.day && item.facts.announcesChange && !other.facts.announcesChange) return 'newer';
  return 'unordered';
}

/** When a time-bounded item stops holding: a candidate's as the sweep read it, a curated line's read from its text against its day. */
function validUntilOf(item: JudgedItem): string | null {
  if (item.candidate) return item.candidate.candidate.kind === 'time-bounded' ? (item.candidate.candidate.validUntil ?? null) : null;
  const kind = classifyEntry(item.text, item.day);
  return kind.kind === 'time-bounded' ? kind.validUntil : null;
}

function isNewer(day: string | null, than: string | null): boolean {
  return day !== null && than !== null && day > than;
}

function remove<T>(list: T[], value: T): void {
  const index = list.indexOf(value);
  if (index >= 0) list.splice(index, 1);
}
