import { normalizeEntryText } from '../../workspace/markdownEntries.js';
import { allNamesOf, cosine, isMeasure, isWeekday, NUMBER_WORDS, wordsOf, type EntryFacts } from './entryFacts.js';

/**
 * How two entries relate, decided without a model:
 * - `duplicate`: the same fact in other words (neither states a value the other contradicts);
 * - `same-attribute`: about the same subject but stating a different value (a moved host, a new
 *   deploy path, a reversed preference): the newer note wins, or the person decides;
 * - `unrelated`.
 */
export type Relation = 'duplicate' | 'same-attribute' | 'unrelated';

export interface RelationDetail {
  relation: Relation;
  /** For `same-attribute`: whether a stated value differs (a host, a port, a number), not only the wording. */
  byValue: boolean;
  /** Why, for the run record: "shares kes-stg-01.ferrow.internal, 8443; cosine 0.71". */
  reason: string;
}

/** How rare each subject word is among the entries compared: a project name every entry shares says little. */
export type Rarity = (word: string) => number;

/** Above this hash-embedding cosine two entries say nearly the same words. */
const NEAR_TEXT = 0.7;
/** Rarity-weighted share of the smaller entry's subject that the other repeats: about the same thing. */
const SAME_SUBJECT = 0.45;
/** With a shared identifying value (a host, a port, a file), less of the subject needs to recur. */
const SAME_SUBJECT_WITH_VALUE = 0.2;
/** Each states how often or how long, and they differ ("flushed weekly", "flushes are monthly"): the measure is the attribute in dispute, so less of the subject needs to recur. */
const SAME_SUBJECT_WITH_MEASURE = 0.3;
/** An announced change ("Deploys now go…") needs its lead word and this much of the subject in the other entry. */
const CHANGE_SUBJECT = 0.15;
/** …and some of its wording: a runbook that mentions deploys is not the deploy path. */
const CHANGE_TEXT = 0.3;

