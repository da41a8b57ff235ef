import { contentStems, extractQueryTerms } from '../../search/queryTerms.js';
import { hasUnspacedText } from '../../contract/unspacedScripts.js';

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
  const stems = new Set(contentStems(entry.body));
  const joined = ['', ...stems, ''].join(' '); // join builds one flat string, not a rope of pieces
  stemsOfEntry.set(entry, joined);
  return joined;
}


/**
 * How many of the stems the entry has: each is given as ` stem ` (see `entryStems`), or bare
 * when it is a word of an unspaced script, found anywhere inside a token.
 */
function sharedStems(entry: { body: string }, wanted: readonly string[]): number {
  const stems = entryStems(entry);
  let n = 0;
  for (const w of wanted) if (stems.includes(w)) n++;
  return n;
}

/**
 * Which entries of a returned passage answered the query: those sharing the most content words
 * (by stem) with it. A line that shares only the project's name with a question about its
 * metrics port was shown, not recalled; crediting every line with any shared word let the
 * events and trivia of a busy day ride on the questions about its facts. Ties are all credited;
 * a passage found by meaning alone (no shared word) credits all its entries.
 * Pass `queryStems(query)` instead of the query when matching one query against many passages.
 */
export function entriesAnsweringQuery<T extends { body: string }>(query: string | ReadonlySet<string>, entries: readonly T[]): T[] {
  if (entries.length <= 1) return [...entries];
  const wanted = typeof query === 'string' ? queryStems(query) : query;
  if (wanted.size === 0) return [...entries];
  const padded = [...wanted].map((stem) => (hasUnspacedText(stem) ? stem : ` ${stem} `));
  const shared = entries.map((e) => sharedStems(e, padded));
  const best = Math.max(...shared);
  return best > 0 ? entries.filter((_, i) => shared[i] === best) : [...entries];
}
