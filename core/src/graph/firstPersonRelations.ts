import type { EntityType } from '../contract/index.js';
import type { PositionedMention } from './mentions.js';
import { matchesOf } from '../platform/text/matchesOf.js';
import { coordinatedObjects } from './coordinatedObjects.js';

/**
 * Relations whose subject is the writer of the notes (named by USER.md, see noteWriter.ts):
 * "I live in Rosemont", "I'm on the Ledger team", "I've been working on Ebb", and, in the
 * writer's own notes, sentences that leave the "I" out ("Moved to Lisbon last year.",
 * "Joined Tidewater in May.", "Took over the on-call rota from Grace.").
 */

export interface FirstPersonRelation {
  subject: number;
  predicate: string;
  object: number;
  /** The text the reading used: other readings leave it alone. */
  span: [number, number];
}

interface FirstPersonVerb {
  /** The verb as a regular expression source (first-person forms, no subject). */
  verb: string;
  predicate: string;
  objectType: EntityType;
  /** Only a capitalised name may be the object ("joined Tidewater", never "joined the call"). */
  capitalisedObject: boolean;
  /** Also read without a written "I" at the start of a sentence of the writer's own notes. */
  subjectless: boolean;
  /** "I'm on …": only a team or a named piece of work ("the Ebb migration"), never "on call" or "on Slack". */
  needsKindWord?: boolean;
}

const V = (verb: string, predicate: string, objectType: EntityType, capitalisedObject: boolean, subjectless = true, needsKindWord = false): FirstPersonVerb => ({
  verb,
  predicate,
  objectType,
  capitalisedObject,
  subjectless,
  needsKindWord,
});
/** "I'm", "I am", "I've been", "I have been": the auxiliaries before a first-person verb. */
const AM = String.raw`(?:am|['’]m)`;
const BEEN = String.raw`(?:(?:have|['’]ve)\s+been|am|['’]m)`;
const VERBS: readonly FirstPersonVerb[] = [
  V(String.raw`(?:(?:still\s+|now\s+)?[Ll]ive|${BEEN}\s+(?:still\s+|now\s+)?living|${AM}\s+(?:still\s+|now\s+)?based|[Ll]iving|[Bb]ased)\s+in`, 'located_in', 'place', true),
  V(String.raw`(?:[Mm]oved|[Rr]elocated)\s+(?:back\s+)?to`, 'moved_to', 'place', true),
  V(String.raw`(?:[Ww]ork|${BEEN}\s+working|[Ww]orking)\s+(?:at|for)`, 'member_of', 'organization', true),
  V(String.raw`(?:[Jj]oined|[Ss]tarted\s+(?:working\s+)?at)`, 'member_of', 'organization', true),
  V(String.raw`(?:${AM}\s+(?:now\s+)?(?:a\s+)?member\s+of)`, 'member_of', 'organization', true, false),
  V(String.raw`(?:[Oo]wn|${AM}\s+(?:now\s+)?responsible\s+for|[Tt]ook\s+over)`, 'owns', 'project', false),
  V(String.raw`(?:[Ll]ead|${BEEN}\s+leading|[Ll]eading)`, 'leads', 'project', false),
  // "coach Kilimani Stars U12": the team one coaches is one one leads.
  V(String.raw`(?:[Cc]oach|${BEEN}\s+coaching|[Cc]oaching)`, 'leads', 'organization', true),
  V(String.raw`(?:[Ww]ork|${BEEN}\s+(?:mostly\s+|mainly\s+)?working|[Ww]orking)\s+on`, 'works_on', 'project', false),
  // "occasional work on payoutsvc": work as a noun, in the writer's own notes.
  V(String.raw`(?:[Oo]ccasional|[Ss]ide|[Pp]art-time|[Rr]egular|[Dd]aily)\s+work\s+on`, 'works_on', 'project', false),
  // "I'm on the Ebb migration", "I'm on the Ledger team": a named piece of work, or a team.
  V(String.raw`(?:${AM}|${BEEN})\s+(?:now\s+)?on`, 'works_on', 'project', true, false, true),
];
const VERB_SOURCES = VERBS.map((v) => `(${v.verb})`).join('|');
/** "I …" anywhere, or no subject at the start of a line or sentence (only where the writer speaks). */
const WITH_I = new RegExp(String.raw`\bI(?=[\s'’])(?:\s+(?:also|now|still|just|recently|finally|officially))?\s*(?:${VERB_SOURCES})\s+`, 'gu');
const SUBJECTLESS = new RegExp(String.raw`(?:^[ \t]*(?:[-*+][ \t]+|\d+[.)][ \t]+)?|[.!?;][ \t]+)(?:(?:Also|Finally|Just|Recently|Officially)[ \t]+)?(?:${VERB_SOURCES})\s+`, 'gmu');
/** Cheap test first: most entries have no first-person verb at all. */
const HINT = /\bI\b|[Ll]ive|[Ww]ork|[Oo]wn|[Ll]ead|[Cc]oach|[Mm]oved|[Rr]elocated|[Jj]oined|[Ss]tarted|[Tt]ook|[Ll]iving|[Bb]ased|[Ww]orking|[Ll]eading/;
const DETERMINER = /^(?:the|our|my)\s+/i;
/** "the Ledger team": the kind word is part of a team's name (a team is an organisation); other kind words are not. */
const TEAM = /^[ \t]+team\b/;
/** "the Ebb migration": a named piece of work. */
const WORK_KIND = /^[ \t]+(?:migration|project|rollout|launch|rewrite|release|upgrade|squad)\b/;
const MAX_READINGS = 16;
/** Predicates whose object may be a list ("I work on ledgerd and payoutsvc"); a list of places is a hierarchy, not several homes. */
const COORDINATED = new Set(['works_on', 'owns', 'leads']);

