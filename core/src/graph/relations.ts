import type { EntityType } from '../contract/index.js';
import { STOPWORDS } from '../platform/text/stopwords.js';
import { isFurnitureLabel, startsWithCalendarWord } from './furniture.js';
import { describedSubject, findDescribedRelations, topicSubject } from './describedRelations.js';
import { extendToTeam, findFirstPersonRelations } from './firstPersonRelations.js';
import { findWriterPossessions } from './writerPossessions.js';
import { findPairedWork } from './pairedWork.js';
import { withEarlierPlaces } from './movedFrom.js';
import { findPossessedBy } from './possessedBy.js';
import { findGroupPlaces } from './placeGroups.js';
import { findAppositionPlaces } from './placeAppositions.js';
import { findChangeTableRelations } from './changeTables.js';
import { findCoordinatedSubjects } from './coordinatedSubjects.js';
import { findPlaceRelations } from './placeRelations.js';
import { findHostedNow } from './hostedNow.js';
import { findHostedOn } from './hostedOn.js';
import { findSharedHomes } from './sharedHomes.js';
import { listEnd, splitTopLevel } from './nameLists.js';
import { findTableRelations } from './tableRelations.js';
import { CLOUD_REGION, type PositionedMention } from './mentions.js';
import type { EntityMention } from './types.js';
import { matchesOf } from '../platform/text/matchesOf.js';

export interface FoundRelation {
  /** Indexes into the mentions (objects may be appended as new mentions). */
  subject: number;
  predicate: string;
  object: number;
}

interface RelationPattern {
  verb: string;
  predicate: string;
  /** The type an untyped object takes (Lisbon after "lives in" is a place). */
  objectType: EntityType;
  /** The type an untyped subject takes (the owner of something is a person). */
  subjectType: EntityType | null;
  /** "X is owned by Y": the name after the verb is the subject (types are given for the final roles). */
  passive?: boolean;
  /** "Tomás Ferreira: ex-colleague, now in Lisbon": only a name already known to be a place ("now in production" is no place). */
  placeObjectOnly?: boolean;
  /** "Faith runs Msingi Code School": read only between a known person and a named organisation or piece of work (a host runs services, a person runs errands). */
  personRunsOrganisation?: boolean;
}

const P = (verb: string, predicate: string, objectType: EntityType, subjectType: EntityType | null, passive = false): RelationPattern => ({ verb, predicate, objectType, subjectType, passive });
const PATTERNS: readonly RelationPattern[] = [
  P('owns', 'owns', 'project', 'person'),
  P('is owned by', 'owns', 'project', 'person', true),
  P('is now owned by', 'owns', 'project', 'person', true),
  P('leads', 'leads', 'project', 'person'),
  P('is leading', 'leads', 'project', 'person'),
  P('is led by', 'leads', 'project', 'person', true),
  P('works on', 'works_on', 'project', 'person'),
  P('is working on', 'works_on', 'project', 'person'),
  P('approves', 'approves', 'concept', 'person'),
  P('approved', 'approves', 'concept', 'person'),
  P('moved to', 'moved_to', 'place', null),
  P('relocated to', 'moved_to', 'place', null),
  P('lives in', 'located_in', 'place', 'person'),
  P('is based in', 'located_in', 'place', 'person'),
  P('is located in', 'located_in', 'place', null),
  P('works at', 'member_of', 'organization', 'person'),
  P('works for', 'member_of', 'organization', 'person'),
  P('joined', 'member_of', 'organization', 'person'),
  P('is a member of', 'member_of', 'organization', 'person'),
  P('uses', 'uses', 'tool', null),
  P('is using', 'uses', 'tool', null),
  P('switched to', 'uses', 'tool', null),
  P('prefers', 'prefers', 'tool', 'person'),
  P('would rather use', 'prefers', 'tool', 'person'),
  P('depends on', 'depends_on', 'project', 'project'),
  P('runs on', 'runs_on', 'machine', 'project'),
  P('is running on', 'runs_on', 'machine', 'project'),
  P('is hosted on', 'runs_on', 'machine', 'project'),
  P('hosted on', 'runs_on', 'machine', 'project'),
  P('is deployed on', 'runs_on', 'machine', 'project'),
  P('deployed on', 'runs_on', 'machine', 'project'),
  P('based in', 'located_in', 'place', null),
  P('located in', 'located_in', 'place', null),
  { ...P('now in', 'located_in', 'place', 'person'), placeObjectOnly: true },
  { ...P('runs', 'leads', 'organization', 'person'), personRunsOrganisation: true },
  { ...P('has run', 'leads', 'organization', 'person'), personRunsOrganisation: true },
  P('decided on', 'decided', 'concept', 'person'),
  P('decided to use', 'decided', 'tool', 'person'),
];
const VERB = new RegExp(`\\b(${PATTERNS.map((p) => p.verb.replace(/ /g, '\\s+'))
  .sort((x, y) => y.length - x.length)
  .join('|')})(?::[ \\t]*|\\s+)`, 'gi');