export function relate(a: EntryFacts, b: EntryFacts, rarity: Rarity = () => 1): RelationDetail {
  const sim = cosine(a.vector, b.vector);
  const sharedValues = a.values.filter((v) => b.values.some((w) => isSameValue(v, w)));
  const sharedSubjects = [...a.subjects].filter((w) => b.subjects.has(w));
  const weight = (words: Iterable<string>) => [...words].reduce((sum, w) => sum + rarity(w), 0);
  const subjectShare = weight(sharedSubjects) / Math.max(1e-9, Math.min(weight(a.subjects), weight(b.subjects)));
  // Each names its own identifier (`lumen_features_daily`, `lumen_score_daily`) and they share none: a shared time or number is a coincidence.
  const namedA = a.values.filter(hasLetter);
  const namedB = b.values.filter(hasLetter);
  const distinctIdentifiers = namedA.length > 0 && namedB.length > 0 && !sharedValues.some(hasLetter);
  const strongValue = !distinctIdentifiers && sharedValues.some((v) => v.length >= 3 && !isMeasure(v));
  const why = `shares ${[...sharedValues, ...sharedSubjects.slice(0, 4)].join(', ') || 'wording'}; cosine ${sim.toFixed(2)}`;
  const preference = preferenceChange(a, b);
  if (preference) return { relation: 'same-attribute', byValue: true, reason: `${why}; ${preference}` };
  // "lumen_features_daily now runs at 02:30" is about lumen_features_daily: beside an entry naming only other identifiers, shared words ("runs … UTC") tie nothing.
  const wordsCanTie = !distinctIdentifiers || (a.opensWith === null && b.opensWith === null);
  // A shared weekday or frequency ("Mondays", "weekly") is a value now, but still a word the two share.
  const sharedWords = sharedSubjects.length + sharedValues.filter((v) => isMeasure(v) && !/^\d/.test(v)).length;
  const changeAbout = wordsCanTie && subjectShare >= CHANGE_SUBJECT && sharedWords >= 2 && sim >= CHANGE_TEXT ? (announcedChangeAbout(a, b) ?? announcedChangeAbout(b, a)) : null;
  const priced = pricedName(a, b);
  // "el club de robótica se reúne … de 3:30 a 5:30 en el salón 214" beside "robotics now meets in 214, still Tue/Thu 3:30–5:30": in
  // another language only the values recur, and every value of one is stated by the other.
  const identifying = sharedValues.filter((v) => !isMeasure(v));
  const oneAddsNoValue = a.values.every((v) => isStated(v, b)) || b.values.every((v) => isStated(v, a));
  const valueTwin = strongValue && oneAddsNoValue && (identifying.length >= 3 || (identifying.length >= 2 && sharedSubjects.length + sharedNames(a, b) >= 1));
  const measured = wordsCanTie && sharedSubjects.length >= 2 && subjectShare >= SAME_SUBJECT_WITH_MEASURE && measuresDiffer(a, b);
  // One announces a change and names the other's identifying value ("RRT is 4-2000 now, 4-7777 is dead" beside "pager 4-7777"): the same thing, changed. A bare number ("100") is too common to tie two entries.
  const changedKey = !distinctIdentifiers && a.announcesChange !== b.announcesChange && sharedValues.some((v) => v.length >= 3 && kindOfValue(v) === 'name');
  const sameSubject = changedKey || sim >= NEAR_TEXT || (strongValue && subjectShare >= SAME_SUBJECT_WITH_VALUE) || (wordsCanTie && subjectShare >= SAME_SUBJECT && sharedWords >= 2) || changeAbout !== null || priced !== null || measured || valueTwin;
  if (restatesIdentifiers(a, b, strongValue)) return { relation: 'duplicate', byValue: false, reason: `${why}; the same identifiers and names, in other words` };
  if (!sameSubject) return { relation: 'unrelated', byValue: false, reason: why };
  // Names count as values here: "through ArgoCD" and "through GitHub Actions" are different claims.
  const onlyInA = [...a.values.filter((v) => !isStated(v, b)), ...[...a.names].filter((n) => !isNamed(n, b))];
  const onlyInB = [...b.values.filter((v) => !isStated(v, a)), ...[...b.names].filter((n) => !isNamed(n, a))];
  // "…through the ShiftWise app, not Gwen" beside "…go through Gwen": a denied name is a denied value too.
  const denies = (x: EntryFacts, y: EntryFacts) => x.negated.some((v) => y.values.some((w) => isSameAmount(v, w)) || allNamesOf(y).has(v));
  const denied = denies(a, b) || denies(b, a);
  // Each states a value of one kind the other lacks (two times, two numbers, two names), or one denies the other's: a different claim about the same thing.
  const valuesOnlyInA = a.values.filter((v) => !isStated(v, b));
  const valuesOnlyInB = b.values.filter((v) => !isStated(v, a));
  const byValue = denied || haveOneKind(valuesOnlyInA, valuesOnlyInB);
  // Only names differ, nothing says the fact changed, and little else is shared ("I teach … in room 214" and "robotics now meets in 214"): two facts.
  const namesOnly = !byValue && changeAbout === null && sim < CHANGE_TEXT && sharedSubjects.length < 2;
  // The entry announcing the change names the shared identifier and another of its very shape ("4-2000 now, 4-7777 is dead"): the new value.
  const changer = a.announcesChange ? valuesOnlyInA : valuesOnlyInB;
  const keyShapes = new Set(sharedValues.filter((v) => v.length >= 3 && kindOfValue(v) === 'name').map(shapeOf));
  const replacement = changedKey ? changer.find((v) => keyShapes.has(shapeOf(v))) : undefined;
  if (replacement) return { relation: 'same-attribute', byValue: true, reason: `${why}; ${replacement} announced in its place` };
  if (denied || (haveOneKind(onlyInA, onlyInB) && !namesOnly)) return { relation: 'same-attribute', byValue, reason: `${why}; differs in ${[...onlyInA, ...onlyInB].slice(0, 4).join(', ') || 'a denied value'}` };
  // A time here, a count of days there: two different things said about one subject (its schedule, how to backfill it), and both stand.
  if (onlyInA.length > 0 && onlyInB.length > 0) return { relation: 'unrelated', byValue: false, reason: `${why}; states other things (${onlyInA[0]}, ${onlyInB[0]})` };
  // One says the fact changed and the other does not: the older one is what changed.
  if (a.announcesChange !== b.announcesChange && changeAbout !== null) return { relation: 'same-attribute', byValue, reason: `${why}; ${changeAbout}` };
  // The first entry states something the second does not (a date, a number) and the second states no value: new detail, not a restatement.
  if (valuesOnlyInA.length > 0 && b.values.length === 0) return { relation: 'unrelated', byValue: false, reason: `${why}; adds ${valuesOnlyInA.slice(0, 3).join(', ')}` };
  const close = sim >= NEAR_TEXT || subjectShare >= SAME_SUBJECT || (strongValue && (sharedValues.length >= 2 || subjectShare >= 0.3));
  if (close) return { relation: 'duplicate', byValue: false, reason: why };
  return { relation: 'unrelated', byValue: false, reason: why };
}

