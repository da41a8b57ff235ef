import type { DreamConflict } from '../../contract/index.js';
import { normalizeEntryText } from '../../workspace/markdownEntries.js';
import type { RankedCandidate } from '../phases/deepPhase.js';
import { conflictId } from './conflictId.js';
import { entryFacts, type EntryFacts } from './entryFacts.js';
import { rarityOver } from './rarity.js';
import { relate } from './relation.js';

/**
 * The order of promotion must not decide which fact holds. A candidate about to be written is
 * checked against the entries of notes written the same day or later that did not pass the gates
 * this sweep (not recalled enough yet) but are kept kinds (facts, decisions, preferences):
 * - a later note that says the fact changed ("OTA train moves to weekly" after "every second
 *   Tuesday", "down from 38.50", "prefer X over Y"): the candidate is not written, since the sweep
 *   that promotes the later note would only have to retire it. A later note that merely states
 *   another value is not enough here: unlike two candidates, a held note has not been confirmed
 *   by use, and two identifiers of one project ("ANALYTICS.LUMEN", "LUMEN_WH") are not a change;
 * - a note of the same day that disputes a value: the pair is queued for the person, and neither
 *   is written until they decide.
 */
export interface NoteItem {
  ranked: RankedCandidate;
  day: string | null;
  facts: EntryFacts;
}

export interface NewerNoteVerdict {
  stale: Array<{ candidate: RankedCandidate; newer: NoteItem; reason: string }>;
  conflicts: Array<{ candidate: RankedCandidate; other: NoteItem; reason: string }>;
}

/** The note itself says something changed: a change word, a value it replaces, or a preference over another. */
function saysItChanged(facts: EntryFacts): boolean {
  return facts.announcesChange || facts.negated.length > 0 || facts.over !== null;
}

/** Words long enough to tie two entries, for the cheap check before the full comparison. */
function contentWords(text: string): Set<string> {
  return new Set(normalizeEntryText(text).split(' ').filter((w) => w.length >= 4));
}

export function checkAgainstNewerNotes(
  candidates: readonly RankedCandidate[],
  held: readonly RankedCandidate[],
  noteDayOf: (r: RankedCandidate) => string | null,
  decisions: ReadonlyMap<string, DreamConflict['status']> = new Map(),
): NewerNoteVerdict {
  const verdict: NewerNoteVerdict = { stale: [], conflicts: [] };
  const days = candidates.map(noteDayOf).filter((d): d is string => d !== null);
  if (days.length === 0) return verdict;
  const oldest = days.reduce((a, b) => (a < b ? a : b));
  // Only a kept kind can later be promoted: a task or a question about the same thing changes nothing.
  const notes = held.filter((r) => {
    const day = noteDayOf(r);
    // A time-bounded fact overlays the lasting one for a while, it does not replace it.
    return day !== null && day >= oldest && r.candidate.kind !== 'time-bounded' && r.candidate.gates.some((g) => g.gate === 'kind' && g.passed);
  });
  if (notes.length === 0) return verdict;
  const words = new Map(notes.map((n) => [n, contentWords(n.entry.text)]));
  const facts = new Map<RankedCandidate, EntryFacts>();
  const factsOf = (r: RankedCandidate) => facts.get(r) ?? facts.set(r, entryFacts(r.entry.text)).get(r)!;
  for (const candidate of candidates) {
    const day = noteDayOf(candidate);
    if (day === null || candidate.candidate.kind === 'time-bounded') continue;
    const own = contentWords(candidate.entry.text);
    const near = notes.filter((n) => {
      const noteDay = noteDayOf(n)!;
      if (noteDay < day) return false;
      let shared = 0;
      for (const w of words.get(n)!) if (own.has(w) && ++shared >= 2) return true;
      return false;
    });
    if (near.length === 0) continue;
    const rarity = rarityOver([candidate, ...near].map(factsOf));
    for (const note of near) {
      const detail = relate(factsOf(candidate), factsOf(note), rarity);
      if (detail.relation !== 'same-attribute') continue;
      const decision = decisions.get(conflictId(candidate.entry.text, note.entry.text));
      if (decision === 'keep-both' || decision === 'dismissed') continue;
      const item: NoteItem = { ranked: note, day: noteDayOf(note), facts: factsOf(note) };
      if (decision === 'keep-a' || decision === 'keep-b') {
        // keep-a keeps the text that sorts first, as the queue names the sides.
        if ((decision === 'keep-a') === candidate.entry.text <= note.entry.text) continue;
        verdict.stale.push({ candidate, newer: item, reason: `you kept the other one (${detail.reason})` });
        break;
      }
      if (item.day! > day && saysItChanged(item.facts)) {
        verdict.stale.push({ candidate, newer: item, reason: detail.reason });
        break;
      }
      if (item.day === day && detail.byValue) {
        verdict.conflicts.push({ candidate, other: item, reason: detail.reason });
        break;
      }
    }
  }
  return verdict;
}
