import type { DreamConflict, DreamConflictSide, DreamCuration, DreamPromotion } from '../../contract/index.js';
import { sourceReference } from '../curated/memoryFile.js';
import { noteDayOf, type RankedCandidate } from '../phases/deepPhase.js';
import type { TextEdit } from '../types.js';
import { editCuratedEntries } from './curatedEdits.js';
import { activeCuratedEntries, type CuratedEntry } from './curatedEntries.js';
import { judgeCandidates, type JudgedItem } from './judgeCandidates.js';
import { conflictId } from './conflictId.js';
import { entryFacts } from './entryFacts.js';
import { checkAgainstNewerNotes } from './newerNotes.js';

export interface AppliedJudgment {
  /** The candidates still to write, oldest note first. */
  toWrite: RankedCandidate[];
  /** In-place edits of the curated files (retired entries, grown source lists). */
  memoryEdit: TextEdit;
  userEdit: TextEdit;
  /** Candidate key → the entries it supersedes, for the promotion record. */
  supersededBy: Map<string, string[]>;
  curation: DreamCuration;
  contradictions: DreamConflict[];
}

/** Runs the judgment on the candidates about to be written and records its verdict on each. */
export function applyJudgment(
  candidates: readonly RankedCandidate[],
  memoryText: string,
  userText: string,
  runId: string,
  now: number,
  decisions: ReadonlyMap<string, DreamConflict['status']> = new Map(),
  held: readonly RankedCandidate[] = [],
): AppliedJudgment {
  const curated = [...activeCuratedEntries('MEMORY.md', memoryText), ...activeCuratedEntries('USER.md', userText)];
  // Notes of the same day or later that did not pass yet still order the facts: promotion order never does.
  const notes = checkAgainstNewerNotes(candidates, held, (r) => noteDayOf(r.entry), decisions);
  const setAside = new Set([...notes.stale.map((s) => s.candidate), ...notes.conflicts.map((c) => c.candidate)]);
  for (const s of notes.stale) {
    s.candidate.candidate.outcome = 'not-written';
    s.candidate.candidate.gates.push({ gate: 'judgment', passed: false, detail: `a newer note says otherwise: "${clip(s.newer.ranked.entry.text)}" (${s.newer.ranked.entry.path}#L${s.newer.ranked.entry.startLine}; ${s.reason}): not written` });
  }
  for (const c of notes.conflicts) {
    c.candidate.candidate.outcome = 'not-written';
    c.candidate.candidate.gates.push({ gate: 'judgment', passed: false, detail: `contradicts "${clip(c.other.ranked.entry.text)}" (${c.other.ranked.entry.path}#L${c.other.ranked.entry.startLine}), a note of the same day: queued for you in Dreams → Conflicts` });
  }
  const judgment = judgeCandidates(candidates.filter((c) => !setAside.has(c)), curated, (r) => noteDayOf(r.entry), decisions);
  for (const d of judgment.duplicates) {
    d.candidate.candidate.outcome = 'duplicate';
    d.candidate.candidate.gates.push({ gate: 'judgment', passed: false, detail: `restates "${clip(d.into.text)}" (${where(d.into)}; ${d.reason}): reinforces it instead of a new line` });
  }
  for (const s of judgment.stale) {
    s.candidate.candidate.outcome = 'not-written';
    s.candidate.candidate.gates.push({ gate: 'judgment', passed: false, detail: `superseded by the newer "${clip(s.newer.text)}" (${where(s.newer)}; ${s.reason}): not written` });
  }
  const contradictions = [
    ...notes.conflicts.map((c) => toConflict(noteItem(c.candidate, c.candidate.entry.text), noteItem(c.other.ranked, c.other.ranked.entry.text), c.reason, runId, now)),
    ...judgment.conflicts.map((c) => toConflict(c.a, c.b, c.reason, runId, now)),
  ];
  for (const c of judgment.conflicts) {
    for (const side of [c.a, c.b]) {
      if (!side.candidate) continue;
      side.candidate.candidate.outcome = 'not-written';
      const other = side === c.a ? c.b : c.a;
      side.candidate.candidate.gates.push({ gate: 'judgment', passed: false, detail: `contradicts "${clip(other.text)}" (${where(other)}) and the dates cannot order them: queued for you in Dreams → Conflicts` });
    }
  }
  const supersededBy = new Map<string, string[]>();
  const retire = { 'MEMORY.md': [] as CuratedEntry[], 'USER.md': [] as CuratedEntry[] };
  for (const a of judgment.accepted) {
    const curatedRetired = a.retires.filter((r) => r.curated).map((r) => r.curated!);
    for (const r of curatedRetired) retire[r.file].push(r);
    if (a.retires.length > 0) supersededBy.set(a.candidate.entry.key, a.retires.map((r) => r.text));
    a.candidate.candidate.gates.push({ gate: 'judgment', passed: true, detail: a.retires.length > 0 ? `supersedes ${a.retires.map((r) => `"${clip(r.text)}" (${where(r)})`).join(', ')} by note date` : 'new: no entry says the same or otherwise' });
  }
  const reinforce = { 'MEMORY.md': [] as Array<{ entry: CuratedEntry; source: string }>, 'USER.md': [] as Array<{ entry: CuratedEntry; source: string }> };
  for (const d of judgment.duplicates) {
    if (d.into.curated) reinforce[d.into.curated.file].push({ entry: d.into.curated, source: sourceReference(d.candidate.entry).replace(/^Source:\s*/, '') });
  }
  const curatedSuperseded = retire['MEMORY.md'].length + retire['USER.md'].length;
  return {
    toWrite: judgment.accepted.map((a) => a.candidate),
    memoryEdit: editCuratedEntries(memoryText, retire['MEMORY.md'], reinforce['MEMORY.md']),
    userEdit: editCuratedEntries(userText, retire['USER.md'], reinforce['USER.md']),
    supersededBy,
    curation: {
      dedupes: judgment.duplicates.length,
      supersessions: curatedSuperseded + judgment.stale.length + notes.stale.length,
      stale: judgment.stale.length + notes.stale.length,
      conflicts: contradictions.length,
    },
    contradictions,
  };
}

