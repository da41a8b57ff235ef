import type { EntityType } from '../contract/index.js';
import { STOPWORDS } from '../platform/text/stopwords.js';
import { AMBIGUOUS_GIVEN_NAMES, isFurnitureWord, isGenericNoun, isUnitOrPair } from './furniture.js';
import { knownNameType } from './knownNames.js';
import { typeFromShape } from './nameShapes.js';
import { typeFromContext } from './typeCues.js';
import { tailWordOf, cueWords } from './cueTail.js';
import { rememberedByWord } from './wordMemo.js';
import type { EntityMention, TypeVote } from './types.js';
import { matchesOf } from '../platform/text/matchesOf.js';

/** An entity named at a place in an entry's body. */
export interface PositionedMention extends EntityMention {
  start: number;
  end: number;
  /** `[[Target|shown]]`: the shown text, an alias of the target. */
  alias?: string;
  /** What an untyped name's words hint at without proving it ("with Kiri", "in Alcântara"): see typeVotes.ts. */
  hint?: EntityType;
  /** The mention's own evidence, kept when its file's decision retypes it (typeVotes.ts). */
  ownVote?: TypeVote;
  /** Typed by the other mentions of its file, not by its own words. */
  typedByFile?: boolean;
}

/** No entry, however long, yields more mentions than this (an entry with 10,000 links stays cheap). */
export const MAX_MENTIONS_PER_ENTRY = 64;