/** Each verb's pattern, by the verb as VERB matched it reads (lowercase, single spaces). */
const PATTERN_OF_VERB = new Map(PATTERNS.map((p) => [p.verb, p]));
const PRONOUN_CLAUSE = /(?:^|[.;,!?]\s*|\b(?:and|but|then|so)\s+)(he|she|they)\s+(?:\w+ly\s+|also\s+|now\s+|still\s+|finally\s+|just\s+)?$/i;
/**
 * Between a subject and its verb: an adverb, an auxiliary, a relative clause's opening ("Dana, who owns …", "Kestrel, which
 * runs on …", "Quillfin, based in …"), or an apposition in lowercase words ("Kestrel, our billing service, runs on …").
 */
const SUBJECT_GAP = /^\s*(?:,\s*(?:who|which)\s+|,\s*(?:our|the|a|an|my|their|his|her|its)\s+[\p{Ll}\p{N} '’/-]{1,40},\s*)?(?:\w+ly\s+|also\s+|now\s+|still\s+|finally\s+|just\s+|has\s+|had\s+)?$/iu;
/** Participles without an auxiliary take the name before a comma ("Quillfin, based in Berlin"). */
const PARTICIPLES = new Set(['based in', 'located in', 'hosted on', 'deployed on']);
/** A verb continuing the previous clause's subject: "hosted on Heroku; moved to fly.io on Oct 9", "owns ledgerd and leads the Ledger team". */
const SAME_SUBJECT_GAP = /^[^.!?\n]{0,80}?(?:[,;]\s*|\s)(?:and\s+|then\s+|but\s+|later\s+|since\s+)?(?:was\s+|got\s+|has\s+been\s+|also\s+|now\s+)?$/i;
const OBJECT_GAP = /^(?:the|a|an|his|her|their|my|our|its)?\s*$/i;
const MAX_VERBS_PER_ENTRY = 32;
/** Subjects and pronouns are looked for this far before a verb. */
const LOOK_BACK_CHARS = 200;
const DETERMINER = /^(?:(?:the|a|an|his|her|their|my|our|its)\s+)?/i;
const MAX_OBJECT_WORDS = 3;
/** Words that say when, never part of a name ("moved to kube-east later"). */
const TIME_WORDS = /^(?:later|today|yesterday|tomorrow|tonight|now|soon|recently|last|next|this|every|since|until|after|before)$/i;
const NOT_AN_OBJECT = new Set(['the', 'a', 'an', 'to', 'it', 'them', 'this', 'that', 'there', 'here', 'back', 'again', 'more']);
/** Trailing words that say what kind of thing an object is, not its name ("the payments-gateway repo"). */
const KIND_WORDS = /\s+(?:repo|repository|service|box|server|cluster|project|team|app|work|stuff|thing)$/i;

/** A name in a fixed-shape sentence: a word, or a capitalised run ("Dana Okafor", "kube-east", "db-02.internal"). */
const NAME = String.raw`(@?[\p{L}\p{N}][\p{L}\p{N}_.-]*[\p{L}\p{N}](?:[ \t]+\p{Lu}[\p{L}\p{N}_.-]*)*)`;
const THE = String.raw`(?:[Tt]he\s+|[Mm]y\s+|[Oo]ur\s+|[Hh]is\s+|[Hh]er\s+|[Tt]heir\s+)?`;
/** A person as the receiver of something: a capitalised name ("to Grace", "to Marco Bellini"). */
const PERSON = String.raw`(\p{Lu}[\p{L}\p{N}_.-]*(?:[ \t]+\p{Lu}[\p{L}\p{N}_.-]*)*)`;
/** A thing's name of up to four words, lowercase ones included ("on-call rota", "payments-gateway repo"). */
const PHRASE = String.raw`([\p{L}\p{N}@][\p{L}\p{N}_.'’/-]*(?:[ \t]+[\p{L}\p{N}][\p{L}\p{N}_.'’/-]*){0,3}?)`;
// No `i` flag on these: with it, \p{Lu} would match any letter and a name would run on into the sentence.
interface ShapedPattern {
  /** Words the pattern cannot match without: tested first, since a pattern starting with NAME tries every position of the entry. */
  hint: RegExp;
  pattern: RegExp;
  /** Which captured slot is the subject, the object, and (optionally) the replaced thing; and what they are. */
  build: (slot: (group: number, type: EntityType | null) => number | null, match: RegExpMatchArray) => FoundRelation[];
}
/**
 * "S moved from A to B": B is where S is now. Lowercase places are hosts ("kube-west"), and what
 * moves between hosts is a service; capitalised ones are places.
 */
function moveBuild(s: (group: number, type: EntityType | null) => number | null, m?: RegExpMatchArray): FoundRelation[] {
  const where = m && /\p{Lu}/u.test(m[3] ?? '') ? 'place' : 'machine';
  s(2, where);
  return rel(s(1, where === 'machine' ? 'project' : null), 'moved_to', s(3, where));
}
const rel = (subject: number | null, predicate: string, object: number | null): FoundRelation[] => (subject === null || object === null || subject === object ? [] : [{ subject, predicate, object }]);
const SHAPED: readonly ShapedPattern[] = [
  // "Moved Kestrel from kube-east to kube-west."
  { hint: /[Mm]oved|[Mm]igrated/, pattern: new RegExp(String.raw`\b(?:[Mm]oved|[Mm]igrated)\s+${THE}${NAME}\s+from\s+${THE}${NAME}\s+to\s+${THE}${NAME}`, 'dgu'), build: moveBuild },
  // "Kestrel moved from kube-east to kube-west", "Dana moved from Berlin to Lisbon".
  { hint: /(?:moved|migrated|relocated)\s+from\s/, pattern: new RegExp(String.raw`${NAME}\s+(?:moved|migrated|relocated)\s+from\s+${THE}${NAME}\s+to\s+${THE}${NAME}`, 'dgu'), build: moveBuild },
  // "Replaced Redis with Valkey in Kestrel."
  {
    hint: /[Rr]eplaced/,
    pattern: new RegExp(String.raw`\b[Rr]eplaced\s+${THE}${NAME}\s+with\s+${THE}${NAME}(?:\s+in\s+${THE}${NAME})?`, 'dgu'),
    build: (s) => [...rel(s(2, 'tool'), 'replaced', s(1, 'tool')), ...rel(s(3, 'project'), 'uses', s(2, 'tool'))],
  },
  // "Kestrel switched from Redis to Valkey."
  {
    hint: /switched\s+from\s/,
    pattern: new RegExp(String.raw`${NAME}\s+switched\s+from\s+${THE}${NAME}\s+to\s+${THE}${NAME}`, 'dgu'),
    build: (s) => [...rel(s(3, 'tool'), 'replaced', s(2, 'tool')), ...rel(s(1, null), 'uses', s(3, 'tool'))],
  },
  // "Marco took over Kestrel from Dana."
  { hint: /took\s+over\s/, pattern: new RegExp(String.raw`${NAME}\s+took\s+over\s+${THE}${NAME}\s+from\s+${NAME}`, 'dgu'), build: (s) => (s(3, 'person'), rel(s(1, 'person'), 'owns', s(2, 'project'))) },
  // "Dana handed the staging box over to Marco", "handed over the on-call rota to Grace": the receiver owns it now.
  {
    hint: /[Hh]anded/,
    pattern: new RegExp(String.raw`\b[Hh]anded\s+(?:over\s+|off\s+)?${THE}${PHRASE}\s+(?:over\s+|off\s+)?to\s+${PERSON}`, 'dgu'),
    build: (s) => rel(s(2, 'person'), 'owns', s(1, 'project')),
  },
  // "Ownership of Kestrel passed to Marco."
  { hint: /[Oo]wnership/, pattern: new RegExp(String.raw`\b[Oo]wnership\s+of\s+${THE}${NAME}\s+(?:passed|went|moved)\s+(?:from\s+${NAME}\s+)?to\s+${NAME}`, 'dgu'), build: (s) => rel(s(3, 'person'), 'owns', s(1, 'project')) },
];

/** Who speaks in an entry: the writer USER.md names, and whether the entry is in their own voice (not a person's or project's note). */
export interface EntryVoice {
  writer: EntityMention | null;
  ownVoice: boolean;
  /** MEMORY.md and USER.md: a line without a subject ("Backend engineer at Quillfin") describes the writer. */
  aboutWriter: boolean;
}

const NO_VOICE: EntryVoice = { writer: null, ownVoice: false, aboutWriter: false };

/**
 * "X owns Y", "Y is owned by X", "X moved from A to B", "replaced A with B in X", "X runs on
 * Y" (and siblings) within one entry, and the writer's own ("I live in Rosemont"). A
 * clause-initial he/she/they is the last person named before it on the same line. May append
 * object mentions and sharpen the types of weakly typed ones.
 */
export function findRelations(
  body: string,
  mentions: PositionedMention[],
  topic: EntityMention | null = null,
  voice: EntryVoice = NO_VOICE,
  /** The first row's cells of the table this entry is a row of. */
  tableHeader: readonly string[] | null = null,
): FoundRelation[] {
  const relations: FoundRelation[] = [];
  const shapedSpans: Array<[number, number]> = [];
  let examined = 0;
  const writer = voice.writer;
  const writerIndex = writer ? () => placedMention(mentions, writer, WRITER_START) : null;
  if (writerIndex) {
    const objectAt = (start: number, type: EntityType, capitalisedOnly: boolean) => objectStartingAt(body, start, mentions, type, capitalisedOnly);
    for (const r of findFirstPersonRelations(body, mentions, { objectAt, writer: writerIndex }, voice.ownVoice)) {
      relations.push({ subject: r.subject, predicate: r.predicate, object: r.object });
      shapedSpans.push(r.span);
    }
    for (const r of findWriterPossessions(body, mentions, voice.ownVoice)) {
      relations.push({ subject: writerIndex(), predicate: 'owns', object: r.object });
      shapedSpans.push(r.span);
    }
    const person = topic?.type === 'person' ? topic : null;
    relations.push(...findPairedWork(body, mentions, { objectAt, writer: writerIndex, topic: person ? () => placedMention(mentions, person, TOPIC_START) : null }, voice.ownVoice));
  }
  for (const shaped of SHAPED) {
    // Cheap test first: most entries have none of these words.
    if (!shaped.hint.test(body)) continue;
    for (const m of matchesOf(shaped.pattern, body)) {
      if (++examined > MAX_VERBS_PER_ENTRY) break;
      const slot = (group: number, type: EntityType | null): number | null => {
        const span = m.indices?.[group];
        if (!span) return null;
        // "Saturday night Jellyfin moved from …": a lowercase word before a capitalised name is the sentence, not the name.
        const lead = /^(?:\p{Ll}[\p{L}\p{N}_.-]*[ \t]+)+(?=\p{Lu})/u.exec(m[group]!)?.[0].length ?? 0;
        return slotMention(mentions, m[group]!.slice(lead), span[0] + lead, type);
      };
      relations.push(...shaped.build(slot, m));
      shapedSpans.push([m.index ?? 0, (m.index ?? 0) + m[0].length]);
    }
  }
  /** The last relation read from a verb: a verb right after it in the same sentence may share its subject. */
  let previous: { subject: number; end: number } | null = null;
  for (const m of matchesOf(VERB, body)) {
    if (++examined > MAX_VERBS_PER_ENTRY) break; // a pathological entry stays cheap
    const verbStart = m.index ?? 0;
    const verbEnd = verbStart + m[0].length;
    if (shapedSpans.some(([a, b]) => verbStart >= a && verbStart < b)) continue;
    const pattern = PATTERN_OF_VERB.get(m[1]!.toLowerCase().replace(/\s+/g, ' '))!;
    const continued: number | null = previous && !pattern.passive && previous.end <= verbStart && SAME_SUBJECT_GAP.test(body.slice(previous.end, verbStart)) ? previous.subject : null;
    // "30 runs of …", "Otieno runs saturday's game": reading a subject may name a word; a reading that fails leaves the mentions as they were.
    const undo = pattern.personRunsOrganisation ? snapshot(mentions) : null;
    let subject: number | null =
      subjectBefore(body, verbStart, mentions, PARTICIPLES.has(pattern.verb)) ?? continued ?? (pattern.passive ? null : topicSubject(body, verbStart, mentions, topic, pattern.subjectType));
    if (undo) {
      const named: number | null = subject === null ? null : namedObjectAfter(body, verbEnd, mentions);
      if (subject === null || named === null || named === subject || !runsOrganisation(body, verbEnd, mentions[subject]!, mentions[named]!)) {
        undo();
        continue;
      }
    }
    if (subject === null) continue;
    // What a service or a host moves to is a host, not a place.
    const movingThing: boolean = pattern.predicate === 'moved_to' && mentions[subject]!.certainty === 'strong' && ['project', 'machine'].includes(mentions[subject]!.type);
    // "owns: Lantern, Elixir": after a colon only the list's whole names are objects ("Cloud SQL", not "Cloud").
    const colon = m[0].includes(':');
    if (colon && pattern.passive) continue;
    const listed: number[] = LISTS_OBJECTS.has(pattern.predicate) ? listedObjects(body, verbEnd, mentions, pattern.objectType) : [];
    let object: number | null = colon
      ? firstListed(mentions, listed, pattern.objectType)
      : pattern.personRunsOrganisation || pattern.placeObjectOnly
        ? namedObjectAfter(body, verbEnd, mentions)
        : objectAfter(body, verbEnd, mentions, pattern.passive ? (pattern.subjectType ?? 'concept') : movingThing ? 'machine' : pattern.objectType);
    if (object === null || object === subject) continue;
    if (pattern.placeObjectOnly && (mentions[object]!.type !== 'place' || mentions[subject]!.type !== 'person')) continue;
    if (pattern.passive) [subject, object] = [object, subject];
    if (pattern.predicate === 'moved_to' && mentions[object]!.type === 'machine') Object.assign(mentions[subject]!, mentions[subject]!.certainty === 'strong' ? {} : { type: 'project', certainty: 'strong' });
    const s = mentions[subject]!;
    if (pattern.subjectType && s.certainty !== 'strong') Object.assign(s, { type: pattern.subjectType, certainty: 'strong' });
    if (pattern.passive && pattern.objectType) sharpen(mentions[object]!, pattern.objectType);
    relations.push({ subject, predicate: pattern.predicate, object });
    if (pattern.predicate === 'located_in') {
      // "now in Lisbon (Graça)": the part of the place in the parenthesis is where they are too.
      const whereEnd: number = mentions[object]!.end;
      const open = /^[ \t]*\([ \t]*/.exec(body.slice(whereEnd, whereEnd + 4));
      const part: number = open ? mentions.findIndex((c) => c.start === whereEnd + open[0].length && c.type === 'place' && /^[ \t]*\)/.test(body.slice(c.end, c.end + 3))) : -1;
      if (part >= 0 && part !== subject) relations.push({ subject, predicate: 'located_in', object: part });
    }
    if (pattern.predicate === 'runs_on') {
      // "runs on GCP, in `hamia-prod`", "hosted on Hetzner (web-1)": the host named inside the provider runs it too.
      const within = hostWithin(body, mentions, object);
      if (within !== null && within !== subject) relations.push({ subject, predicate: 'runs_on', object: within }, { subject: within, predicate: 'runs_on', object });
    }
    if (!pattern.passive) for (const more of listed) if (more !== object && more !== subject) relations.push({ subject, predicate: pattern.predicate, object: sharpened(mentions, more, pattern.objectType) });
    previous = { subject: pattern.passive ? object : subject, end: Math.max(mentions[object]!.end, mentions[subject]!.end, verbEnd) };
  }
  relations.push(...findDescribedRelations(body, mentions, topic ?? (voice.aboutWriter ? writer : null), writerIndex));
  relations.push(...findPlaceRelations(body, mentions));
  relations.push(...findGroupPlaces(body, mentions));
  relations.push(...findAppositionPlaces(body, mentions));
  relations.push(...findHostedNow(body, mentions));
  relations.push(...findHostedOn(body, mentions));
  relations.push(...findTableRelations(body, mentions, tableHeader));
  relations.push(...findChangeTableRelations(body, mentions, tableHeader));
  relations.push(...findPossessedBy(body, mentions));
  relations.push(...findCoordinatedSubjects(body, mentions, (start, type, capitalisedOnly) => objectStartingAt(body, start, mentions, type, capitalisedOnly)));
  relations.push(...findSharedHomes(body, mentions, relations));
  return withEarlierPlaces(body, mentions, relations);
}

/** The writer's mention, placed before the text like the topic's (they are named by USER.md, not by a span). */
const WRITER_START = -2;
/** The note's topic's place (describedRelations.ts places it there too). */
const TOPIC_START = -1;

function placedMention(mentions: PositionedMention[], mention: EntityMention, at: number): number {
  const found = mentions.findIndex((m) => m.start === at);
  if (found >= 0) return found;
  mentions.push({ ...mention, certainty: 'strong', start: at, end: at });
  return mentions.length - 1;
}

const CAPITALISED_NAME = /^\p{Lu}[\p{L}\p{N}_.'’-]*(?:[ \t]+\p{Lu}[\p{L}\p{N}_.'’-]*)*/u;

/**
 * The object of a first-person verb: the mention starting at `start`, else a capitalised name
 * (or, unless `capitalisedOnly`, a plain phrase) read there; null when it names nothing.
 */
function objectStartingAt(body: string, start: number, mentions: PositionedMention[], type: EntityType, capitalisedOnly: boolean): number | null {
  const linked = mentions.findIndex((c) => c.start === start);
  if (linked >= 0) {
    const c = mentions[linked]!;
    if (isFurnitureLabel(c.label) || (capitalisedOnly && !/^\p{Lu}/u.test(c.label))) return null;
    if (c.certainty === 'tentative') Object.assign(c, { certainty: 'weak' });
    if (c.type === 'concept' && c.certainty !== 'strong') Object.assign(c, { type, certainty: 'strong' });
    return linked;
  }
  if (mentions.some((c) => c.start < start && c.end > start)) return null;
  const name = CAPITALISED_NAME.exec(body.slice(start, start + 120))?.[0].replace(/['’]s$/, '').replace(/[.]+$/, '');
  const plain = name ? { label: name, offset: 0 } : capitalisedOnly ? null : plainObject(body.slice(start));
  if (!plain || plain.offset !== 0 || STOPWORDS.has(plain.label.toLowerCase()) || NOT_AN_OBJECT.has(plain.label.toLowerCase()) || isFurnitureLabel(plain.label) || startsWithCalendarWord(plain.label)) return null;
  mentions.push({ type, label: plain.label, certainty: 'strong', start, end: start + plain.label.length });
  return mentions.length - 1;
}

/** A weakly typed mention takes the type a relation gives it. */
function sharpen(m: PositionedMention, type: EntityType): void {
  if (m.certainty !== 'strong' || m.type === 'concept') Object.assign(m, { type, certainty: 'strong' });
}

/** The mention at `start` (a name found earlier), or a new one for a plain word; null for a date or a number. */
function slotMention(mentions: PositionedMention[], text: string, start: number, type: EntityType | null): number | null {
  const label = text.replace(/['’]s$/, '').replace(/[.]+$/, '');
  if (isFurnitureLabel(label) || NOT_AN_OBJECT.has(label.toLowerCase()) || STOPWORDS.has(label.toLowerCase())) return null;
  const found = mentions.findIndex((c) => c.start <= start && c.end > start);
  if (found >= 0) {
    if (type) sharpen(mentions[found]!, type);
    return found;
  }
  const given = type ?? (RELEASE.test(label) ? 'project' : null);
  mentions.push({ type: given ?? 'concept', label, certainty: given ? 'strong' : 'weak', start, end: start + label.length });
  return mentions.length - 1;
}
/** "v2.4": a release named by its version alone is a piece of work. */
const RELEASE = /^v\d+(?:\.\d+){1,2}$/;

function subjectBefore(body: string, verbStart: number, mentions: PositionedMention[], afterComma = false): number | null {
  const before = body.slice(Math.max(0, verbStart - LOOK_BACK_CHARS), verbStart);
  const pronoun = PRONOUN_CLAUSE.exec(before);
  if (pronoun) {
    const pronounStart = verbStart - pronoun[0].length + pronoun[0].search(/\b(?:he|she|they)\b/i);
    const line = lineBounds(body, pronounStart);
    for (let i = mentions.length - 1; i >= 0; i--) {
      const c = mentions[i]!;
      if (c.end <= pronounStart && c.start >= line.start && c.type === 'person') return i;
    }
    return null;
  }
  let best: number | null = plainSubject(before, verbStart, mentions);
  mentions.forEach((c, i) => {
    if (c.start < 0) return; // the topic and the writer are named by the note, not before this verb
    const gap = body.slice(c.end, verbStart);
    if (c.end <= verbStart && (SUBJECT_GAP.test(gap) || (afterComma && /^\s*,\s*$/.test(gap))) && c.certainty !== 'tentative') best = i;
    else if (c.end <= verbStart && c.certainty === 'tentative' && (SUBJECT_GAP.test(gap) || (afterComma && /^\s*,\s*$/.test(gap)))) {
      // A sentence-initial name acting as a subject is a name after all.
      Object.assign(c, { certainty: 'weak' });
      best = i;
    }
  });
  return best ?? describedSubject(body, verbStart, mentions);
}

function objectAfter(body: string, verbEnd: number, mentions: PositionedMention[], objectType: EntityType): number | null {
  const linked = mentions.findIndex((c) => c.start >= verbEnd && OBJECT_GAP.test(body.slice(verbEnd, c.start)));
  if (linked >= 0) {
    const c = mentions[linked]!;
    if (isFurnitureLabel(c.label)) return null;
    if (c.certainty !== 'strong' && c.type === 'concept') Object.assign(c, { type: objectType, certainty: 'strong' });
    if (objectType === 'organization' || objectType === 'project') extendToTeam(body, c); // "joined the Ledger team", "leads the Ledger team"
    return linked;
  }
  const plain = plainObject(body.slice(verbEnd));
  if (!plain) return null;
  const start = verbEnd + plain.offset;
  mentions.push({ type: objectType, label: plain.label, certainty: 'strong', start, end: start + plain.label.length });
  return mentions.length - 1;
}

/** Predicates whose object may be a list ("owns Lantern, Elixir and Zamu"); a list of places is a place's hierarchy ("lives in Kilimani, Nairobi"), not several homes. */
const LISTS_OBJECTS = new Set(['owns', 'leads', 'works_on', 'uses', 'prefers', 'depends_on', 'member_of']);
/** The list after a verb ends with its clause. */
const CLAUSE_MARK = new Set([';', ':', '\n']);
const SENTENCE_MARK = new Set(['.', '!', '?']);
/** A list item's own determiner, and a parenthesis after its name. */
const ITEM_DETERMINER = /^(?:(?:the|a|an|his|her|their|my|our|its)\s+)?/i;
const MAX_LIST_ITEMS = 8;

/**
 * The names a verb's object list holds, each item whole: "Lantern (status page, …), Elixir" gives
 * Lantern and Elixir; "the Vault cluster (`vault-nbo-2`, `vault-nbo-3`)" gives the two hosts its
 * parenthesis lists, not Vault. An item that is more than a name ("Dana owns the rest") gives nothing.
 */
function listedObjects(body: string, from: number, mentions: PositionedMention[], objectType: EntityType): number[] {
  const rest = body.slice(from, from + 400);
  // The clause ends at the first full stop, semicolon, colon or line end outside parentheses.
  const end = listEnd(rest, (c, next) => CLAUSE_MARK.has(c) || (SENTENCE_MARK.has(c) && !/\S/.test(next)));
  const items = splitTopLevel(rest.slice(0, end));
  const found: number[] = [];
  for (const item of items.slice(0, MAX_LIST_ITEMS)) {
    const start = from + item.start + ITEM_DETERMINER.exec(item.text)![0].length;
    const paren = item.text.indexOf('(');
    const headEnd = from + item.start + (paren >= 0 ? item.text.slice(0, paren).trimEnd().length : item.text.length);
    const head = wholeName(body, start, headEnd, mentions, objectType);
    if (head !== null) found.push(head);
    if (paren < 0) continue;
    // A parenthesis of names only ("(`vault-nbo-2`, `vault-nbo-3`)") lists what the item is made of.
    const close = item.text.lastIndexOf(')');
    if (close < paren) continue;
    const inner = splitTopLevel(item.text.slice(paren + 1, close));
    const names = inner.map((n) => wholeName(body, from + item.start + paren + 1 + n.start, from + item.start + paren + 1 + n.start + n.text.length, mentions, objectType));
    if (names.every((n) => n !== null)) found.push(...(names as number[]));
  }
  return found;
}

/** The one mention spanning exactly [start, end) (backticks around it allowed), of a type the relation may take. */
function wholeName(body: string, start: number, end: number, mentions: PositionedMention[], objectType: EntityType): number | null {
  const text = body.slice(start, end);
  const lead = text.length - text.replace(/^[`*_]+/, '').length;
  const trail = text.length - text.replace(/[`*_]+$/, '').length;
  const i = mentions.findIndex((c) => (c.start === start && c.end === end) || (c.start === start + lead && c.end === end - trail));
  if (i < 0) return null;
  const c = mentions[i]!;
  if (isFurnitureLabel(c.label) || ['url', 'tag', 'path'].includes(c.type)) return null;
  // A person or a place is no thing one owns or uses (unless the verb wants one).
  if (c.certainty === 'strong' && (c.type === 'person' || c.type === 'place') && c.type !== objectType) return null;
  return i;
}

function firstListed(mentions: PositionedMention[], listed: number[], type: EntityType): number | null {
  const first = listed.shift();
  return first === undefined ? null : sharpened(mentions, first, type);
}

/** A list item's mention, its type given by the relation when nothing else typed it. */
function sharpened(mentions: PositionedMention[], i: number, type: EntityType): number {
  const c = mentions[i]!;
  if (c.certainty === 'tentative') Object.assign(c, { certainty: 'weak' });
  if (c.type === 'concept' && c.certainty !== 'strong') Object.assign(c, { type, certainty: 'strong' });
  return i;
}

const FULL_NAME = /^\p{Lu}\p{Ll}+[ \t]+\p{Lu}\p{Ll}+$/u;

/** A person running a capitalised organisation or piece of work named right after the verb. */
function runsOrganisation(body: string, verbEnd: number, subject: PositionedMention, object: PositionedMention): boolean {
  // "Faith Achieng: runs …": a full name no cue typed is the person doing it.
  if (subject.type !== 'person' && !(subject.type === 'concept' && subject.certainty !== 'tentative' && FULL_NAME.test(subject.label))) return false;
  if (!/^(?:the\s+)?$/i.test(body.slice(verbEnd, object.start)) || !/^\p{Lu}/u.test(object.label)) return false;
  return object.type === 'organization' || object.type === 'project' || (object.type === 'concept' && object.certainty !== 'tentative');
}

function lineBounds(body: string, at: number): { start: number } {
  return { start: body.lastIndexOf('\n', at) + 1 };
}

/** Puts the mentions back as they are now (count and fields). */
function snapshot(mentions: PositionedMention[]): () => void {
  const saved = mentions.map((m) => ({ ...m }));
  return () => {
    mentions.length = saved.length;
    saved.forEach((m, i) => Object.assign(mentions[i]!, m));
  };
}

/** The name right after a verb (maybe after "the"), never a phrase read for the occasion ("runs saturday's game"). */
function namedObjectAfter(body: string, verbEnd: number, mentions: PositionedMention[]): number | null {
  const i = mentions.findIndex((c) => c.start >= verbEnd && OBJECT_GAP.test(body.slice(verbEnd, c.start)));
  return i >= 0 && !isFurnitureLabel(mentions[i]!.label) ? i : null;
}

/** An unlinked object: up to three words after the verb, up to punctuation or a function word ("the tax module"). */
function plainObject(after: string): { label: string; offset: number } | null {
  const determiner = DETERMINER.exec(after)![0];
  // "moved to a systemd unit": an indefinite article names a kind of thing, not a thing.
  if (/^an?\s/i.test(determiner)) return null;
  const offset = determiner.length;
  const words: string[] = [];
  for (const word of after.slice(offset).split(/[ \t]+/)) {
    const bare = word.replace(/[.,;:!?)"'’]+$/, '');
    if (!bare || STOPWORDS.has(bare.toLowerCase()) || TIME_WORDS.test(bare) || !/^[\p{L}\p{N}]/u.test(bare)) break;
    words.push(bare);
    if (bare !== word || words.length >= MAX_OBJECT_WORDS) break; // punctuation ends the phrase
  }
  const label = words.join(' ').replace(KIND_WORDS, '');
  // Dates are attributes of a relation, never its object ("v2.4 moved to 2026-11-18"); "the Saturday sessions" is an occasion.
  if (label.length < 2 || NOT_AN_OBJECT.has(label.toLowerCase()) || isFurnitureLabel(label) || startsWithCalendarWord(label)) return null;
  return { label, offset };
}

/** ", in `hamia-prod`", " (web-1)": a host right after a runs_on object. */
const WITHIN = /^(?:,?[ \t]+(?:in|on)[ \t]+(?:the[ \t]+)?|[ \t]*\([ \t]*)`?$/;

/** A code token shaped like a host's name ("hamia-prod", "db01"): what the position after a provider makes a host. */
const HOST_TOKEN = /^[a-z][a-z0-9]*(?:[-.][a-z0-9]+)+$|^[a-z]+\d+$/;

/** The machine named right after a provider or host that runs something (a host-shaped code token there is one), or null. */
function hostWithin(body: string, mentions: PositionedMention[], object: number): number | null {
  const end = mentions[object]!.end;
  const i = mentions.findIndex(
    (c) =>
      c.start > end &&
      c.start - end <= 8 &&
      ((c.type === 'machine' && c.certainty === 'strong') || (c.type === 'identifier' && HOST_TOKEN.test(c.label) && !CLOUD_REGION.test(c.label))) &&
      WITHIN.test(body.slice(end, c.start)),
  );
  if (i < 0 || i === object) return null;
  if (mentions[i]!.type !== 'machine') Object.assign(mentions[i]!, { type: 'machine', certainty: 'strong' });
  return i;
}

/** The word may hold dots ("db-02.internal") but not end with one: "partner. works at …" has no subject before the verb. */
const PLAIN_SUBJECT = /(?:^|[\s(])([\p{L}\p{N}](?:[\p{L}\p{N}._-]*[\p{L}\p{N}_-])?)\s+(?:\w+ly\s+|also\s+|now\s+|still\s+)?$/u;
const PRONOUNS = new Set(['he', 'she', 'they', 'it', 'we', 'i', 'you', 'this', 'that', 'which', 'who']);

/** An unlinked one-word subject right before the verb ("ledgerd runs on …"). */
function plainSubject(before: string, verbStart: number, mentions: PositionedMention[]): number | null {
  const m = PLAIN_SUBJECT.exec(before);
  if (!m || STOPWORDS.has(m[1]!.toLowerCase()) || PRONOUNS.has(m[1]!.toLowerCase()) || m[1]!.length < 2) return null;
  const start = verbStart - m[0].length + m[0].indexOf(m[1]!);
  if (mentions.some((c) => c.start <= start && c.end > start)) return null;
  const release = RELEASE.test(m[1]!);
  mentions.push({ type: release ? 'project' : 'concept', label: m[1]!, certainty: release ? 'strong' : 'weak', start, end: start + m[1]!.length });
  return mentions.length - 1;
}
