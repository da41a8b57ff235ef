import type { EntityType } from '../contract/index.js';
import type { PositionedMention } from './mentions.js';
import { startsWithCalendarWord } from './furniture.js';

/**
 * Pair work: "Paired with Sam on the importer" (in the writer's own notes, or after "I") says
 * that the writer and the partner both work on it; "my pairing partner on ledgerd" in a
 * person's note says that person and the writer do. "Paired with Sam on Tuesday" or "… on it"
 * names no piece of work, so it says nothing.
 */

export interface PairedWorkRelation {
  subject: number;
  predicate: 'works_on';
  object: number;
}

export interface PairedWorkSlots {
  /** The mention starting at `start` (or a plain phrase read there), typed `type` when untyped; null when it names nothing. */
  objectAt: (start: number, type: EntityType, capitalisedOnly: boolean) => number | null;
  writer: () => number;
  /** The note's person (a people note's title), or null in any other note. */
  topic: (() => number) | null;
}

/** Cheap test first: most entries never pair. */
const HINT = /[Pp]air/;
/** "Paired with", "pairing with", "I paired with", at a line's or a sentence's opening. */
const PAIRED_WITH = /(?:^[ \t]*(?:[-*+][ \t]+|\d+[.)][ \t]+)?(?:\[[ xX]\][ \t]+)?|[.!?;][ \t]+)(?:I[ \t]+)?(?:also[ \t]+)?(?:[Pp]aired|[Pp]airing|[Pp]air-programmed|[Pp]aired up)[ \t]+with[ \t]+/gmu;
/** "my pairing partner on", "our usual pair on": the person of the note pairs with the writer on it (the work's "the" kept apart). */
const PAIRING_PARTNER = /\b(?:[Mm]y|[Oo]ur)[ \t]+(?:(?:usual|default|regular|main|go-to|favourite|favorite)[ \t]+)?pair(?:ing)?(?:[ \t]+partner)?[ \t]+on[ \t]+(?:the[ \t]+)?/gu;
/** Between the partner's name and the work: " on ", " on the ". */
const ON = /^[ \t]+on[ \t]+(?:the[ \t]+)?/;

export function findPairedWork(body: string, mentions: PositionedMention[], slots: PairedWorkSlots, ownVoice: boolean): PairedWorkRelation[] {
  if (!HINT.test(body)) return [];
  const found: PairedWorkRelation[] = [];
  /** The piece of work named at `start`; never a day ("on Tuesday. Then …"). */
  const workAt = (start: number, described: boolean): number | null => {
    if (startsWithCalendarWord(body.slice(start, start + 24).replace(/[.!?;:].*$/s, ''))) return null;
    // "on the rounding fix" describes the work; only a name there names it ("on the Kestrel migration").
    const object = slots.objectAt(start, 'project', described);
    return object === null || mentions[object]!.type === 'person' || mentions[object]!.type === 'place' ? null : object;
  };
  const both = (a: number, b: number, object: number) => {
    for (const s of [a, b]) if (s !== object && !found.some((f) => f.subject === s && f.object === object)) found.push({ subject: s, predicate: 'works_on', object });
  };
  for (const m of body.matchAll(PAIRED_WITH)) {
    // Without a written "I", only the writer's own notes leave the subject out.
    if (!ownVoice && !/\bI[ \t]/.test(m[0])) continue;
    const at = (m.index ?? 0) + m[0].length;
    const partner = mentions.findIndex((c) => c.start === at);
    if (partner < 0) continue;
    const p = mentions[partner]!;
    // A partner is a person: a name typed so, or a name (a link, a capitalised word) nothing typed otherwise.
    if (!(p.type === 'person' || (p.type === 'concept' && p.certainty !== 'tentative'))) continue;
    const on = ON.exec(body.slice(p.end, p.end + 12));
    if (!on) continue;
    const object = workAt(p.end + on[0].length, on[0].includes('the'));
    if (object === null || object === partner) continue;
    if (p.type !== 'person') Object.assign(p, { type: 'person', certainty: 'strong' });
    both(slots.writer(), partner, object);
  }
  if (slots.topic) {
    for (const m of body.matchAll(PAIRING_PARTNER)) {
      const object = workAt((m.index ?? 0) + m[0].length, /the[ \t]+$/.test(m[0]));
      if (object === null) continue;
      both(slots.topic(), slots.writer(), object);
    }
  }
  return found;
}