/** Marks the promotions that retired older entries as `superseded`, naming them. */
export function markSupersessions(promotions: DreamPromotion[], supersededBy: ReadonlyMap<string, string[]>): void {
  for (const p of promotions) {
    const prior = supersededBy.get(p.candidateKey);
    if (prior && prior.length > 0) Object.assign(p, { action: 'superseded', priorEntries: [...p.priorEntries, ...prior] });
  }
}

function toConflict(x: JudgedItem, y: JudgedItem, reason: string, runId: string, now: number): DreamConflict {
  // Side a is the text that sorts first, so a decision names the same side whichever entry came first.
  const [a, b] = x.text <= y.text ? [x, y] : [y, x];
  return { id: conflictId(a.text, b.text), a: sideOf(a), b: sideOf(b), reason, runId, detectedAt: new Date(now).toISOString(), status: 'open', resolvedAt: null };
}

/** A candidate or a held note entry as one side of a contradiction. */
function noteItem(ranked: RankedCandidate, text: string): JudgedItem {
  return { curated: null, candidate: ranked, text, day: noteDayOf(ranked.entry), target: ranked.candidate.target ?? 'MEMORY.md', facts: entryFacts(text) };
}

function sideOf(item: JudgedItem): DreamConflictSide {
  if (item.curated) return { text: item.text, path: item.curated.file, line: item.curated.lineIndex + 1, day: item.day };
  return { text: item.text, path: item.candidate!.entry.path, line: item.candidate!.entry.startLine, day: item.day };
}

function where(item: JudgedItem): string {
  if (item.curated) return `${item.curated.file} line ${item.curated.lineIndex + 1}`;
  return `${item.candidate!.entry.path}#L${item.candidate!.entry.startLine}`;
}

function clip(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 80 ? `${flat.slice(0, 77)}…` : flat;
}
