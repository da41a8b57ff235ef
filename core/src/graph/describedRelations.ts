import type { EntityMention } from './types.js';
import type { PositionedMention } from './mentions.js';
import { STOPWORDS } from '../platform/text/stopwords.js';
import { listEnd, splitTopLevel } from './nameLists.js';
import { extendToTeam } from './firstPersonRelations.js';
import { matchesOf } from '../platform/text/matchesOf.js';

/**
 * Relations people write without a subject next to the verb, because the line or the note
 * already says whom it is about: "- Jonas Weber: platform/SRE, owns Postgres", "Lives in
 * Wedding." in a note titled "Sam Reyes" under people/, "Lena Vogel (Berlin Gophers) asked …",
 * "atlas services: Forgejo, Miniflux".
 */

/** A relation between two mentions (indexes; a topic or an object may be appended). */
export interface DescribedRelation {
  subject: number;
  predicate: string;
  object: number;
}

const LINE_OPENING = /^[ \t]*(?:[-*+][ \t]+|\d+[.)][ \t]+)?/;
/** "Name: text", "Name — text", "Name = text"; terse notes go on after a full stop in lowercase ("Karim: partner. works at …"). */
const DESCRIPTION_MARK = /^[ \t]*(?::|—|–|=|\s-\s)(?:[^.!?;\n]|\.(?=[ \t]+\p{Ll}))*$/u;

function lineStartOf(body: string, at: number): number {
  return body.lastIndexOf('\n', at - 1) + 1;
}

/** Where the text of the line holding `at` starts, after its list marker. */
function lineOpening(body: string, at: number): number {
  const lineStart = lineStartOf(body, at);
  return lineStart + LINE_OPENING.exec(body.slice(lineStart))![0].length;
}

/** The name a line opens with, when `at` is in the description that follows it (same sentence). */
export function describedSubject(body: string, at: number, mentions: PositionedMention[]): number | null {
  const opens = lineOpening(body, at);
  const i = mentions.findIndex((c) => c.start === opens && c.end < at);
  // With the first letter at `at`: a full stop then a lowercase word goes on describing, a capital starts another sentence.
  if (i < 0 || !DESCRIPTION_MARK.test(body.slice(mentions[i]!.end, at + 1))) return null;
  if (mentions[i]!.certainty === 'tentative') Object.assign(mentions[i]!, { certainty: 'weak' });
  return i;
}

/**
 * The note's topic (a person or project note's title) as the subject of a verb that opens its
 * line or sentence ("Owns idempotency keys v2."), when the verb's subject may be of its type.
 */
export function topicSubject(body: string, at: number, mentions: PositionedMention[], topic: EntityMention | null, subjectType: string | null): number | null {
  if (!topic || (subjectType !== null && subjectType !== topic.type)) return null;
  const lineStart = lineStartOf(body, at);
  const before = body.slice(lineStart, at);
  if (!LINE_OPENING.test(before) || (LINE_OPENING.exec(before)![0].length !== before.length && !/[.!?;][ \t]+$/.test(before))) return null;
  return topicIndex(mentions, topic);
}

/** The topic's mention: one per entry, placed before the text (it is named by the note, not by a span). */
function topicIndex(mentions: PositionedMention[], topic: EntityMention): number {
  const found = mentions.findIndex((m) => m.start === -1);
  if (found >= 0) return found;
  mentions.push({ ...topic, certainty: 'strong', start: -1, end: -1 });
  return mentions.length - 1;
}

const ROLE =
  '(?:[Ee]ngineer|[Ll]ead|[Vv]olunteers?|[Dd]eveloper|[Dd]esigner|[Mm]anager|[Aa]rchitect|[Ss]cientist|[Aa]nalyst|[Rr]esearcher|[Cc]onsultant|[Cc]ontractor|[Ii]ntern|[Dd]irector|[Ff]ounder|[Rr]ecruiter|SRE|EM|PM|CTO|CEO)';
const CAPITALISED = String.raw`(\p{Lu}[\p{L}\p{N}_.-]*(?:[ \t]+\p{Lu}[\p{L}\p{N}_.-]*)*)`;
/** Cheap test first: most entries name no role. */
const ROLE_WORD = new RegExp(ROLE);
/**
 * "Staff engineer on the Ledger team at Quillfin", "Backend engineer at Quillfin (Berlin), on the
 * Ledger team": member of the organisation (and of the team, before or after it).
 */
