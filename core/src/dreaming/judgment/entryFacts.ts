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
const SOURCE = /\bSource:\s*\S+/g;
/** A token that is a value rather than a word: it has a digit, or inner dots, slashes, underscores or colons. */
const VALUE = /^(?=.*[\p{L}\p{N}])(?:.*\d.*|[\p{L}\p{N}-]+(?:[._/:][\p{L}\p{N}-]+)+|[\p{L}\p{N}]+_[\p{L}\p{N}_]+)$/u;
/**
 * Words that say the fact changed: the newer claim replaces the older. Verbs in every tense a note
 * is written in ("moves to weekly", "moved", "is moving"); "changes" alone is left out, as a noun
 * ("BOM changes go through an ECO") it announces nothing, and "stop" only opens a sentence ("Stop fixing
 * the seed"), never "the lead can stop it".
 */
const CHANGE_CUE = /\b(?:now|mov(?:ed|es|ing)|switch(?:ed|es|ing)|chang(?:ed|ing)|actually|no longer|instead|from now on|from today|going forward|as of today|anymore|replac(?:ed|es|ing)|renamed|migrat(?:ed|es|ing)|new home)\b|(?:^|[.!?:;]\s+)stop\b/i;
/** The change words as subject stems ("actually" → "actual"): the lead is what changed, never the word announcing it. */
const CHANGE_STEMS = new Set(
  ['now', 'moved', 'moves', 'moving', 'switched', 'switches', 'switching', 'changed', 'changing', 'actually', 'longer', 'instead', 'stop', 'anymore', 'replaced', 'replaces', 'replacing', 'renamed', 'migrated', 'migrates', 'migrating', 'today', 'going', 'forward'].map(stemOf),
);
/** A capitalised word; not the currency of an amount ("CA" in "CA$179"). */
const NAME = /(?<![.!?:]\s)(?<!^)\b\p{Lu}[\p{L}\p{N}]+\b(?![$€£¥])/gu;
/** Weekdays and months are dates, not names. */
const NOT_NAMES = /^(?:mon|tue|wed|thu|fri|sat|sun|jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)/i;

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
  const words = spelledOut(text.split(/\s+/).filter((t) => !values.includes(cleanToken(t))).join(' '));
  // subjectWords trims "lines" to "lin" but keeps "line": the stem without a final e is one word for both.
  return subjectWords(words).map((w) => (/^[a-z]+$/.test(w) ? stemOf(w) : w));
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

function valuesOf(text: string): string[] {
  const values = new Set<string>();
  for (const token of text.replace(THOUSANDS, '').split(/[\s,;()[\]{}"'“”‘’`=→<>|]+/)) {
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
    values.add(measured ? measured[1]! : thousands ? String(Math.round(Number(thousands[1]) * 1000)) : trimmed);
  }
  return [...values];
}

function namesOf(text: string): Set<string> {
  const names = new Set<string>();
  for (const match of text.matchAll(NAME)) if (!NOT_NAMES.test(match[0])) names.add(match[0].toLowerCase());
  return names;
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
