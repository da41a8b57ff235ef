import { knownNameType } from './knownNames.js';
import type { PositionedMention } from './mentions.js';
import { splitTopLevel } from './nameLists.js';

/**
 * A line that gathers people under a place: "Family mostly in Mombasa: Mum in Nyali, brother
 * Juma, aunt Halima in Old Town", "Friends in Lisbon: Rui, Inês". Each listed person lives in
 * the place, and a part of it named in an item ("Mum in Nyali") lies in it; a person whose item
 * names their own part is placed by that item (placeRelations.ts), not here.
 */

export interface GroupPlaceRelation {
  subject: number;
  predicate: 'located_in';
  object: number;
}

/** Cheap test first: a group word before "in". */
const HINT = /\b(?:[Ff]amily|[Ff]riends|[Rr]elatives|[Cc]ousins|[Pp]arents|[Ff]olks|[Ii]n-laws|[Nn]eighbours|[Nn]eighbors)\b/;
/** "Family mostly in Mombasa:", "- My friends in Lisbon:" at a line's opening; the place's mention starts where the group ends. */
const GROUP = /^[ \t]*(?:[-*+][ \t]+)?(?:\*\*)?(?:(?:[Mm]y|[Oo]ur)[ \t]+)?(?:[Ff]amily|[Ff]riends|[Rr]elatives|[Cc]ousins|[Pp]arents|[Ff]olks|[Ii]n-laws|[Nn]eighbours|[Nn]eighbors)[ \t]+(?:(?:mostly|mainly|all|still|now|back)[ \t]+)?(?:(?:live|living|based)[ \t]+)?in[ \t]+/gmu;
/** An item that names the part of the place it is about: "Mum in Nyali", "aunt Halima in Old Town". */
const IN_PART = /[ \t]+in[ \t]+$/;

/** A name typed as a place, or one the words or the list of known names say is one. */
export function isPlaceLike(m: PositionedMention): boolean {
  if (m.type === 'place') return true;
  return m.type === 'concept' && m.certainty !== 'tentative' && (m.hint === 'place' || knownNameType(m.label) === 'place');
}

export function findGroupPlaces(body: string, mentions: PositionedMention[]): GroupPlaceRelation[] {
  if (!HINT.test(body)) return [];
  const found: GroupPlaceRelation[] = [];
  for (const m of body.matchAll(GROUP)) {
    const at = (m.index ?? 0) + m[0].length;
    const place = mentions.findIndex((c) => c.start === at);
    if (place < 0 || !isPlaceLike(mentions[place]!)) continue;
    const colon = /^(?:\*\*)?[ \t]*:[ \t]*/.exec(body.slice(mentions[place]!.end, mentions[place]!.end + 8));
    if (!colon) continue;
    const listStart = mentions[place]!.end + colon[0].length;
    const lineEnd = body.indexOf('\n', listStart);
    const list = body.slice(listStart, lineEnd < 0 ? body.length : lineEnd);
    let placed = false;
    for (const item of splitTopLevel(list)) {
      const start = listStart + item.start;
      const paren = item.text.indexOf('(');
      const end = start + (paren >= 0 ? item.text.slice(0, paren).trimEnd().length : item.text.length);
      const inside = mentions.map((c, i) => ({ c, i })).filter(({ c }) => c.start >= start && c.end <= end);
      // "Mum in Nyali": the item's last name, after "in", is a part of the place.
      const last = inside[inside.length - 1];
      if (last && last.c.end === end && isPlaceLike(last.c) && IN_PART.test(body.slice(start, last.c.start))) {
        if (last.c.type !== 'place') Object.assign(last.c, { type: 'place', certainty: 'strong' });
        if (last.i !== place) found.push({ subject: last.i, predicate: 'located_in', object: place });
        placed = true;
        continue;
      }
      const person = inside.find(({ c }) => c.type === 'person');
      if (person) {
        found.push({ subject: person.i, predicate: 'located_in', object: place });
        placed = true;
      }
    }
    if (placed && mentions[place]!.type !== 'place') Object.assign(mentions[place]!, { type: 'place', certainty: 'strong' });
  }
  return found;
}