/**
 * The same fact in another language or other words ("Chem waste -> blue drums in 214B, Clean Harbors
 * picks up…" and "Chemisch afval -> blauwe vaten in 214B; Clean Harbors haalt…"): their words differ,
 * so only what is not translated can tie them. A shared identifying value and a shared name, every
 * value of one stated by the other, and no value of one kind on each side only (that is a changed fact).
 */
function restatesIdentifiers(a: EntryFacts, b: EntryFacts, strongValue: boolean): boolean {
  // One says the fact changed ("Druckerei Hahn moved to…"): that is a supersession for the rules below, not a restatement.
  const namesOfB = allNamesOf(b);
  if (!strongValue || a.announcesChange !== b.announcesChange || ![...allNamesOf(a)].some((n) => namesOfB.has(n))) return false;
  const onlyInA = a.values.filter((v) => !isStated(v, b));
  const onlyInB = b.values.filter((v) => !isStated(v, a));
  return (onlyInA.length === 0 || onlyInB.length === 0) && !haveOneKind(onlyInA, onlyInB);
}

/** Both state values, every value of one is stated by the other, and none of one kind differs: "80/20" and "20% … 80%". */
export function statesTheSameValues(a: EntryFacts, b: EntryFacts): boolean {
  if (a.values.length === 0 || b.values.length === 0) return false;
  const onlyInA = a.values.filter((v) => !isStated(v, b));
  const onlyInB = b.values.filter((v) => !isStated(v, a));
  return (onlyInA.length === 0 || onlyInB.length === 0) && !haveOneKind(onlyInA, onlyInB);
}

/** "Staging moved: …" about a subject the other entry is about: its first subject word, or the words the change word follows ("Wendy moved over"). */
function announcedChangeAbout(changed: EntryFacts, other: EntryFacts): string | null {
  if (!changed.announcesChange || other.announcesChange) return null;
  if (changed.lead && other.subjects.has(changed.lead)) return `announces a change to "${changed.lead}"`;
  const moved = [...changed.changed].find((w) => other.subjects.has(w));
  return moved ? `announces a change to "${moved}"` : null;
}

/**
 * Two prices for one named thing ("Sill retails at CA$179" and "Sill is on the shelf at CA$199"):
 * both state an amount of money, they share none, and a name one of them capitalises is a word of
 * the other. Whatever else they say, they dispute what the thing costs.
 */
function pricedName(a: EntryFacts, b: EntryFacts): string | null {
  const moneyA = a.values.filter((v) => kindOfValue(v) === 'money');
  const moneyB = b.values.filter((v) => kindOfValue(v) === 'money');
  if (moneyA.length === 0 || moneyB.length === 0 || moneyA.some((v) => moneyB.includes(v))) return null;
  const name = [...a.names].find((n) => wordsOf(b).has(n)) ?? [...b.names].find((n) => wordsOf(a).has(n));
  return name ? `two prices for ${name}` : null;
}

function sharedNames(a: EntryFacts, b: EntryFacts): number {
  const namesOfB = allNamesOf(b);
  return [...allNamesOf(a)].filter((n) => namesOfB.has(n)).length;
}

/** Both state a frequency (or both a duration) and share none of that kind: "weekly" against "monthly", "3 wks" against "10 days". */
function measuresDiffer(a: EntryFacts, b: EntryFacts): boolean {
  return (['frequency', 'duration', 'weekday'] as const).some((kind) => {
    const inA = a.values.filter((v) => kindOfValue(v) === kind);
    const inB = b.values.filter((v) => kindOfValue(v) === kind);
    return inA.length > 0 && inB.length > 0 && !inA.some((v) => inB.includes(v));
  });
}

