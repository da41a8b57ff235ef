import { rememberedByWord } from './wordMemo.js';

/**
 * Words that structure notes rather than name things: calendar words, time zones, quarters,
 * units, section nouns and technical acronyms. None of them is ever an entity on its own.
 */

const words = (s: string): ReadonlySet<string> => new Set(s.split(/\s+/).filter(Boolean));

/** Month and weekday names, their abbreviations and plurals, and relative days. */
export const CALENDAR_WORDS = words(`
  january february march april may june july august september october november december
  jan feb mar apr jun jul aug sep sept oct nov dec
  monday tuesday wednesday thursday friday saturday sunday mondays tuesdays wednesdays thursdays fridays saturdays sundays
  mon tue tues wed thu thur thurs fri sat sun
  today tomorrow yesterday tonight weekend weekday weekdays`);

/** Given names that are also calendar or common words: a name only when a surname follows ("May Chen"). */
export const AMBIGUOUS_GIVEN_NAMES = words('april may june august will mark bill pat');

/** Time zones, quarters, halves, clock and unit words. */
const MEASURE_WORDS = words(`
  utc gmt cet cest eet eest wet west bst ist jst kst aest aedt pst pdt est edt cst cdt mst mdt
  q1 q2 q3 q4 h1 h2 am pm
  ms kb mb gb tb pb kib mib gib tib hz khz mhz ghz rpm rps qps eur usd gbp chf jpy`);

/** Section nouns of a working day, generic technical acronyms, roles and build-file names: headings and furniture, not things. */
const GENERIC_NOUNS = words(`
  notes note standup standups work people projects project meeting meetings migration migrations evening morning afternoon
  lunch dinner breakfast call calls todo todos done follow-ups followups follow-up decisions decision ideas idea log journal
  summary agenda retro review reviews update updates status plan plans planning backlog misc other personal infrastructure
  infra code stack release releases deploy deploys deployment incident incidents reminder reminders questions question tasks
  task links reading travel health budget home admin inbox weekly daily monthly context background next later
  pairing time times date dates week month year day days night
  api apis tls ssl ssh dns http https url urls cli sdk ui ux os db dbs ci cd pr prs vm vms cpu gpu ram ssd hdd json yaml toml
  csv html css sql id ids tz dst wip eta tbd fyi asap ok nb ps
  nas san nuc ups psu kvm vpn lan wan cdn nfs smb
  agent agents bot bots em pm sre cto ceo vp qa hr
  makefile dockerfile containerfile readme license changelog gemfile procfile jenkinsfile vagrantfile rakefile justfile brewfile`);

/** Kinship words: "Mum said …" is the writer's mother, a relation to them and not a name (a named aunt is "Auntie Wambui"). */
const KINSHIP_WORDS = words(`mum mom mummy mommy dad daddy grandma granny grandpa`);

/** A section or technical noun (not a calendar or unit word): inside a name it is part of the name ("Msingi Code School"). */
export function isGenericNoun(word: string): boolean {
  return GENERIC_NOUNS.has(word.toLowerCase().replace(/['’]/g, ''));
}

/** Whether a single word (any case) can never be an entity by itself. */
export function isFurnitureWord(word: string): boolean {
  return furnitureWord(word);
}
const furnitureWord = rememberedByWord((word) => {
  const w = word.toLowerCase().replace(/['’]/g, '');
  return CALENDAR_WORDS.has(w) || MEASURE_WORDS.has(w) || GENERIC_NOUNS.has(w) || KINSHIP_WORDS.has(w) || /^\d/.test(w);
});

const UNIT_PATH = /^[\p{L}\d]+\/(?:s|sec|second|seconds|min|minute|minutes|h|hr|hour|hours|d|day|days|week|weeks|month|months|year|years|req|request|requests)$/iu;

/** "requests/minute", "100/day", "Thu/Fri": a rate or a pair of words, not a path. */
export function isUnitOrPair(path: string): boolean {
  if (UNIT_PATH.test(path) || /^\d/.test(path)) return true;
  const parts = path.split('/');
  return parts.length === 2 && parts.every((p) => isFurnitureWord(p));
}

/** "Saturday sessions", "Monday standup", "weekend plans": a phrase opening with a calendar word names an occasion, not a thing. */
export function startsWithCalendarWord(label: string): boolean {
  const first = label.trim().split(/[\s,]+/, 1)[0] ?? '';
  return CALENDAR_WORDS.has(first.toLowerCase().replace(/['’]s$/, ''));
}

/** A label that only says when or how much ("Mon 26 Oct", "Q1", "09:30", "2026-11-18", "40 GB"). */
export function isFurnitureLabel(label: string): boolean {
  const parts = label.trim().split(/[\s,]+/).filter(Boolean);
  if (parts.length === 0) return true;
  return parts.every((p) => isFurnitureWord(p) || /^[\d:./-]+(?:st|nd|rd|th)?$/i.test(p));
}
