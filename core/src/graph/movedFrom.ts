import type { PositionedMention } from './mentions.js';

/**
 * Where something was before a move: "Jellyfin moved from kifaru to twiga", "Moved to Berlin
 * from Madrid in 2019" say that Jellyfin ran on kifaru and the person lived in Madrid until the
 * move. The earlier "where" is stated just before the move, so the move (later in the same
 * entry) ends it on the note's date (graphUpdate.ts supersede).
 */

interface Relation {
  subject: number;
  predicate: string;
  object: number;
}

/** "… to twiga from kifaru": the earlier place right after the new one. */
const FROM_AFTER = /^[ \t]+from[ \t]+(?:the[ \t]+)?`?/;
/** "… from kifaru to twiga": between the earlier place and the new one. */
const TO_BETWEEN = /^`?[ \t]+to[ \t]+(?:the[ \t]+)?`?$/;
const FROM_BEFORE = /\bfrom[ \t]+(?:the[ \t]+)?`?$/;
/** What a provider or host is "where" for: software, a piece of work, a host. */
const HOSTED_TYPES = new Set(['project', 'tool', 'machine']);

/** `relations` with each move's earlier "where" put right before it (the move's own reading unchanged). */
export function withEarlierPlaces<R extends Relation>(body: string, mentions: PositionedMention[], relations: R[]): Array<R | Relation> {
  if (!relations.some((r) => r.predicate === 'moved_to') || !/\bfrom\b/.test(body)) return relations;
  const out: Array<R | Relation> = [];
  for (const r of relations) {
    if (r.predicate === 'moved_to') {
      const earlier = earlierWhere(body, mentions, r);
      if (earlier && !out.some((o) => o.subject === earlier.subject && o.predicate === earlier.predicate && o.object === earlier.object)) out.push(earlier);
    }
    out.push(r);
  }
  return out;
}

function earlierWhere(body: string, mentions: PositionedMention[], move: Relation): Relation | null {
  const to = mentions[move.object]!;
  const subject = mentions[move.subject]!;
  if (to.start < 0) return null;
  const after = FROM_AFTER.exec(body.slice(to.end, to.end + 12).replace(/^`/, ''));
  const fromStart = after ? to.end + (body[to.end] === '`' ? 1 : 0) + after[0].length : -1;
  let from = after ? mentions.findIndex((c) => c.start === fromStart || c.start === fromStart - 1) : -1;
  if (from < 0)
    from = mentions.findIndex(
      (c) => c.start >= 0 && c.end <= to.start && to.start - c.end <= 12 && TO_BETWEEN.test(body.slice(c.end, to.start)) && FROM_BEFORE.test(body.slice(Math.max(0, c.start - 12), c.start)),
    );
  if (from < 0 || from === move.subject || from === move.object) return null;
  const f = mentions[from]!;
  const untyped = f.type === 'concept' && f.certainty !== 'strong';
  if (to.type === 'place') {
    if (f.type !== 'place' && !untyped) return null;
    if (untyped) Object.assign(f, { type: 'place', certainty: 'strong' });
    return { subject: move.subject, predicate: 'located_in', object: from };
  }
  // A host or a provider before: only for what runs somewhere.
  if ((to.type === 'machine' || to.type === 'organization') && HOSTED_TYPES.has(subject.type)) {
    if (f.type !== 'machine' && f.type !== 'organization' && !untyped) return null;
    if (untyped) Object.assign(f, { type: to.type, certainty: 'strong' });
    return { subject: move.subject, predicate: 'runs_on', object: from };
  }
  return null;
}
