import type { EntityType } from '../contract/index.js';
import type { PositionedMention } from './mentions.js';
import { matchesOf } from '../platform/text/matchesOf.js';

/**
 * Things the writer calls their own: "my laptop (`kobe`)", "my home server `atlas`" anywhere in
 * their notes, and, in their own voice, a line that describes a name as personal ("dana.dev:
 * personal site"). The writer owns it; what kind of thing it is says its type.
 */

export interface WriterPossession {
  object: number;
  span: [number, number];
}

/** Kinds of thing one owns, and the entity type each names. */
const KINDS: Record<string, EntityType> = {
  laptop: 'machine',
  desktop: 'machine',
  server: 'machine',
  'home server': 'machine',
  nas: 'machine',
  workstation: 'machine',
  site: 'project',
  website: 'project',
  blog: 'project',
  homepage: 'project',
};
const KIND = String.raw`(home[ \t]+server|laptop|desktop|server|NAS|workstation|site|website|blog|homepage)`;
/** "my laptop (`kobe`)", "my old NAS kifaru", "my personal site dana.dev": the name right after the kind word. */
const MY_THING = new RegExp(String.raw`\b[Mm]y[ \t]+(?:(?:own|personal|new|old|main|work)[ \t]+)?${KIND}[ \t]*(?:\([ \t]*|,[ \t]*)?(?=[\p{L}\p{N}\x60])`, 'gu');
/** "dana.dev: personal site", "- `kite` — my personal laptop": a line's opening name described as the writer's. */
const PERSONAL_LINE = new RegExp(
  String.raw`^[ \t]*(?:[-*+][ \t]+)?(?:\*\*)?\x60?([\p{L}\p{N}][\p{L}\p{N}_.-]*)\x60?(?:\*\*)?[ \t]*(?::|—|–|=)[ \t]*(?:(?:my|a|the)[ \t]+)?(?:own[ \t]+)?(?:personal|private)[ \t]+${KIND}\b`,
  'gmu',
);
/** Cheap test first: most entries call nothing their own. */
const HINT = /\b[Mm]y\b|personal|private/;

/** The mention of the name at `at` (with or without a code span's backtick). */
function mentionAt(mentions: PositionedMention[], at: number): number {
  return mentions.findIndex((c) => c.start >= at - 1 && c.start <= at + 1);
}

/** The writer's possessions in one entry; `ownVoice`: the entry is the writer's own (not a person's or project's note). */
export function findWriterPossessions(body: string, mentions: PositionedMention[], ownVoice: boolean): WriterPossession[] {
  if (!HINT.test(body)) return [];
  const found: WriterPossession[] = [];
  const take = (at: number, kind: string, spanStart: number): void => {
    const object = mentionAt(mentions, at);
    if (object < 0 || found.some((f) => f.object === object)) return;
    const o = mentions[object]!;
    // The note's own word for it says what it is: a personal site is a project even when its name looks like a host's.
    const type = KINDS[kind.toLowerCase().replace(/[ \t]+/g, ' ')]!;
    Object.assign(o, { type, certainty: 'strong', ownVote: { type, kind: 'words' } });
    found.push({ object, span: [spanStart, o.end] });
  };
  for (const m of matchesOf(MY_THING, body)) take((m.index ?? 0) + m[0].length, m[1]!, m.index ?? 0);
  if (ownVoice) for (const m of matchesOf(PERSONAL_LINE, body)) take((m.index ?? 0) + m[0].indexOf(m[1]!), m[2]!, m.index ?? 0);
  return found;
}
