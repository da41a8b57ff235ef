import { extractQueryTerms } from '../../search/queryTerms.js';

/** The stems a query is looked for by: its content words' stems and their irregular forms. */
export function queryStems(query: string): ReadonlySet<string> {
  return new Set(extractQueryTerms(query).filter((t) => !t.isStopword).flatMap((t) => [t.stem, ...t.variants]));
}

const stemsOfEntry = new WeakMap<object, string>();

/**
 * The stems of an entry's content words, computed once per parsed entry: the recorder matches
 * the same entries against query after query, and porter stemming every body again each time
 * was most of its cost. Kept as one string, ` stem stem … ` (stems never contain a space),
 * not a Set of strings: the reader keeps ~100k entries parsed, and one flat string each is
 * ~10× less heap and far fewer objects for the garbage collector to trace.
 */
export function entryStems(entry: { readonly body: string }): string {
  const kept = stemsOfEntry.get(entry);
  if (kept !== undefined) return kept;
  const stems = new Set(extractQueryTerms(entry.body).flatMap((t) => (t.isStopword ? [] : [t.stem])));
  const joined = ['', ...stems, ''].join(' '); // join builds one flat string, not a rope of pieces
  stemsOfEntry.set(entry, joined);
  return joined;
}

/** Whether the entry has any of the stems (each given as ` stem `, see `entryStems`). */
function hasAnyStem(entry: { body: string }, wanted: readonly string[]): boolean {
  const stems = entryStems(entry);
  return wanted.some((w) => stems.includes(w));
}

/**
 * Which entries of a returned passage answered the query: those sharing a content word (by
 * stem) with it. A passage found by meaning alone (no shared word) credits all its entries.
 * Pass `queryStems(query)` instead of the query when matching one query against many passages.
 */
export function entriesAnsweringQuery<T extends { body: string }>(query: string | ReadonlySet<string>, entries: readonly T[]): T[] {
  if (entries.length <= 1) return [...entries];
  const wanted = typeof query === 'string' ? queryStems(query) : query;
  if (wanted.size === 0) return [...entries];
  const padded = [...wanted].map((stem) => ` ${stem} `);
  const matching = entries.filter((e) => hasAnyStem(e, padded));
  return matching.length > 0 ? matching : [...entries];
}