const ROLE_AT = new RegExp(
  String.raw`\b${ROLE}\s+(?:on\s+(?:the\s+)?${CAPITALISED}\s+team\s+)?(?:at|with|for)\s+(?:the\s+)?${CAPITALISED}(?:[ \t]*\([^()\n]{0,80}\))?(?:[ \t]*,[ \t]*on[ \t]+(?:the[ \t]+)?${CAPITALISED}(?=[ \t]+team\b))?`,
  'dgu',
);
/** "I'm a staff engineer at Quillfin", "I work as a designer for Acme": the writer's own role. */
const I_AM_ROLE = /\bI(?:['’]m|\s+am|\s+work\s+as)\s+(?:now\s+)?(?:an?\s+)?(?:[\p{L}-]+\s+){0,3}$/u;
/** "atlas services: Forgejo, Miniflux, Immich": what runs on the host the line opens with. */
const SERVICES = /^[ \t]*(?:[-*+][ \t]+)?(\S+)[ \t]+(?:services|apps|containers|runs)[ \t]*:[ \t]*([^\n.;]*)/gm;

/**
 * Relations of the three described shapes: a role at an organisation (subject from the line's
 * opening name or the note's person), "Name (Org)" and "Name (Place)" after a person, and a
 * host's list of services.
 */
export function findDescribedRelations(body: string, mentions: PositionedMention[], topic: EntityMention | null, writer: (() => number) | null = null): DescribedRelation[] {
  const found: DescribedRelation[] = [];
  const at = (start: number, end: number): number => mentions.findIndex((c) => c.start === start && c.end === end);
  const covering = (start: number): number => mentions.findIndex((c) => c.start === start);

  if (ROLE_WORD.test(body)) {
    for (const m of matchesOf(ROLE_AT, body)) {
      const start = m.index ?? 0;
      // Either the line's opening name describes it, or the line is in that person's own note.
      const subject =
        describedSubject(body, start, mentions) ??
        (writer && I_AM_ROLE.test(body.slice(lineStartOf(body, start), start)) ? writer() : null) ??
        topicSubject(body, lineOpening(body, start), mentions, topic, 'person');
      if (subject === null || mentions[subject]!.type !== 'person') continue;
      for (const group of [1, 2, 3]) {
        const span = m.indices?.[group];
        if (!span) continue;
        const object = covering(span[0]);
        if (object >= 0 && object !== subject && ['organization', 'concept'].includes(mentions[object]!.type)) {
          // "…, on the Ledger team": the team by its whole name, as "I'm on the Ledger team" names it.
          if (group === 3 && mentions[object]!.end === span[1]) {
            extendToTeam(body, mentions[object]!);
            found.push({ subject, predicate: 'member_of', object });
            continue;
          }
          // "at Msingi Code School": the organisation's whole capitalised name, where the mention rules read its first word only.
          const o = mentions[object]!;
          if (o.end < span[1] && o.certainty !== 'strong') Object.assign(o, { label: body.slice(o.start, span[1]), end: span[1] });
          if (mentions[object]!.type === 'concept' && mentions[object]!.certainty !== 'strong') Object.assign(mentions[object]!, { type: 'organization', certainty: 'strong' });
          found.push({ subject, predicate: 'member_of', object });
        }
      }
    }
  }

  found.push(...describedMemberships(body, mentions));
  if (body.includes('(')) found.push(...leadsInParentheses(body, mentions));
  if (topic?.type === 'project') found.push(...projectRoster(body, mentions, topic, writer));

  // "Lena Vogel (Berlin Gophers) asked …", "Tomás (Lisbon)": a person and where they belong or are;
  // "Quillfin (Berlin, payments infra)", "Lisbon (Graça)": an organisation or a place and the place it is in, or holds.
  for (let i = 0; i < mentions.length; i++) {
    const person = mentions[i]!;
    if (person.start < 0 || !['person', 'organization', 'place'].includes(person.type)) continue;
    const open = /^[ \t]*\([ \t]*/.exec(body.slice(person.end, person.end + 4));
    if (!open) continue;
    const inner = mentions.findIndex((c) => c.start === person.end + open[0].length);
    if (inner < 0 || !/^[ \t]*[),]/.test(body.slice(mentions[inner]!.end, mentions[inner]!.end + 3))) continue;
    const type = mentions[inner]!.type;
    if (person.type === 'place') {
      if (type === 'place') found.push({ subject: inner, predicate: 'located_in', object: i });
    } else if (person.type === 'organization') {
      if (type === 'place') found.push({ subject: i, predicate: 'located_in', object: inner });
    } else if (type === 'place') found.push({ subject: i, predicate: 'located_in', object: inner });
    else if (type === 'organization' || (type === 'concept' && mentions[inner]!.certainty !== 'tentative')) found.push({ subject: i, predicate: 'member_of', object: inner });
  }

  if (/services|apps|containers|runs/.test(body)) {
    for (const m of matchesOf(SERVICES, body)) {
      const hostStart = (m.index ?? 0) + m[0].indexOf(m[1]!);
      const hostLabel = m[1]!.replace(/[:,]$/, '');
      // A host named in lowercase ("atlas services: …") is no name the mention rules know: the list says it is a machine.
      let host = at(hostStart, hostStart + hostLabel.length);
      if (host < 0 && /^[\p{L}][\p{L}\p{N}_.-]+$/u.test(hostLabel) && !STOPWORDS.has(hostLabel.toLowerCase())) {
        mentions.push({ type: 'machine', label: hostLabel, certainty: 'strong', start: hostStart, end: hostStart + hostLabel.length });
        host = mentions.length - 1;
      }
      if (host < 0) continue;
      const listStart = (m.index ?? 0) + m[0].length - m[2]!.length;
      for (let i = 0; i < mentions.length; i++) {
        const c = mentions[i]!;
        if (i === host || c.start < listStart || c.end > listStart + m[2]!.length) continue;
        // A list item opens a clause after the colon: the list says it is a name all the same.
        if (c.certainty === 'tentative') Object.assign(c, { certainty: 'weak' });
        found.push({ subject: i, predicate: 'runs_on', object: host });
      }
    }
  }
  return found;
}

/** "Name: …", "Name — …", "Name = …" at a line's opening: the description after the mark, to the line's end. */
const DESCRIBED_LINE = /^[ \t]*(?:[-*+][ \t]+)?(?:\*\*)?[^\n:—–=]{2,60}?(?:\*\*)?[ \t]*(?::|—|–|=)[ \t]*([^\n]*)/gmu;
/** A description's part that says what a person does ("SRE lead", "assistant coach", "Msingi student", "GCP account team"). */
const ROLE_TAIL =
  /\b(?:lead|engineer|eng|developer|dev|designer|manager|coach|student|students|teacher|volunteer|founder|co-?founder|director|head|intern|analyst|consultant|contractor|researcher|recruiter|vet|doctor|dentist|nurse|ops|team|SRE|EM|PM|CTO|CEO|CFO|VP)$/i;
const PERSON_SHAPE = /^\p{Lu}[\p{Ll}'’-]+(?:[ \t]+\p{Lu}[\p{Ll}'’-]+){1,2}$/u;

/**
 * "Jade Liang — Tidewater Systems, settlement/ledger", "Adaeze — SRE lead, Kobo Rails, Lagos",
 * "Kevin — Msingi student", "Tomás Varela — GCP account team": a person's description that
 * names an organisation as one of its parts (alone, or before a role) says where they belong;
 * a place right after that organisation is where it is.
 */
function describedMemberships(body: string, mentions: PositionedMention[]): DescribedRelation[] {
  if (!/[:—–=]/.test(body)) return [];
  const found: DescribedRelation[] = [];
  for (const line of matchesOf(DESCRIBED_LINE, body)) {
    const opens = lineOpening(body, line.index ?? 0);
    const subject = mentions.findIndex((c) => c.start === opens || c.start === opens + 2);
    if (subject < 0) continue;
    const person = mentions[subject]!;
    const descriptionStart = (line.index ?? 0) + line[0].length - line[1]!.length;
    if (person.end > descriptionStart || !/^[ \t]*(?:\*\*)?[ \t]*(?::|—|–|=)/.test(body.slice(person.end, descriptionStart))) continue;
    const hasRole = ROLE_TAIL.test(line[1]!.split(/[,.]/)[0]!.trim()) || line[1]!.split(',').some((part) => ROLE_TAIL.test(part.trim()));
    // A name shaped like a person's counts as one when its description gives it a role or a named organisation.
    const personShaped = person.type === 'concept' && person.certainty !== 'tentative' && PERSON_SHAPE.test(person.label);
    if (person.type !== 'person' && !personShaped) continue;
    // The description's parts, up to its first sentence's end.
    const firstSentence = /^[^.;!?]*/.exec(line[1]!)![0];
    let at = descriptionStart;
    let organisation: number | null = null;
    let sawOrganisation = false;
    for (const part of firstSentence.split(',')) {
      const text = part.trim();
      const start = at + part.indexOf(text);
      at += part.length + 1;
      if (!text) continue;
      const named = mentions.findIndex((c) => c.start === start);
      if (named < 0 || named === subject) {
        // "dentist on Kastanienallee", "nurse in Nyali": where a person's role is, they are (not after their organisation: its place is its own).
        const where = person.type === 'person' && !sawOrganisation ? roleWhere(mentions, text, start) : -1;
        if (where >= 0) found.push({ subject, predicate: 'located_in', object: where });
        organisation = null;
        continue;
      }
      const c = mentions[named]!;
      const rest = body.slice(c.end, start + text.length).trim();
      // A place right after the organisation: where it is ("Kobo Rails, Lagos").
      if (rest === '' && c.type === 'place' && organisation !== null) {
        found.push({ subject: organisation, predicate: 'located_in', object: named });
        organisation = null;
        continue;
      }
      organisation = null;
      const isOrganisation = c.type === 'organization' || (c.type === 'concept' && c.certainty !== 'tentative' && (hasRole || rest !== ''));
      if (!isOrganisation || (rest !== '' && !(/^[\p{Ll} -]{0,30}$/u.test(rest) && ROLE_TAIL.test(rest)))) continue;
      if (person.type !== 'person' && !hasRole && !(c.type === 'organization' && c.certainty === 'strong')) continue;
      if (c.type === 'concept') Object.assign(c, { type: 'organization', certainty: 'strong' });
      if (person.type !== 'person') Object.assign(person, { type: 'person', certainty: 'strong' });
      found.push({ subject, predicate: 'member_of', object: named });
      organisation = named;
      sawOrganisation = true;
    }
  }
  return found;
}

/** "dentist on Kastanienallee": one to three lowercase role words, then in/on and a place that ends the part. */
const ROLE_THEN_WHERE = /^[\p{Ll}-]+(?:[ \t]+[\p{Ll}-]+){0,2}[ \t]+(?:in|on)[ \t]+$/u;

/** The place a description's part puts a person's role in, or -1. */
function roleWhere(mentions: PositionedMention[], part: string, partStart: number): number {
  return mentions.findIndex(
    (c) => c.type === 'place' && c.certainty === 'strong' && c.start > partStart && c.end === partStart + part.length && ROLE_THEN_WHERE.test(part.slice(0, c.start - partStart)),
  );
}

/**
 * "lead: me (Zawadi)", "**Owner:** Dana", "members: Hope, Daniel": a project note's roster, at a
 * line's or a sentence's start. Not "people:", which lists whoever is involved (the EM, a
 * stakeholder in finance) as often as who works on it.
 */
const ROSTER = /(?:^|[.;][ \t]+)[ \t]*(?:[-*+][ \t]+)?(?:\*\*)?(lead|leads|led by|tech lead|owner|owners|owned by|team|members|contributors)(?:\*\*)?[ \t]*:(?:\*\*)?[ \t]*/gim;
const ROSTER_PREDICATE: Record<string, string> = { lead: 'leads', leads: 'leads', 'led by': 'leads', 'tech lead': 'leads', owner: 'owns', owners: 'owns', 'owned by': 'owns' };
const WRITER_WORD = /^(?:me|myself|I)$/;
const GIVEN_NAME_SHAPE = /^\p{Lu}[\p{Ll}'’-]+(?:[ \t]+\p{Lu}[\p{Ll}'’-]+)?$/u;

