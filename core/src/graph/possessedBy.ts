import type { PositionedMention } from './mentions.js';

/**
 * Ownership said by a possessive predicate: "Lantern is Hope's now", "Elixir on-call is Hope's
 * as of today", "the staging box is now Dana's". The possessive must end the clause (or come
 * before a time phrase): "Kafka is Hope's problem" gives Hope a problem, not Kafka.
 */

export interface PossessedRelation {
  subject: number;
  predicate: 'owns';
  object: number;
}

/** Cheap test first: a possessive after "is". */
const HINT = /\bis[ \t]+(?:now[ \t]+)?\p{Lu}[\p{L}\p{N}_.-]*['’]s\b/u;
/** Between the thing and its owner: a duty word ("on-call", "pager"), "is", maybe "now". */
const IS = /^[ \t]+(?:(?:on-call|oncall|pager|rota|ownership)[ \t]+)?is[ \t]+(?:now[ \t]+)?$/;
/** After the possessive: the clause's end, or a time phrase ("now", "as of today", "from Monday", "since May"). */
const CLAUSE_END = /^['’]s(?=[ \t]*(?:[.,;:!?)]|$|now\b|again\b|as[ \t]+of\b|from\b|since\b|starting\b|effective\b))/;

export function findPossessedBy(body: string, mentions: PositionedMention[]): PossessedRelation[] {
  if (!HINT.test(body)) return [];
  const found: PossessedRelation[] = [];
  for (let o = 0; o < mentions.length; o++) {
    const thing = mentions[o]!;
    // A thing one owns: software, a piece of work, a host, or a name nothing typed; not a place.
    if (thing.start < 0 || !['project', 'tool', 'machine', 'concept', 'person'].includes(thing.type)) continue;
    const owner = mentions.findIndex((c) => c.start > thing.end && c.start - thing.end <= 24 && IS.test(body.slice(thing.end, c.start)));
    if (owner < 0) continue;
    // "Dana is Hope's" says nothing of ownership; "Elixir on-call is Hope's" names a duty, so the name is a service's whatever typed it.
    if (thing.type === 'person' && !/[a-z]/.test(body.slice(thing.end, mentions[owner]!.start).replace(/\b(?:is|now)\b/g, ''))) continue;
    const p = mentions[owner]!;
    // The owner's mention may hold the possessive ("Hope's") or stop before it ("Hope").
    const label = p.label.replace(/['’]s$/, '');
    const tail = body.slice(p.start + label.length, p.start + label.length + 24);
    // "is Hope's" ends the clause: the possessive names a person, unless something typed the name otherwise.
    if (!(p.type === 'person' || (p.type === 'concept' && p.certainty !== 'tentative')) || !CLAUSE_END.test(tail) || owner === o) continue;
    if (p.type !== 'person') Object.assign(p, { type: 'person', certainty: 'strong' });
    // A sentence-initial name with an owner is a name after all.
    if (thing.certainty === 'tentative') Object.assign(thing, { certainty: 'weak' });
    found.push({ subject: owner, predicate: 'owns', object: o });
  }
  return found;
}
