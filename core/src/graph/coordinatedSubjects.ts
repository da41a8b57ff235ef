import type { EntityType } from '../contract/index.js';
import type { PositionedMention } from './mentions.js';

/**
 * People coordinated as one subject, with the plural verb after them: "Dana and Priya work on
 * Kestrel", "Hope, Daniel and Brian own the Vault cluster", "Juma and Neema live in Nyali". Each
 * person takes the relation. The people must open their clause ("Met Tariq and Dana work on …"
 * is no subject of two), and every one of them must be a person.
 */

export interface CoordinatedRelation {
  subject: number;
  predicate: string;
  object: number;
}

interface PluralVerb {
  predicate: string;
  objectType: EntityType;
  /** Only a capitalised name may be the object ("live in Lisbon", never "live in hope"). */
  capitalisedObject: boolean;
}

const VERBS: Record<string, PluralVerb> = {
  'work on': { predicate: 'works_on', objectType: 'project', capitalisedObject: false },
  own: { predicate: 'owns', objectType: 'project', capitalisedObject: false },
  'co-own': { predicate: 'owns', objectType: 'project', capitalisedObject: false },
  lead: { predicate: 'leads', objectType: 'project', capitalisedObject: false },
  'co-lead': { predicate: 'leads', objectType: 'project', capitalisedObject: false },
  'live in': { predicate: 'located_in', objectType: 'place', capitalisedObject: true },
  'work at': { predicate: 'member_of', objectType: 'organization', capitalisedObject: true },
  'work for': { predicate: 'member_of', objectType: 'organization', capitalisedObject: true },
};
/** Cheap tests first: a joining word, and one of the plural verbs. */
const JOIN_HINT = /\band\b|&/;
const VERB_HINT = /\b(?:work on|own|co-own|lead|co-lead|live in|work at|work for)\b/;
/** The verb right after the last person: maybe an adverb, then the plural verb, then maybe "the". */
const VERB_AFTER = /^[ \t]+(?:(?:both|all|also|now|still|jointly|together)[ \t]+)?(work[ \t]+on|co-own|own|co-lead|lead|live[ \t]+in|work[ \t]+at|work[ \t]+for)[ \t]+(?:the[ \t]+)?/;
/** Between two coordinated people. */
const JOIN = /^(?:[ \t]*,[ \t]*(?:and[ \t]+)?|[ \t]+(?:and|&)[ \t]+)$/;
/** What may stand before the first person: a line's opening (list mark, checkbox) or a sentence's or clause's end. */
const CLAUSE_OPENING = /(?:^|\n)[ \t]*(?:[-*+][ \t]+|\d+[.)][ \t]+)?(?:\[[ xX]\][ \t]+)?$|[.;:!?][ \t]+$/;

export function findCoordinatedSubjects(
  body: string,
  mentions: PositionedMention[],
  objectAt: (start: number, type: EntityType, capitalisedOnly: boolean) => number | null,
): CoordinatedRelation[] {
  if (!JOIN_HINT.test(body) || !VERB_HINT.test(body)) return [];
  const found: CoordinatedRelation[] = [];
  const people = mentions
    .map((m, i) => ({ m, i }))
    .filter(({ m }) => m.start >= 0 && m.type === 'person')
    .sort((a, b) => a.m.start - b.m.start);
  for (let k = 0; k < people.length; k++) {
    const verb = VERB_AFTER.exec(body.slice(people[k]!.m.end, people[k]!.m.end + 40));
    if (!verb) continue;
    // Walk back over the people joined to this one: at least two, the first opening its clause.
    let first = k;
    while (first > 0 && JOIN.test(body.slice(people[first - 1]!.m.end, people[first]!.m.start))) first--;
    if (first === k || !CLAUSE_OPENING.test(body.slice(Math.max(0, people[first]!.m.start - 12), people[first]!.m.start))) continue;
    const plural = VERBS[verb[1]!.replace(/[ \t]+/g, ' ')]!;
    const object = objectAt(people[k]!.m.end + verb[0].length, plural.objectType, plural.capitalisedObject);
    if (object === null) continue;
    const o = mentions[object]!;
    if (o.type === 'person' || (plural.objectType !== 'place' && o.type === 'place')) continue;
    if (plural.objectType === 'place' && o.type !== 'place' && !(o.type === 'concept' && o.certainty !== 'strong')) continue;
    for (let j = first; j <= k; j++) if (people[j]!.i !== object) found.push({ subject: people[j]!.i, predicate: plural.predicate, object });
  }
  return found;
}