/**
 * In a project's note, a roster line names who leads, owns or works on the project: each listed
 * person (a name alone before its parenthesis, or "me" for the writer) takes the relation.
 */
function projectRoster(body: string, mentions: PositionedMention[], topic: EntityMention, writer: (() => number) | null): DescribedRelation[] {
  if (!/:/.test(body)) return [];
  const found: DescribedRelation[] = [];
  for (const m of matchesOf(ROSTER, body)) {
    const listStart = (m.index ?? 0) + m[0].length;
    const rest = body.slice(listStart);
    // The list ends with its sentence or line (a full stop outside parentheses; a line end anywhere).
    const newline = rest.indexOf('\n');
    const end = listEnd(newline >= 0 ? rest.slice(0, newline) : rest, (c, next) => c === ';' || (c === '.' && !/\S/.test(next)));
    const predicate = ROSTER_PREDICATE[m[1]!.toLowerCase()] ?? 'works_on';
    for (const item of splitTopLevel(rest.slice(0, end))) {
      const paren = item.text.indexOf('(');
      const head = (paren >= 0 ? item.text.slice(0, paren) : item.text).trim();
      let subject: number | null = null;
      if (WRITER_WORD.test(head)) subject = writer ? writer() : null;
      else {
        const at = listStart + item.start;
        const i = mentions.findIndex((c) => c.start === at && c.label === head);
        const c = i >= 0 ? mentions[i]! : null;
        // A lead or an owner is a person, and so is a member with a full name: a name no cue typed is one there ("team: Ledger" may name a team).
        const shape = predicate === 'works_on' ? PERSON_SHAPE : GIVEN_NAME_SHAPE;
        if (c && (c.type === 'person' || (c.type === 'concept' && c.certainty !== 'strong' && shape.test(c.label)))) {
          if (c.type !== 'person') Object.assign(c, { type: 'person', certainty: 'strong' });
          subject = i;
        }
      }
      if (subject !== null) found.push({ subject, predicate, object: topicIndex(mentions, topic) });
    }
  }
  return found;
}

