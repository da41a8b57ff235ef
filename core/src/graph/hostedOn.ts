import type { PositionedMention } from './mentions.js';

/**
 * Where a service runs, said by a noun phrase that opens a clause: "Jellyfin on kifaru keeps
 * stuttering", "- Postgres 16 on db-02: done", "restic on atlas: first snapshot". The subject
 * must open its line or clause (after a list mark, a full stop, a semicolon or a colon), so
 * "ran pg_upgrade on db-02" (an act on a host) says nothing; it must be a name typed as software
 * or a piece of work, and the object a name typed as a host (not a provider or a place: "Kafka on
 * AWS" may be a plan, "Kestrel on Heroku" is read by the verbs).
 */

export interface HostedOnRelation {
  subject: number;
  predicate: 'runs_on';
  object: number;
}

/** What may stand before the subject: the line's opening and list mark, or the end of a clause. */
const CLAUSE_OPENING = /(?:^|\n)[ \t]*(?:[-*+][ \t]+|\d+[.)][ \t]+|#{1,6}[ \t]+)?(?:\[[ xX]\][ \t]+)?$|[.;:!?][ \t]+$/;
/** The gap: "on", maybe a version of the subject before it ("Vault 1.17 on", "Postgres 16 on"), maybe backticks. */
const ON = /^(?:[ \t]+v?\d+(?:\.\d+)*)?[ \t]+on[ \t]+`?$/;
const SUBJECT_TYPES = new Set(['tool', 'project']);

export function findHostedOn(body: string, mentions: PositionedMention[]): HostedOnRelation[] {
  if (!/ on /.test(body)) return [];
  const found: HostedOnRelation[] = [];
  for (let i = 0; i < mentions.length; i++) {
    const s = mentions[i]!;
    if (s.start < 0 || !SUBJECT_TYPES.has(s.type) || s.certainty !== 'strong') continue;
    if (!CLAUSE_OPENING.test(body.slice(Math.max(0, s.start - 12), s.start).replace(/[`*_]+$/, ''))) continue;
    const object = mentions.findIndex((c) => c.start > s.end && c.start - s.end <= 16 && ON.test(body.slice(s.end, c.start).replace(/^[`*_]+/, '')));
    if (object < 0 || object === i) continue;
    const o = mentions[object]!;
    if (o.type !== 'machine' || o.certainty !== 'strong') continue;
    found.push({ subject: i, predicate: 'runs_on', object });
  }
  return found;
}
