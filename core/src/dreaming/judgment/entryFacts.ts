import { stemmer } from 'stemmer';
import { HashEmbeddingProvider } from '../../embed/hashProvider.js';
import { normalizeEntryText } from '../../workspace/markdownEntries.js';
import { subjectWords } from '../lineage.js';

/**
 * What an entry says, for comparing it with others without a model: its subject words, the
 * values it states (hosts, ports, repos, file names, times, versions), the names it mentions,
 * whether it announces a change ("now", "moved", "actually"), and its hash embedding.
 */
export interface EntryFacts {
  text: string;
  subjects: Set<string>;
  /** The identifier the entry opens with (`lumen_features_daily now runs at 02:30`): the thing it is about. */
  opensWith: string | null;
  /** Values in lower case: `kes-stg-01.ferrow.internal`, `8443`, `deploy.yml`, `02:30`. */
  values: string[];
  /** Capitalised names (people, products, projects) in lower case. */
  names: Set<string>;
  /** Capitalised words where every word is (a sentence's first, "Jaylen's mom again…"). */
  openingCapitals: string[];
  /** Those of them another entry names mid-sentence (recogniseNames): they tie two entries, never set them apart. */
  recognisedNames: Set<string>;
  /** Values the entry denies or replaces ("0.4, not 0.35", "down from 38.50"). */
  negated: string[];
  announcesChange: boolean;
  /** The first subject word of the entry: what a change it announces is about ("Deploys now go…"). */
  lead: string | null;
  /** The first subject word of each sentence announcing a change ("… Wendy moved over to …"): what changed, in whichever sentence. */
  changed: Set<string>;
  /** "Prefer polars over pandas": the thing preferred and the thing it replaces. */
  preferred: string | null;
  over: string | null;
  vector: Float32Array;
}