/** Roles that lead a team, in a parenthesis: "Priya Natarajan (EM, Ledger + Payouts)", "Ledger (EM Priya Natarajan)". */
const LEAD_ROLE = String.raw`(?:EM|[Ee]ngineering [Mm]anager|[Mm]anager|[Tt]eam [Ll]ead|[Tt]ech [Ll]ead|[Ll]ead|[Hh]ead|[Dd]irector)`;
const ROLE_THEN_TEAMS = new RegExp(String.raw`^[ \t]*\([ \t]*${LEAD_ROLE}[ \t]*(?:,|:|of)[ \t]*([^()\n]{1,80})\)`, 'u');
const ROLE_THEN_PERSON = new RegExp(String.raw`^[ \t]*\([ \t]*${LEAD_ROLE}[ \t]*:?[ \t]+`, 'u');

/**
 * A team's lead named in a parenthesis: after a person, their lead role and the teams it covers
 * (each a whole name); after a team, its lead's role and name.
 */
function leadsInParentheses(body: string, mentions: PositionedMention[]): DescribedRelation[] {
  const found: DescribedRelation[] = [];
  const count = mentions.length;
  for (let i = 0; i < count; i++) {
    const named = mentions[i]!;
    if (named.start < 0) continue;
    const after = body.slice(named.end, named.end + 100);
    const teams = named.type === 'person' ? ROLE_THEN_TEAMS.exec(after) : null;
    if (teams) {
      const listStart = named.end + after.indexOf(teams[1]!);
      for (const item of splitTopLevel(teams[1]!)) {
        const team = mentions.findIndex((c) => c.start === listStart + item.start && c.label === item.text);
        const t = team >= 0 ? mentions[team]! : null;
        if (t && (t.type === 'organization' || (t.type === 'concept' && t.certainty !== 'tentative'))) {
          if (t.type === 'concept') Object.assign(t, { type: 'organization', certainty: 'strong' });
          found.push({ subject: i, predicate: 'leads', object: team });
        }
      }
      continue;
    }
    // "Team: Ledger (EM …)": after "Team:" a name opening the clause is a team's all the same.
    const teamLabel = /\b[Tt]eam[ \t]*:[ \t]*$/.test(body.slice(Math.max(0, named.start - 8), named.start));
    const role = named.type === 'organization' || (named.type === 'concept' && (named.certainty !== 'tentative' || teamLabel)) ? ROLE_THEN_PERSON.exec(after) : null;
    if (!role) continue;
    const personStart = named.end + role[0].length;
    const person = mentions.findIndex((c) => c.start === personStart && c.type === 'person' && /^[ \t]*\)/.test(body.slice(c.end, c.end + 3)));
    if (person < 0) continue;
    if (named.type === 'concept') Object.assign(named, { type: 'organization', certainty: 'strong' });
    found.push({ subject: person, predicate: 'leads', object: i });
  }
  return found;
}