/** "Prefer polars over pandas" after "Prefer pandas", or "Prefer Vitest over Jest" after "Prefer Jest". */
function preferenceChange(a: EntryFacts, b: EntryFacts): string | null {
  for (const [x, y] of [[a, b], [b, a]] as const) {
    if (x.preferred && x.over && y.preferred && y.preferred === x.over) return `prefers ${x.preferred} over ${x.over}`;
  }
  return null;
}

/** The same host written in full or by its first label (`pg-kes-prod` and `pg-kes-prod.ferrow.internal:5432`). */
function isSameValue(a: string, b: string): boolean {
  if (a === b) return true;
  const [short, long] = a.length < b.length ? [a, b] : [b, a];
  return short.length >= 4 && long.startsWith(short) && /[.:/]/.test(long[short.length] ?? '');
}

const CLOCK_TIME = /\b\d{1,2}:\d{2}\b/g;

/** One value, or one amount with and without its currency ("38.50" and "us$38.50"). */
function isSameAmount(a: string, b: string): boolean {
  const amount = (v: string) => (MONEY.test(v) ? v.replace(/[^\d.,]/g, '') : v);
  return a === b || amount(a) === amount(b);
}

/** An amount of money: a currency sign before or after the number (`ca$179`, `us$36.00`, `€780`, `780€`). */
const MONEY = /^(?:\p{L}{0,3}[$€£¥]\d[\d.,]*|\d[\d.,]*[$€£¥])$/u;

/** What kind of value a token is: a clock time, an amount of money, a number, or a name (hosts, files, products, people). */
function kindOfValue(value: string): 'time' | 'money' | 'number' | 'duration' | 'frequency' | 'weekday' | 'name' {
  if (/^\d{1,2}:\d{2}$/.test(value)) return 'time';
  if (isWeekday(value)) return 'weekday';
  if (isMeasure(value)) return value.startsWith('every-') ? 'frequency' : 'duration';
  if (MONEY.test(value)) return 'money';
  if (/^\d+(?:[.,]\d+)?$/.test(value) || NUMBER_WORDS.has(value)) return 'number';
  return 'name';
}

/** A value's shape, letters and digits folded ("4-7777" and "4-2000" are both `9-9`, `kes-stg-01.x.internal` is `a-a-9.a.a`): one kind of identifier. */
function shapeOf(value: string): string {
  return value.replace(/\p{L}+/gu, 'a').replace(/\d+/g, '9');
}

/** Whether some value of `a` and some value of `b` are of one kind (two times, two numbers, two names): they can dispute. */
function haveOneKind(a: readonly string[], b: readonly string[]): boolean {
  return a.some((v) => b.some((w) => kindOfValue(v) === kindOfValue(w)));
}

/** An identifier with letters (a host, a table, a product); a duration ("21d") or a frequency is not one. */
function hasLetter(value: string): boolean {
  return /\p{L}/u.test(value) && !isMeasure(value);
}

/** Named there, in the singular or the plural ("Sills" where the other says "Sill"). */
function isNamed(name: string, facts: EntryFacts): boolean {
  const words = wordsOf(facts);
  const singular = name.endsWith('s') ? name.slice(0, -1) : null;
  return [name, `${name}s`, singular].some((form) => form !== null && (facts.names.has(form) || words.has(form)));
}

/** A value is stated by an entry when it is one of its values or every part of it is one of its words. */
function isStated(value: string, facts: EntryFacts): boolean {
  if (facts.values.some((v) => isSameValue(v, value))) return true;
  // "30 days" is not stated by "02:30": a number inside a clock time is part of the time.
  const words = kindOfValue(value) === 'number' ? new Set(normalizeEntryText(facts.text.replace(CLOCK_TIME, ' ')).split(' ')) : wordsOf(facts);
  const parts = value.split(/[^\p{L}\p{N}]+/u).filter(Boolean);
  return parts.length > 0 && parts.every((p) => words.has(p));
}
