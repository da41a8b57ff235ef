import type { EntryFacts } from './entryFacts.js';
import type { Rarity } from './relation.js';

/** Inverse document frequency of subject words over the entries being compared (curated ones and candidates). */
export function rarityOver(entries: readonly EntryFacts[]): Rarity {
  const df = new Map<string, number>();
  for (const e of entries) for (const w of e.subjects) df.set(w, (df.get(w) ?? 0) + 1);
  const n = Math.max(1, entries.length);
  return (word) => Math.log(1 + n / (df.get(word) ?? 1));
}
