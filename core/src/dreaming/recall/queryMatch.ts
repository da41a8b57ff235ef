import { extractQueryTerms } from '../../search/queryTerms.js';

/**
 * Which entries of a returned passage answered the query: those sharing a content word (by
 * stem) with it. A passage found by meaning alone (no shared word) credits all its entries.
 */
export function entriesAnsweringQuery<T extends { body: string }>(query: string, entries: readonly T[]): T[] {
  const wanted = new Set(extractQueryTerms(query).filter((t) => !t.isStopword).flatMap((t) => [t.stem, ...t.variants]));
  if (wanted.size === 0 || entries.length <= 1) return [...entries];
  const matching = entries.filter((e) => extractQueryTerms(e.body).some((t) => !t.isStopword && wanted.has(t.stem)));
  return matching.length > 0 ? matching : [...entries];
}