const embedder = new HashEmbeddingProvider();
const COMMENTS = /<!--[\s\S]*?-->/g;
/** The whole source list, a reinforced entry's too ("Source: a.md#L5-L5, b.md#L4-L4"): where it came from is not what it says. */
const SOURCE = /\bSource:\s*\S+(?:,\s*\S+#L\d+(?:-L\d+)?)*/g;
/** A token that is a value rather than a word: it has a digit, or inner dots, slashes, underscores or colons. */
const VALUE = /^(?=.*[\p{L}\p{N}])(?:.*\d.*|[\p{L}\p{N}-]+(?:[._/:][\p{L}\p{N}-]+)+|[\p{L}\p{N}]+_[\p{L}\p{N}_]+)$/u;
/**
 * Words that say the fact changed: the newer claim replaces the older. Verbs in every tense a note
 * is written in ("moves to weekly", "moved", "is moving"); "changes" alone is left out, as a noun
 * ("BOM changes go through an ECO") it announces nothing, and "stop" only opens a sentence ("Stop fixing
 * the seed"), never "the lead can stop it".
 */
const CHANGE_CUE =
  /\b(?:now|mov(?:ed|es|ing)|switch(?:ed|es|ing)|chang(?:ed|ing)|actually|no longer|instead|from now on|from today|going forward|as of today|anymore|replac(?:ed|es|ing)|renamed|migrat(?:ed|es|ing)|new home|starting (?:today|tomorrow|next|this|from|on|(?:mon|tues|wednes|thurs|fri|satur|sun)day|\d)|effective (?:immediately|today|from|on|as of)|as of (?:today|tomorrow|this|next|(?:mon|tues|wednes|thurs|fri|satur|sun)day|\d)|no more(?! than)|(?:is|are) the new|t(?:ook|akes|aking) over|revert(?:ed|s|ing)?|reversed|ditch(?:ed|ing)|dropped|correction)\b|(?:^|[.!?:;]\s+)stop\b/i;
/** The change words as subject stems ("actually" → "actual"): the lead is what changed, never the word announcing it. */
const CHANGE_STEMS = new Set(
  ['now', 'moved', 'moves', 'moving', 'switched', 'switches', 'switching', 'changed', 'changing', 'actually', 'longer', 'instead', 'stop', 'anymore', 'replaced', 'replaces', 'replacing', 'renamed', 'migrated', 'migrates', 'migrating', 'today', 'going', 'forward', 'starting', 'effective', 'immediately', 'took', 'takes', 'taking', 'reverted', 'reverts', 'reversed', 'ditched', 'dropped', 'correction'].map(stemOf),
);
/** Words that say what kind of note a line is ("Decision: …", "FYI"), never what it is about: two decisions are not one subject. */
const GENRE_STEMS = new Set(['decision', 'decided', 'fyi', 'reminder', 'nb', 'ps', 'correction'].map(stemOf));
/** A capitalised word; not the currency of an amount ("CA" in "CA$179"). */
const NAME = /(?<![.!?:]\s)(?<!^)\b\p{Lu}[\p{L}\p{N}]+\b(?![$€£¥])/gu;
/** Weekdays and months are dates, not names; "Marta", "Junaid" or "Satya" are names (the whole word is compared, not its start). */
const NOT_NAMES = /^(?:(?:mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun)s?|(?:mon|tues|wednes|thurs|fri|satur|sun)days?|jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec|january|february|march|april|june|july|august|september|october|november|december)$/i;

export function entryFacts(rawText: string): EntryFacts {
  const text = rawText.replace(COMMENTS, ' ').replace(SOURCE, ' ').replace(/\s+/g, ' ').trim();
  const values = valuesOf(text);
  const subjects = subjectsOf(text, values);
  const prefer = PREFER_OVER.exec(text) ?? PREFER_ONE.exec(text);
  return {
    text,
    subjects: new Set(subjects),
    opensWith: openingIdentifier(text, values),
    values,
    negated: [...text.matchAll(NEGATED)].map((m) => cleanToken(m[1]!)),
    names: namesOf(text),
    openingCapitals: openingCapitalsOf(text),
    recognisedNames: new Set(),
    announcesChange: CHANGE_CUE.test(text),
    lead: subjects.find((w) => !CHANGE_STEMS.has(w)) ?? null,
    changed: changedSubjects(text, values),
    preferred: prefer?.[1]?.toLowerCase() ?? null,
    over: prefer?.[2]?.toLowerCase() ?? null,
    vector: embedder.embedSync(text),
  };
}

function subjectsOf(text: string, values: readonly string[]): string[] {
  // Subject words come from the words around the values: a host's labels are not its subject.
  const words = spelledOut(withoutMeasures(text).split(/\s+/).filter((t) => !values.includes(cleanToken(t))).join(' '));
  // subjectWords trims "lines" to "lin" but keeps "line": the stem without a final e is one word for both.
  return subjectWords(words)
    .map((w) => (/^[a-z]+$/.test(w) ? stemOf(w) : w))
    .filter((w) => !GENRE_STEMS.has(w));
}

function stemOf(word: string): string {
  return stemmer(word).replace(/(?<=..)e$/, '');
}

/**
 * The first subject word of each sentence that announces a change: "From today Kevin is our
 * account PM. Wendy moved over to…" changes Kevin's role and Wendy's; a sentence is about what it
 * opens with, not about every name it mentions ("Hahn changed: … PDF/X-4" is not about an export preset naming Hahn).
 */
function changedSubjects(text: string, values: readonly string[]): Set<string> {
  const changed = new Set<string>();
  for (const sentence of text.split(/(?<=[.!?])\s+(?=\p{Lu})/u)) {
    if (!CHANGE_CUE.test(sentence)) continue;
    const lead = subjectsOf(sentence, values).find((w) => !CHANGE_STEMS.has(w));
    if (lead) changed.add(lead);
  }
  return changed;
}

/** "kes-stg-02 is the new staging host": the identifier fills a role, and the role is what the entry is about. */
const FILLS_A_ROLE = /^\S+\s+(?:is|are|was|becomes|became)\s+(?:now\s+)?(?:the|our|a|an)\b/i;

/** The entry's first token when it is an identifier with letters (a job, a table, a host), not a word, and not a role's value. */
function openingIdentifier(text: string, values: readonly string[]): string | null {
  const body = text.replace(/^\s*(?:[-*+]\s+)?(?:\[[ xX]\]\s+)?/, '');
  const first = cleanToken(body.split(/\s+/)[0] ?? '');
  return values.includes(first) && /\p{L}/u.test(first) && !FILLS_A_ROLE.test(body) ? first : null;
}

/** "under five lines" and "under ten lines" state different values. */
export const NUMBER_WORDS = new Set(['two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve', 'fifteen', 'twenty', 'thirty', 'fifty', 'hundred', 'thousand']);
const NUMBER_WITH_UNIT = /^(\d+(?:[.,]\d+)?)-\p{L}+$/u;
/** A value the entry says no longer holds: "0.4, not 0.35", "US$36.00 (down from 38.50)", "instead of 8080". */
const NEGATED = /\b(?:not|instead of|(?:down|up|moved|switched|changed) from)\s+([^\s,;()]+)/gi;
const PREFER_OVER = /\bprefer\s+([\p{L}\p{N}._-]+)\s+(?:over|to|instead of)\s+([\p{L}\p{N}._-]+)/iu;
const PREFER_ONE = /\bprefer\s+([\p{L}\p{N}._-]+)/iu;

/** Short forms people write for the same thing ("PRs", "pull requests"), spelled out so both name one subject. */
const SHORT_FORMS: ReadonlyArray<readonly [RegExp, string]> = [
  [/\bPRs?\b/g, 'pull requests'],
  [/\bMRs?\b/g, 'merge requests'],
  [/\bk8s\b/gi, 'kubernetes'],
  [/\brepos?\b/gi, 'repository'],
  [/\bDBs?\b|\bdbs?\b/g, 'database'],
  [/\benvs?\b/gi, 'environment'],
  [/\bconfigs?\b/gi, 'configuration'],
  [/\bdocs\b/gi, 'documentation'],
  [/\bdeps\b/gi, 'dependencies'],
  [/\bprod\b/gi, 'production'],
];

function spelledOut(text: string): string {
  return SHORT_FORMS.reduce((t, [short, long]) => t.replace(short, long), text);
}

/** A token without the punctuation around it; a currency sign stays, so "€89" is an amount of money, not the number 89. */
function cleanToken(token: string): string {
  return token.replace(/^[^\p{L}\p{N}$€£¥]+|[^\p{L}\p{N}$€£¥]+$/gu, '').replace(/^[$€£¥]+$/, '').toLowerCase();
}

/** "1,200 units" and "1200 units" state one number: the thousands separator is dropped before tokens are split on commas. */
const THOUSANDS = /(?<=\d),(?=\d{3}(?!\d))/g;
/** "9.5k EUR" and "9,500 EUR" state one amount. */
const THOUSANDS_SUFFIX = /^(\d+(?:\.\d+)?)k$/;

/**
 * A length of time ("3 wks", "10 school days", "24h", "30-day"), read as minutes below a day and
 * days above, so "2 weeks" and "14 days" state one value and "3 wks" and "10 school days" two.
 * Never after a digit, a colon or a dot ("3:30 min" is a time).
 */
const DURATION = /(?<![\d:.,])(\d+(?:\.\d+)?|\b(?:two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty))(?:\s*-\s*|\s+)?(?:(?:school|business|working|work|calendar|teaching)[\s-]+)?(min(?:ute)?s?|h(?:ou)?rs?|hours?|h|days?|d|wks?|weeks?|months?|mos?|yrs?|years?)(?![\p{L}\p{N}])/giu;
const MINUTES_PER: Record<string, number> = { min: 1, h: 60 };
/** "three days" is 3 days. */
const SPELLED_NUMBERS: Record<string, number> = { two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10, eleven: 11, twelve: 12, fifteen: 15, twenty: 20, thirty: 30 };
const DAYS_PER: Record<string, number> = { d: 1, w: 7, mo: 30, y: 365 };

function durationValue(amount: string, unit: string): string | null {
  const u = unit.toLowerCase();
  const n = Number(amount) || SPELLED_NUMBERS[amount.toLowerCase()] || NaN;
  if (!Number.isFinite(n)) return null;
  // A one-letter unit only right after its number ("24h", "30d"), so "3 d" or "2 h" in prose is not read.
  const key = u.startsWith('min') ? 'min' : u.startsWith('h') ? 'h' : u.startsWith('d') ? 'd' : u.startsWith('w') ? 'w' : u.startsWith('mo') ? 'mo' : 'y';
  if (key in MINUTES_PER) return `${round(n * MINUTES_PER[key]!)}min`;
  return `${round(n * DAYS_PER[key]!)}d`;
}

function round(n: number): number {
  return Math.round(n * 100) / 100;
}

/**
 * How often something happens ("weekly", "every 2 weeks", "once a month"), as `every-<days>d`:
 * "flushed weekly" and "flushes are monthly" are two values of one kind, so they can dispute.
 */
const FREQUENCY_WORDS: Record<string, string> = {
  hourly: 'every-60min',
  daily: 'every-1d',
  nightly: 'every-1d',
  weekly: 'every-7d',
  biweekly: 'every-14d',
  fortnightly: 'every-14d',
  monthly: 'every-30d',
  quarterly: 'every-91d',
  yearly: 'every-365d',
  annually: 'every-365d',
};
const FREQUENCY_WORD = new RegExp(`\\b(?:${Object.keys(FREQUENCY_WORDS).join('|')})\\b`, 'gi');
const EVERY_UNIT = /\b(?:every|each|once an?|once per|per)\s+(?:(\d+|other|second|2nd|third|3rd|fourth|4th)\s+)?(hour|day|night|week|month|quarter|year|(?:mon|tues|wednes|thurs|fri|satur|sun)day)s?\b/gi;
const UNIT_FREQUENCY: Record<string, string> = { hour: '60min', day: '1d', night: '1d', week: '7d', month: '30d', quarter: '91d', year: '365d' };
/** "every second Tuesday" is every 14 days. */
const EVERY_NTH: Record<string, number> = { other: 2, second: 2, '2nd': 2, third: 3, '3rd': 3, fourth: 4, '4th': 4 };

function frequenciesOf(text: string): string[] {
  const found: string[] = [];
  for (const m of text.matchAll(FREQUENCY_WORD)) found.push(FREQUENCY_WORDS[m[0].toLowerCase()]!);
  for (const m of text.matchAll(EVERY_UNIT)) {
    const unit = m[2]!.toLowerCase();
    // A weekday recurs weekly ("every Tuesday").
    const base = UNIT_FREQUENCY[unit] ?? UNIT_FREQUENCY.week!;
    const times = m[1] === undefined ? 1 : (EVERY_NTH[m[1].toLowerCase()] ?? Number(m[1]));
    const amount = Number(base.replace(/\D+$/, '')) * times;
    found.push(`every-${amount}${base.replace(/^[\d.]+/, '')}`);
  }
  return found;
}

/** A duration, a frequency or a weekday: a measure, never an identifier (two entries both "weekly" or both "on Friday" are not about one thing). */
export function isMeasure(value: string): boolean {
  return /^(?:every-)?\d+(?:\.\d+)?(?:min|d)$/.test(value) || isWeekday(value);
}

export function isWeekday(value: string): boolean {
  return /^(?:mon|tue|wed|thu|fri|sat|sun)$/.test(value);
}

/** "3:30–5:30" states two times: each is a value, so "3:30 a 5:30" restates it. */
const TIME_RANGE = /(\d{1,2}:\d{2})\s*[–—-]\s*(\d{1,2}:\d{2})/g;

/**
 * A day of the week, as the value `tue`: "bins go out on Tuesday" and "on Wednesday" state two days.
 * Full names in any case; the short forms only capitalised ("Sat", "Wed"), so "sat in on" and
 * "wed" are words.
 */
const WEEKDAY_FULL = /\b(mon|tues|wednes|thurs|fri|satur|sun)days?\b/gi;
const WEEKDAY_SHORT = /(?<![\p{L}\p{N}])(Mon|Tue|Tues|Wed|Thu|Thur|Thurs|Fri|Sat|Sun|MON|TUE|WED|THU|FRI|SAT|SUN)s?(?![\p{L}\p{N}])(?!['’])/gu;

function weekdaysOf(text: string): string[] {
  return [...text.matchAll(WEEKDAY_FULL), ...text.matchAll(WEEKDAY_SHORT)].map((m) => m[1]!.slice(0, 3).toLowerCase());
}

/** "5pm", "10 am", "5:30 p.m.": the 24-hour clock time ("17:00"), so "5pm" and "17:00" are one value and "4:30" and "5pm" two times. */
const MERIDIEM_TIME = /(?<![\d:.])(\d{1,2})(?::(\d{2}))?\s*([ap])\.?m\.?(?![\p{L}\p{N}])/giu;

function withClockTimes(text: string): string {
  return text.replace(MERIDIEM_TIME, (whole, hour: string, minutes: string | undefined, half: string) => {
    const h = Number(hour);
    if (h < 1 || h > 12) return whole;
    const h24 = (h % 12) + (half.toLowerCase() === 'p' ? 12 : 0);
    return `${h24}:${minutes ?? '00'}`;
  });
}

/** The text with its durations, frequencies and weekdays taken out: what is left is read token by token. */
function withoutMeasures(text: string): string {
  return text
    .replace(DURATION, (whole, amount: string, unit: string) => (isOneLetterUnitApart(whole, unit) ? whole : ` ${unit} `))
    .replace(FREQUENCY_WORD, ' ')
    .replace(WEEKDAY_FULL, ' ')
    .replace(WEEKDAY_SHORT, ' ');
}

function isOneLetterUnitApart(whole: string, unit: string): boolean {
  return unit.length === 1 && /\s/.test(whole);
}

function valuesOf(text: string): string[] {
  const values = new Set<string>();
  for (const m of text.matchAll(DURATION)) {
    if (isOneLetterUnitApart(m[0], m[2]!)) continue;
    const value = durationValue(m[1]!, m[2]!);
    if (value) values.add(value);
  }
  for (const f of frequenciesOf(text)) values.add(f);
  for (const d of weekdaysOf(text)) values.add(d);
  for (const token of withClockTimes(withoutMeasures(text)).replace(TIME_RANGE, '$1 $2').replace(THOUSANDS, '').split(/[\s,;()[\]{}"'“”‘’`=→<>|]+/)) {
    const trimmed = cleanToken(token);
    // Single digits are counts ("3 seeds", "one review"), not identifying values.
    if (NUMBER_WORDS.has(trimmed)) {
      values.add(trimmed);
      continue;
    }
    if (trimmed.length < 2 || !VALUE.test(trimmed)) continue;
    // "30-day" and "30 days" state one value: the number (its unit stays a subject word); "9.5k" is 9500.
    const measured = NUMBER_WITH_UNIT.exec(trimmed);
    const thousands = THOUSANDS_SUFFIX.exec(trimmed);
    // "09:30" and "9:30" are one time.
    values.add(measured ? measured[1]! : thousands ? String(Math.round(Number(thousands[1]) * 1000)) : trimmed.replace(/^0(?=\d:\d\d$)/, ''));
  }
  return [...values];
}

function namesOf(text: string): Set<string> {
  const names = new Set<string>();
  for (const match of text.matchAll(NAME)) if (!NOT_NAMES.test(match[0])) names.add(match[0].toLowerCase());
  return names;
}

/** A capitalised word opening the entry or a sentence (after a label's colon too). */
const OPENING_CAPITAL = /(?:^|[.!?:]\s+)(\p{Lu}[\p{L}\p{N}]+)(?=['’]s\b|[^\p{L}\p{N}$€£¥]|$)/gu;

function openingCapitalsOf(text: string): string[] {
  return [...text.matchAll(OPENING_CAPITAL)].map((m) => m[1]!).filter((w) => !NOT_NAMES.test(w)).map((w) => w.toLowerCase());
}

/**
 * A name is only told apart from a sentence's first word where it stands mid-sentence: "Jaylen's
 * mom again: call after 5pm" names Jaylen because another entry says "la mamá de Jaylen". Each
 * entry's opening capitals that some entry among those compared names mid-sentence are recognised
 * as names. Only as evidence that two entries share a name: a name only one side has is a different
 * claim (relation.ts), and a sentence's first word is too weak for that ("Druckerei Hahn changed: …").
 */
export function recogniseNames(entries: readonly EntryFacts[]): void {
  const known = new Set<string>();
  for (const e of entries) for (const n of e.names) known.add(n);
  for (const e of entries) for (const w of e.openingCapitals) if (known.has(w)) e.recognisedNames.add(w);
}

/** The entry's names, with those recognised at the start of its sentences. */
export function allNamesOf(facts: EntryFacts): Set<string> {
  return facts.recognisedNames.size === 0 ? facts.names : new Set([...facts.names, ...facts.recognisedNames]);
}

/** The words of an entry's text, for "is this value stated there". */
export function wordsOf(facts: EntryFacts): Set<string> {
  return new Set(normalizeEntryText(facts.text).split(' '));
}

export function cosine(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  for (let i = 0; i < a.length; i++) dot += a[i]! * b[i]!;
  return dot;
}