const SOURCE_REF = /\S+#L\d+(?:-L?\d+)?\b/g;
const WIKI_LINK = /\[\[([^\][|#\n]{1,200})(?:#[^\]|\n]*)?(?:\|([^\]\n]{1,200}))?\]\]/g;
/** A note named by its day: a daily note, or a dated note's slug ("2026-11-03-postgres-upgrade"). */
const DATED_NOTE = /^\s*\d{4}-\d{2}-\d{2}(?:$|[\s_.-])/;
const MARKDOWN_LINK = /\[([^\]\n]{0,200})\]\((https?:\/\/[^\s)]{1,2000})\)/g;
const URL = /\bhttps?:\/\/[^\s<>()[\]]{1,2000}/g;
const CODE = /`([^`\n]{2,80})`/g;
const HASH_TAG = /(?<![\p{L}\p{N}&/#])#([\p{L}\p{N}][\p{L}\p{N}_/-]{0,60})/gu;
const FILE_PATH = /(?<![\w/.])(?:~\/|\.{1,2}\/|\/)?(?:[\w.-]+\/)+[\w-]+(?:\.[A-Za-z0-9]{1,8})?(?![\w/])/g;
const DOMAIN = /\b[a-z0-9][a-z0-9-]*(?:\.[a-z0-9-]+)*\.(?:com|org|net|io|dev|app|sh|de|uk|fr|eu|co|me|ai|cloud|local|lan|internal|home)\b/gi;
/** Host names with a number part (`ledgerd-prod-2`, `db01`): machines. */
const HOST = /\b[a-z][a-z0-9]*(?:-[a-z0-9]+)*-?\d+[a-z0-9]*\b/g;
/** `eu-west-1`, `us-central1`, `africa-south1`: a cloud's region is where things run, not a host. */
export const CLOUD_REGION = /^(?:us|eu|ap|sa|ca|me|af|il|mx|africa|asia|europe|australia|northamerica|southamerica)-(?:gov-)?(?:north|south|east|west|central|northeast|northwest|southeast|southwest)-?\d{1,2}$/;
/** snake_case, camelCase, dotted.module names: code identifiers. */
const IDENTIFIER = /\b(?:[a-z][a-z0-9]*(?:_[a-z0-9]+)+|[a-z]+[A-Z][A-Za-z0-9]*|[a-z][a-z0-9]*(?:\.[a-z][a-z0-9]*){2,})\b/g;
/** `@dana`: a person's handle (not an email address: nothing word-like before the @). */
const HANDLE = /(?<![\w@.])@([a-z][a-z0-9_.-]{0,30}[a-z0-9])/gi;
/** A person named with their title: "Dr. Hartmann", "Dr Wekesa", "Prof. Ada Obi", "Mrs. Njeri". */
const TITLED_NAME = /\b(?:Dr|Prof|Mr|Mrs|Ms|Mx)\.?[ \t]+\p{Lu}[\p{Ll}'’-]+(?:[ \t]+\p{Lu}[\p{Ll}'’-]+)?(?![\p{L}\p{N}])/gu;
/** "Pacific/Chatham", "Europe/Lisbon", "Australia/Lord_Howe": a time zone names its city. */
const TIME_ZONE = /(?<![\w/.])(?:Europe|America|Asia|Africa|Australia|Pacific|Atlantic|Indian|Antarctica)\/(?:[A-Za-z_]+\/)?(\p{Lu}[\p{L}_]+)(?![\w/])/gu;
/** Capitalised words, maybe joined by a name's particle ("Cais do Sodré", "Miradouro da Senhora do Monte", "Ludwig van Beethoven"). */
const CAPITALISED_SPAN = /\p{Lu}[\p{L}\p{N}'’-]*(?:(?:[ \t]+(?:da|das|de|del|della|di|do|dos|du|van|von|der)(?=[ \t]+\p{Lu}))?[ \t]+\p{Lu}[\p{L}\p{N}'’-]*)*/gu;
/** The particles CAPITALISED_SPAN lets inside a name. */
const NAME_PARTICLE = /^(?:da|das|de|del|della|di|do|dos|du|van|von|der)$/;

/** Words next to a name that say it is a person. */
const PERSON_AFTER =
  /^(?:['’]s)?(?:\s+\([^()\n]{1,40}\))?\s+(?:said|says|asked|told|wants|prefers|thinks|is out|was out|owns|lives|works (?:at|for|on|with|as|in)|joined|left|suggested|likes|met|mentioned|wrote|called|emailed|agreed|agrees|confirmed|confirms|replied|texted|messaged|promised|offered|recommends|swears|reckons|reviewed|recommended|leads|is leading|is working|is based|took over|decided|approved|is on leave|is off|texted|called me|came over|came by|dropped by|cooked|laughed|cried|smiled|hugged|invited|visited us|visited me|picked me up|picked up the kids|is pregnant|turned \d+|and I|& I|on call|on-call|disagrees|designed|now owns)\b|^[?,;:]?\s+(?:she|he)(?:['’]s)?\s/;
const SUBJECT_AFTER = /^\s+(?:uses|is using|runs|is|was|has|had|will|switched)\b/;
const PERSON_BEFORE = /\b(?:(?:call|meeting|lunch|dinner|coffee|chat|sync|pairing|paired|talked|spoke|1:1)\s+with|(?:owned|led|reviewed|approved|written)\s+by|told|asked|ask|met|cc|thanks to|ping|passed to)\s+$/i;
const PERSON_BEFORE_LAST = cueWords('with by told asked ask met cc to ping');

/**
 * Entities an entry's body names, found by syntax: links, tags, URLs, paths, hosts, code
 * identifiers, then capitalised names. Matched spans are masked so a URL is not also a path.
 */
export function findMentions(body: string): PositionedMention[] {
  const found: PositionedMention[] = [];
  let masked = body;
  const take = (pattern: RegExp, make: (m: RegExpMatchArray) => Omit<PositionedMention, 'start' | 'end'> | null, group = 0): void => {
    for (const m of matchesOf(pattern, masked)) {
      if (found.length >= MAX_MENTIONS_PER_ENTRY) return;
      const made = make(m);
      const start = m.index ?? 0;
      const end = start + m[0].length;
      if (made && made.label.trim().length > 0) found.push({ ...made, start: group === 0 ? start : start + m[0].indexOf(m[group]!), end });
      masked = masked.slice(0, start) + ' '.repeat(m[0].length) + masked.slice(end);
    }
  };
  // Each pattern runs only where the characters it needs are (most entries hold no link, path or handle).
  // Source references (`memory/2026-04-04.md#L3-L5`) point at evidence; they name nothing.
  if (masked.includes('#L')) take(SOURCE_REF, () => null);
  // A link to a dated note (`[[2026-11-04]]`, `[[2026-11-03-postgres-upgrade]]`) points at evidence, like a source reference.
  if (masked.includes('[[')) take(WIKI_LINK, (m) => (DATED_NOTE.test(m[1]!) ? null : { type: 'concept', label: m[1]!, certainty: 'weak', ...(m[2] ? { alias: m[2] } : {}) }));
  if (masked.includes('](http')) take(MARKDOWN_LINK, (m) => ({ type: 'url', label: trimUrl(m[2]!), certainty: 'strong' }));
  if (masked.includes('://')) take(URL, (m) => ({ type: 'url', label: trimUrl(m[0]), certainty: 'strong' }));
  if (masked.includes('`')) take(CODE, (m) => codeMention(m[1]!));
  if (masked.includes('@')) take(HANDLE, (m) => ({ type: 'person', label: `@${m[1]!.toLowerCase()}`, certainty: 'strong' }));
  // "Dr. Wekesa", "Prof Adeyemi": a title and a name are one person (the title's full stop ends no sentence).
  take(TITLED_NAME, (m) => ({ type: 'person', label: m[0].replace(/['’]s$/, ''), certainty: 'strong' }));
  if (masked.includes('#')) take(HASH_TAG, (m) => (/^\d+$/.test(m[1]!) ? null : { type: 'tag', label: m[1]!.toLowerCase(), certainty: 'strong' }));
  if (masked.includes('/')) take(TIME_ZONE, (m) => ({ type: 'place', label: m[1]!.replace(/_/g, ' '), certainty: 'strong' }), 1);
  if (masked.includes('/')) take(FILE_PATH, (m) => (/^\d+(?:\/\d+)+$/.test(m[0]) || m[0].split('/').filter(Boolean).length < 2 || isUnitOrPair(m[0]) ? null : { type: 'path', label: m[0], certainty: 'strong' }));
  // A domain's shape only guesses a host: "dana.dev: personal site" in another note says what it is (typeVotes.ts).
  // A domain's or a dotted name's dot is followed by a letter (a full stop is not): asked before trying the pattern at every word.
  const dottedWord = /\.[a-z]/i.test(masked);
  if (dottedWord) take(DOMAIN, (m) => ({ type: 'machine', label: m[0].toLowerCase(), certainty: 'strong', byNameList: true }));
  if (/\d/.test(masked)) take(HOST, (m) => (/^v?\d/.test(m[0]) || !/[a-z]{2}/.test(m[0]) ? null : { type: CLOUD_REGION.test(m[0]) ? 'place' : 'machine', label: m[0], certainty: 'strong' }));
  if (masked.includes('_') || (dottedWord && /\.[a-z]/.test(masked)) || /[a-z][A-Z]/.test(masked)) take(IDENTIFIER, (m) => ({ type: toolOrIdentifier(m[0], masked, m.index ?? 0), label: m[0], certainty: 'strong' }));
  found.push(...findNames(masked, MAX_MENTIONS_PER_ENTRY - found.length));
  found.sort((a, b) => a.start - b.start);
  typeListMembers(body, found);
  return found;
}

/** `pg_upgrade` (known), "installed pg_partman", "pg_partman 5.1": software; other code identifiers stay identifiers. */
function toolOrIdentifier(name: string, text: string, at: number): EntityType {
  if (knownNameType(name) === 'tool') return 'tool';
  const cue = typeFromContext(text.slice(Math.max(0, at - CONTEXT_CHARS), at), after(text, at + name.length), { label: name });
  return cue === 'tool' ? 'tool' : 'identifier';
}

/** Separators of a plain list of names: "Forgejo, Miniflux and Immich", "Lisbon vs Azores", "MAAT, then LX Factory", "JKIA → Doha → Lisbon" (not "/": "Adaeze / Kobo Rails"). */
const LIST_GAP = /^(?:[ \t]*(?:[,&+]|→|->)[ \t]*|,?[ \t]+(?:and|or|then|vs\.?|versus)[ \t]+|,[ \t]*(?:and|or|then)[ \t]+)$/;
/** Types a list passes on to its unnamed members. */
const LIST_TYPES: ReadonlySet<EntityType> = new Set(['person', 'place', 'tool', 'machine']);

/**
 * A name listed with names of one type is of that type too: an untyped member of a list takes
 * the type its typed members agree on ("Walked to MAAT, then LX Factory" with MAAT a place).
 */
function typeListMembers(body: string, found: PositionedMention[]): void {
  let run: PositionedMention[] = [];
  // Two names and a comma may be two clauses ("at Kahawa Corner, Grant paying"): a list of two needs a conjunction.
  let joined = false;
  const settle = () => {
    if (run.length < 3 && !joined) run = [];
    joined = false;
    const types = new Set(run.filter((m) => m.certainty === 'strong' && LIST_TYPES.has(m.type)).map((m) => m.type));
    const [only] = types;
    if (types.size === 1) {
      for (const m of run) if (m.type === 'concept' && m.certainty !== 'strong' && /^\p{Lu}/u.test(m.label)) Object.assign(m, { type: only, certainty: 'strong' });
    }
    run = [];
  };
  for (const m of found) {
    const prev = run[run.length - 1];
    const gap = prev ? body.slice(prev.end, m.start) : '';
    if (prev && !(m.start > prev.end && LIST_GAP.test(gap))) settle();
    else if (prev && !/^[ \t]*,[ \t]*$/.test(gap)) joined = true;
    if (m.start >= 0) run.push(m);
  }
  settle();
}

function trimUrl(url: string): string {
  return url.replace(/[.,;:!?'"]+$/, '');
}

function codeMention(code: string): Omit<PositionedMention, 'start' | 'end'> | null {
  // A command line, a call or an expression (`Add(24*time.Hour)`, `--keep-daily 7`) is code, not a name.
  if (/[\s()*=+<>;{}[\],"'!?&|$%]/.test(code.trim()) || /^[-.]/.test(code) || /^\d/.test(code)) return null;
  if (code.includes('/')) return { type: 'path', label: code, certainty: 'strong' };
  // `restic`, `pnpm`: widely known software in backticks is that tool.
  if (knownNameType(code) === 'tool') return { type: 'tool', label: code, certainty: 'strong' };
  // Code is not a name: a token in backticks counts only when the notes also name it in prose.
  return { type: 'identifier', label: code, certainty: 'tentative' };
}

/**
 * Capitalised words and multi-word spans. A span starting a sentence keeps its first word only
 * when it is a name word; a lone sentence-initial word is tentative (kept when named elsewhere).
 * Calendar, unit and section words split spans and are never names; a word right after a
 * number is a unit ("40 GB").
 */
function findNames(text: string, budget: number): PositionedMention[] {
  const names: PositionedMention[] = [];
  for (const m of matchesOf(CAPITALISED_SPAN, text)) {
    if (names.length >= budget) break;
    const spanStart = m.index ?? 0;
    let start = spanStart;
    let words = m[0].split(/[ \t]+/);
    const before = text.slice(Math.max(0, start - CONTEXT_CHARS), start).trimEnd();
    // "**go**. Posted in …": emphasis and quotes after the full stop still end the sentence.
    const initial = before === '' || endsSentence(before) || endsWithBulletMark(before);
    if (endsWithDigit(before) && isFurnitureWord(words[0]!.replace(/['’]s$/, ''))) continue;
    if (initial && words.length === 1) {
      const word = words[0]!;
      if (!isNameWord(word)) continue;
      // "Priya said …" is a person even at the start of a sentence; "Hugo version pinned" a tool.
      const label = word.replace(/['’]s$/, '');
      const type = PERSON_AFTER.test(after(text, start + word.length))
        ? 'person'
        : (knownNameType(label) ?? typeFromShape(label) ?? typeFromContext(text.slice(Math.max(0, start - CONTEXT_CHARS), start), after(text, start + label.length), { sentenceStart: true, label }));
      names.push({ type: type ?? 'concept', label, certainty: type ? 'strong' : 'tentative', start, end: start + label.length });
      continue;
    }
    if (initial && looksLikeSentenceVerb(words[0]!) && !SUBJECT_AFTER.test(after(text, start + m[0].length)) && !PERSON_AFTER.test(after(text, start + m[0].length))) {
      // "Moved Kestrel from …", "Asked Priya …": the first word is capitalised only for starting the sentence.
      start += words[0]!.length + m[0].slice(words[0]!.length).search(/\S/);
      words = words.slice(1);
    }
    // Split at stopwords, calendar and section words: "Sam and Dana" names two people.
    let run: string[] = [];
    let runStart = start;
    let offset = start;
    const flush = () => {
      if (run.length > 0 && names.length < budget) {
        const mention = nameMention(run.join(' '), runStart, text);
        // A one-word name that starts a sentence needs an independent mention elsewhere.
        if (initial && runStart === spanStart && run.length === 1 && mention.certainty !== 'strong') mention.certainty = 'tentative';
        names.push(mention);
      }
      run = [];
    };
    words.forEach((word, i) => {
      const at = text.indexOf(word, offset);
      offset = at + word.length;
      const next = words[i + 1];
      // "May Chen", "Will Turner": a given name that is also a common word, when a surname follows.
      const givenName = run.length === 0 && next !== undefined && AMBIGUOUS_GIVEN_NAMES.has(word.toLowerCase()) && isNameWord(next);
      // "Msingi Code School", "Lavington Home Clinic": a section noun between two name words is part of the name.
      // "Casa do Largo": a lowercase particle between two name words is part of the name.
      const inner = run.length > 0 && next !== undefined && (isGenericNoun(word) || NAME_PARTICLE.test(word)) && isNameWord(next) && !/['’]s$/.test(word);
      // "Cloud SQL", "Cloud DNS": a section word ending a widely known name is part of it ("Pigeonhole API" is Pigeonhole).
      const bare = word.replace(/['’]s$/, '');
      const knownEnd = run.length > 0 && isGenericNoun(bare) && knownNameType(`${run.join(' ')} ${bare}`) !== null;
      if (!givenName && !inner && !knownEnd && !isNameWord(word)) {
        flush();
        return;
      }
      if (run.length === 0) runStart = at;
      run.push(word);
      // A possessive ends a name: "Dana's Kestrel" is two things.
      if (/['’]s$/.test(word)) flush();
    });
    flush();
  }
  return names;
}

/** `[.!?:;][*_)"'’”]*$`, read from the end (the pattern tries every position, for every name). */
function endsSentence(before: string): boolean {
  let i = before.length - 1;
  while (i >= 0 && SENTENCE_CLOSERS.has(before[i]!)) i--;
  return i >= 0 && SENTENCE_ENDS.has(before[i]!);
}
const SENTENCE_CLOSERS = new Set('*_)"\'’”');
const SENTENCE_ENDS = new Set('.!?:;');

/** `(?:^|\s)[-*>]$`: a bullet's or a quote's mark right before the name. */
function endsWithBulletMark(before: string): boolean {
  const last = before[before.length - 1];
  return (last === '-' || last === '*' || last === '>') && (before.length === 1 || /\s/.test(before[before.length - 2]!));
}

function endsWithDigit(text: string): boolean {
  const code = text.charCodeAt(text.length - 1);
  return code >= 48 && code <= 57;
}

const SENTENCE_VERBS = new Set(
  'ask check call add fix move ping send review update set try need ran met got went saw told spent finished started booked read wrote took gave made found put left pushed merged shipped paired asked moved replaced switched checked reviewed fixed'.split(' '),
);

/** A capitalised first word that is a verb ("Moved", "Pairing", "Ask"), not the start of a name. */
function looksLikeSentenceVerb(word: string): boolean {
  const lower = word.toLowerCase();
  return SENTENCE_VERBS.has(lower) || (lower.length > 4 && /(?:ed|ing|ly)$/.test(lower));
}

/** Cues are read this close to a name: a long entry never costs more per name. */
const CONTEXT_CHARS = 60;

function after(text: string, at: number): string {
  return text.slice(at, at + CONTEXT_CHARS);
}

function isNameWord(word: string): boolean {
  return nameWord(word);
}
const nameWord = rememberedByWord((word) => {
  const lower = word.toLowerCase().replace(/['’]s$/, '');
  return lower.length >= 2 && !STOPWORDS.has(lower.replace(/['’]/g, '')) && !isFurnitureWord(lower) && /\p{L}/u.test(word);
});

function nameMention(label: string, start: number, text: string): PositionedMention {
  const clean = label.replace(/['’]s$/, '');
  const end = start + clean.length;
  let type: EntityType = 'concept';
  let certainty: EntityMention['certainty'] = 'weak';
  const before = text.slice(Math.max(0, start - CONTEXT_CHARS), start);
  const tail = tailWordOf(before);
  const shape = typeFromShape(clean);
  let byNameList = false;
  // "in Alfama confirmed": a name after a preposition is not the subject of the verb that follows.
  if (shape) [type, certainty] = [shape, 'strong'];
  else if ((PERSON_AFTER.test(after(text, start + label.length)) && !(OBJECT_OF_PREPOSITION_LAST.has(tail) && OBJECT_OF_PREPOSITION.test(before)) && !isKnownThing(clean)) || (PERSON_BEFORE_LAST.has(tail) && PERSON_BEFORE.test(before))) [type, certainty] = ['person', 'strong'];
  else {
    const known = knownNameType(clean);
    // The words around a name are read only when the list does not settle it (a first name may be a town).
    const context = known === null || known === 'person' ? typeFromContext(before, after(text, end), { label: clean }) : null;
    // "moving to Charlotte": where the words put a name outweighs its being a first name too.
    let cue = known === 'person' && context === 'place' && !/\bvisit/i.test(before) ? context : (known ?? context);
    // "moved from Daniel's rota to Hope's — …": a possessive with nothing after it is someone's, not where one goes.
    if (cue === 'place' && known !== 'place' && clean !== label && !/^[ \t]*\p{L}/u.test(after(text, start + label.length))) cue = null;
    if (cue) [type, certainty] = [cue, 'strong'];
    byNameList = cue === 'person' && known === 'person' && context !== 'person';
  }
  const hint = type === 'concept' ? typeHint(clean, before, tail) : null;
  const hinted = hint ? { hint } : {};
  return { type, label: clean, certainty, start, end, ...hinted, ...(byNameList ? { byNameList } : {}) };
}

/** "02:00 Lisbon, he laughed": a known place, tool or company is never a person by the words after it. */
function isKnownThing(label: string): boolean {
  const known = knownNameType(label);
  return known !== null && known !== 'person';
}

const OBJECT_OF_PREPOSITION = /\b(?:in|at|to|from|on|near|of|into|onto|around|for|via|over|through)\s+(?:the\s+)?$/i;
const OBJECT_OF_PREPOSITION_LAST = cueWords('in at to from on near of into onto around for via over through the');

/** "with Kiri": a person more often than not; "in Alcântara", "went to Alcântara": a place. */
const PERSON_HINT_BEFORE = /\b(?:with|me and|texted|told|tell|asked|ask|thanked|thank|hugged|invited)\s+$/i;
const PERSON_HINT_LAST = cueWords('with and texted told tell asked ask thanked thank hugged invited');
const PLACE_HINT_BEFORE = /\b(?:in|near|around|went to|go to|going to|got to|headed to|back to|drove to|walked to|bike to|cycled to|biked to)\s+(?:the\s+)?$/i;
const PLACE_HINT_LAST = cueWords('in near around to the');

/** `tail`: the last word of `before` (cueTail.ts). */
function typeHint(label: string, before: string, tail: string): EntityType | null {
  // Only a name shaped like a person's ("Ottilie", "Ottilie Brandt"), not "with AddDate".
  if (PERSON_HINT_LAST.has(tail) && PERSON_HINT_BEFORE.test(before)) return /^\p{Lu}\p{Ll}+(?: \p{Lu}\p{Ll}+)?$/u.test(label) ? 'person' : null;
  if (PLACE_HINT_LAST.has(tail) && PLACE_HINT_BEFORE.test(before)) return 'place';
  return null;
}