/** "the Ledger team": the team (an organisation) is the thing named, by its whole name. True when the mention was extended. */
export function extendToTeam(body: string, mention: PositionedMention): boolean {
  const team = TEAM.exec(body.slice(mention.end, mention.end + 8));
  if (!team || mention.start < 0 || /\bteam$/i.test(mention.label)) return false;
  const end = mention.end + team[0].length;
  Object.assign(mention, { label: body.slice(mention.start, end), end, type: 'organization', certainty: 'strong' });
  return true;
}

/** What the caller knows how to do: find or add the object mention after a verb, and add the writer's mention. */
export interface FirstPersonSlots {
  /** The mention starting at `start` (or a new one for a plain word), with a type for an untyped one; null when it names nothing. */
  objectAt: (start: number, objectType: EntityType, capitalisedOnly: boolean) => number | null;
  writer: () => number;
}

/**
 * The first-person relations of one entry. `subjectless`: the entry is in the writer's own
 * voice (not a person's or project's note), so a sentence opening with the verb is theirs.
 */
export function findFirstPersonRelations(body: string, mentions: PositionedMention[], slots: FirstPersonSlots, subjectless: boolean): FirstPersonRelation[] {
  if (!HINT.test(body)) return [];
  const found: FirstPersonRelation[] = [];
  const patterns = subjectless ? [WITH_I, SUBJECTLESS] : [WITH_I];
  for (const pattern of patterns) {
    for (const m of matchesOf(pattern, body)) {
      if (found.length >= MAX_READINGS) break;
      const which = m.slice(1).findIndex((g) => g !== undefined);
      const verb = VERBS[which]!;
      if (pattern === SUBJECTLESS && !verb.subjectless) continue;
      const start = m.index ?? 0;
      let objectStart = start + m[0].length;
      const determiner = DETERMINER.exec(body.slice(objectStart, objectStart + 8));
      if (determiner) objectStart += determiner[0].length;
      const object = slots.objectAt(objectStart, verb.objectType, verb.capitalisedObject);
      if (object === null) continue;
      const o = mentions[object]!;
      // A place one moved to or lives in is never a host, a tool or a project ("moved to systemd", "based in Go").
      if ((verb.predicate === 'located_in' || verb.predicate === 'moved_to') && o.certainty === 'strong' && !['place', 'concept', 'organization'].includes(o.type)) continue;
      let predicate = verb.predicate;
      if (extendToTeam(body, o)) predicate = 'member_of';
      else if (verb.needsKindWord && !WORK_KIND.test(body.slice(o.end, o.end + 12))) continue;
      found.push({ subject: slots.writer(), predicate, object, span: [start, o.end] });
      if (COORDINATED.has(predicate)) for (const more of coordinatedObjects(body, o, mentions, slots.objectAt, verb.objectType)) found.push({ subject: slots.writer(), predicate, object: more, span: [start, mentions[more]!.end] });
      // "I live in Kilimani, Nairobi": the larger place the first one lies in is where the writer is too.
      if (predicate === 'located_in') {
        const comma = /^,[ \t]*/.exec(body.slice(o.end, o.end + 4));
        const wider = comma ? mentions.findIndex((c) => c.start === o.end + comma[0].length && c.type === 'place') : -1;
        if (wider >= 0) found.push({ subject: slots.writer(), predicate, object: wider, span: [start, mentions[wider]!.end] });
      }
    }
  }
  return found;
}
