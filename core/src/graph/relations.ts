import type { EntityType } from '../contract/index.js';
import { STOPWORDS } from '../platform/text/stopwords.js';
import type { PositionedMention } from './mentions.js';

export interface FoundRelation {
  /** Indexes into the mentions (objects may be appended as new mentions). */
  subject: number;
  predicate: string;
  object: number;
}

interface RelationPattern {
  verb: string;
  predicate: string;
  /** The type an untyped object takes (Lisbon after "moved to" is a place). */
  objectType: EntityType;
  /** Subjects of these are people unless typed otherwise. */
  personSubject: boolean;
}

const PATTERNS: readonly RelationPattern[] = [
  { verb: 'owns', predicate: 'owns', objectType: 'concept', personSubject: true },
  { verb: 'moved to', predicate: 'moved_to', objectType: 'place', personSubject: true },
  { verb: 'relocated to', predicate: 'moved_to', objectType: 'place', personSubject: true },
  { verb: 'lives in', predicate: 'lives_in', objectType: 'place', personSubject: true },
  { verb: 'works at', predicate: 'works_at', objectType: 'organization', personSubject: true },
  { verb: 'works for', predicate: 'works_at', objectType: 'organization', personSubject: true },
  { verb: 'works on', predicate: 'works_on', objectType: 'project', personSubject: true },
  { verb: 'uses', predicate: 'uses', objectType: 'tool', personSubject: false },
  { verb: 'is using', predicate: 'uses', objectType: 'tool', personSubject: false },
  { verb: 'switched to', predicate: 'uses', objectType: 'tool', personSubject: false },
  { verb: 'runs on', predicate: 'runs_on', objectType: 'machine', personSubject: false },
  { verb: 'is running on', predicate: 'runs_on', objectType: 'machine', personSubject: false },
];
const VERB = new RegExp(`\\b(${PATTERNS.map((p) => p.verb.replace(' ', '\\s+')).join('|')})\\s+`, 'gi');
const PRONOUN_CLAUSE = /(?:^|[.;,!?]\s*|\b(?:and|but|then|so)\s+)(he|she|they)\s+(?:\w+ly\s+|also\s+|now\s+|still\s+|finally\s+|just\s+)?$/i;
const SUBJECT_GAP = /^\s*(?:\w+ly\s+|also\s+|now\s+|still\s+|finally\s+|just\s+|has\s+|had\s+)?$/i;
const OBJECT_GAP = /^(?:the|a|an|his|her|their|my|our|its)?\s*$/i;
const MAX_VERBS_PER_ENTRY = 32;
/** Subjects and pronouns are looked for this far before a verb. */
const LOOK_BACK_CHARS = 200;
const DETERMINER = /^(?:(?:the|a|an|his|her|their|my|our|its)\s+)?/i;
const MAX_OBJECT_WORDS = 3;
const NOT_AN_OBJECT = new Set(['the', 'a', 'an', 'to', 'it', 'them', 'this', 'that', 'there', 'here', 'back', 'again', 'more']);

/**
 * "X owns Y", "X moved to Y", "X uses Y", "X runs on Y" (and a few siblings) within one
 * entry. A clause-initial he/she/they is the last person named before it on the same line.
 * May append object mentions and sharpen the types of weakly typed ones.
 */
export function findRelations(body: string, mentions: PositionedMention[]): FoundRelation[] {
  const relations: FoundRelation[] = [];
  let examined = 0;
  for (const m of body.matchAll(VERB)) {
    if (++examined > MAX_VERBS_PER_ENTRY) break; // a pathological entry stays cheap
    const verbStart = m.index ?? 0;
    const verbEnd = verbStart + m[0].length;
    const pattern = PATTERNS.find((p) => p.verb === m[1]!.toLowerCase().replace(/\s+/g, ' '))!;
    const subject = subjectBefore(body, verbStart, mentions);
    if (subject === null) continue;
    const object = objectAfter(body, verbEnd, mentions, pattern.objectType);
    if (object === null || object === subject) continue;
    const s = mentions[subject]!;
    if (pattern.personSubject && s.certainty !== 'strong') Object.assign(s, { type: 'person', certainty: 'strong' });
    relations.push({ subject, predicate: pattern.predicate, object });
  }
  return relations;
}

function subjectBefore(body: string, verbStart: number, mentions: PositionedMention[]): number | null {
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
    if (c.end <= verbStart && SUBJECT_GAP.test(body.slice(c.end, verbStart)) && c.certainty !== 'tentative') best = i;
    else if (c.end <= verbStart && c.certainty === 'tentative' && SUBJECT_GAP.test(body.slice(c.end, verbStart))) {
      // A sentence-initial name acting as a subject is a name after all.
      Object.assign(c, { certainty: 'weak' });
      best = i;
    }
  });
  return best;
}

function objectAfter(body: string, verbEnd: number, mentions: PositionedMention[], objectType: EntityType): number | null {
  const linked = mentions.findIndex((c) => c.start >= verbEnd && OBJECT_GAP.test(body.slice(verbEnd, c.start)));
  if (linked >= 0) {
    const c = mentions[linked]!;
    if (c.certainty !== 'strong' && c.type === 'concept') Object.assign(c, { type: objectType, certainty: 'strong' });
    return linked;
  }
  const plain = plainObject(body.slice(verbEnd));
  if (!plain) return null;
  const start = verbEnd + plain.offset;
  mentions.push({ type: objectType, label: plain.label, certainty: 'strong', start, end: start + plain.label.length });
  return mentions.length - 1;
}

function lineBounds(body: string, at: number): { start: number } {
  return { start: body.lastIndexOf('\n', at) + 1 };
}

/** An unlinked object: up to three words after the verb, up to punctuation or a function word ("the tax module"). */
function plainObject(after: string): { label: string; offset: number } | null {
  const offset = DETERMINER.exec(after)![0].length;
  const words: string[] = [];
  for (const word of after.slice(offset).split(/[ \t]+/)) {
    const bare = word.replace(/[.,;:!?)"'’]+$/, '');
    if (!bare || STOPWORDS.has(bare.toLowerCase()) || !/^[\p{L}\p{N}]/u.test(bare)) break;
    words.push(bare);
    if (bare !== word || words.length >= MAX_OBJECT_WORDS) break; // punctuation ends the phrase
  }
  const label = words.join(' ');
  if (label.length < 2 || NOT_AN_OBJECT.has(label.toLowerCase())) return null;
  return { label, offset };
}

const PLAIN_SUBJECT = /(?:^|[\s(])([\p{L}\p{N}][\p{L}\p{N}._-]*)\s+(?:\w+ly\s+|also\s+|now\s+|still\s+)?$/u;
const PRONOUNS = new Set(['he', 'she', 'they', 'it', 'we', 'i', 'you', 'this', 'that', 'which', 'who']);

/** An unlinked one-word subject right before the verb ("ledgerd runs on …"). */
function plainSubject(before: string, verbStart: number, mentions: PositionedMention[]): number | null {
  const m = PLAIN_SUBJECT.exec(before);
  if (!m || STOPWORDS.has(m[1]!.toLowerCase()) || PRONOUNS.has(m[1]!.toLowerCase()) || m[1]!.length < 2) return null;
  const start = verbStart - m[0].length + m[0].indexOf(m[1]!);
  if (mentions.some((c) => c.start <= start && c.end > start)) return null;
  mentions.push({ type: 'concept', label: m[1]!, certainty: 'weak', start, end: start + m[1]!.length });
  return mentions.length - 1;
}
