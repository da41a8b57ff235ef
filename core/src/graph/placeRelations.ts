import { knownNameType } from './knownNames.js';
import type { PositionedMention } from './mentions.js';

/**
 * Where things are, said by a noun phrase rather than a verb: "Mawingu Labs in Lavington",
 * "Msingi Code School at Elizabeth House", "Elizabeth House on Ngong Road", "aunt Halima in Old
 * Town", "Kilimani, Nairobi". Only names already typed count: an organisation or a place in, at
 * or on a place, and a person in one only where no verb comes before them ("met Dana in Lisbon"
 * says where they met, not where Dana is).
 */

export interface PlaceRelation {
  subject: number;
  /** member_of: "Ruby's vet: Dr. Wekesa at Lavington Vet Clinic", the same noun phrase with an organisation. */
  predicate: 'located_in' | 'member_of';
  object: number;
}

/** The gap between the thing and its place. */
const PREPOSITION = /^[ \t]+(in|at|on)[ \t]+(?:the[ \t]+)?$/;
/** A third name after the two: a list of places, not a place and where it lies. */
const LIST_GOES_ON = /^(?:[ \t]*,[ \t]*|[ \t]+(?:and|or|&)[ \t]+)\p{Lu}/u;
/**
 * What may stand before a person whose place a noun phrase gives: a list's or a description's
 * mark, a word saying who they are to the writer. Not a line's opening: "Daniel in Eldoret for
 * the wedding" is a visit.
 */
const PERSON_PHRASE_BEFORE =
  /[,:;(][ \t]*$|(?:^|[\s,:;(])(?:mum|mom|mother|dad|father|parents|brother|sister|cousin|aunt|auntie|uncle|grandma|grandmother|grandpa|grandfather|niece|nephew|partner|friend)[ \t]+$/i;

export function findPlaceRelations(body: string, mentions: PositionedMention[]): PlaceRelation[] {
  const found: PlaceRelation[] = [];
  const ordered = mentions
    .map((m, i) => ({ m, i }))
    .filter(({ m }) => m.start >= 0 && m.certainty !== 'tentative')
    .sort((a, b) => a.m.start - b.m.start);
  for (let k = 0; k + 1 < ordered.length; k++) {
    const { m: a, i: ai } = ordered[k]!;
    const { m: b, i: bi } = ordered[k + 1]!;
    if (b.start < a.end) continue;
    const gap = body.slice(a.end, b.start);
    const preposition = PREPOSITION.exec(gap)?.[1]?.toLowerCase();
    // "vet: Dr. Wekesa at Lavington Vet Clinic", "friend Amara at Kobo Rails": a person described as at an organisation works there.
    if (preposition === 'at' && a.type === 'person' && b.type === 'organization' && b.certainty === 'strong' && PERSON_PHRASE_BEFORE.test(body.slice(Math.max(0, a.start - 40), a.start))) {
      found.push({ subject: ai, predicate: 'member_of', object: bi });
      continue;
    }
    // "in Nyali": a name no cue typed but "in" hints at is a place after a thing that has one.
    const place = b.type === 'place' || (preposition === 'in' && b.type === 'concept' && b.hint === 'place');
    if (!place) continue;
    if (preposition) {
      const fits =
        (a.type === 'organization' && preposition !== 'on') ||
        (a.type === 'place' && preposition !== 'at') ||
        (a.type === 'person' && preposition === 'in' && PERSON_PHRASE_BEFORE.test(body.slice(Math.max(0, a.start - 40), a.start)));
      if (fits) found.push({ subject: ai, predicate: 'located_in', object: bi });
      continue;
    }
    // "Kilimani, Nairobi", "Porto, Portugal": a place then the known city or country it lies in (not a list: "Zawadi, Pesaflow, Nairobi", "Lisbon, Porto and Madrid").
    if (/^,[ \t]*$/.test(gap) && a.type === 'place' && !/,[ \t]*$/.test(body.slice(Math.max(0, a.start - 4), a.start)) && knownNameType(b.label) === 'place' && knownNameType(a.label) === null && !LIST_GOES_ON.test(body.slice(b.end, b.end + 8))) {
      found.push({ subject: ai, predicate: 'located_in', object: bi });
    }
  }
  return found;
}
