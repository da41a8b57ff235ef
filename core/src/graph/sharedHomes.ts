import type { PositionedMention } from './mentions.js';

/**
 * "Live in Kilimani, Nairobi, with Karim", "Dana lives in Porto with her partner Rui": the people
 * someone lives with live in the same places. Reads only right after the last place of a
 * located_in reading, and only people (named and typed so) joined by "with", "and" or commas.
 */

interface Located {
  subject: number;
  predicate: string;
  object: number;
}

/** ", with Karim", " with my partner Rui", " with Karim and Juma": up to the first person's name. */
const WITH = /^,?[ \t]+with[ \t]+(?:(?:my|his|her|their|our)[ \t]+)?(?:(?:partner|wife|husband|girlfriend|boyfriend|flatmate|roommate|family|parents|mum|mom|dad|brother|sister|son|daughter|kids?)[ \t]+)?$/i;
const AND = /^(?:[ \t]*,[ \t]*|[ \t]+(?:and|&)[ \t]+)$/;

export function findSharedHomes<R extends Located>(body: string, mentions: PositionedMention[], relations: readonly R[]): Located[] {
  if (!/\bwith\b/i.test(body)) return [];
  const found: Located[] = [];
  const bySubject = new Map<number, number[]>();
  for (const r of relations) {
    if (r.predicate !== 'located_in' || mentions[r.subject]?.type !== 'person') continue;
    bySubject.set(r.subject, [...(bySubject.get(r.subject) ?? []), r.object]);
  }
  const ordered = mentions.map((m, i) => ({ m, i })).filter(({ m }) => m.start >= 0).sort((a, b) => a.m.start - b.m.start);
  for (const [subject, places] of bySubject) {
    const last = Math.max(...places.map((p) => mentions[p]!.end));
    let k = ordered.findIndex(({ m }) => m.start >= last);
    if (k < 0 || !WITH.test(body.slice(last, ordered[k]!.m.start))) continue;
    while (k >= 0 && k < ordered.length && ordered[k]!.m.type === 'person') {
      const { i } = ordered[k]!;
      if (i !== subject) for (const place of new Set(places)) found.push({ subject: i, predicate: 'located_in', object: place });
      const next = ordered[k + 1];
      if (!next || !AND.test(body.slice(ordered[k]!.m.end, next.m.start))) break;
      k++;
    }
  }
  return found;
}
