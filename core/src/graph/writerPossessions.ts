import type { EntityType } from '../contract/index.js';
import type { PositionedMention } from './mentions.js';
import { matchesOf } from '../platform/text/matchesOf.js';
import { splitTopLevel } from './nameLists.js';
import { STOPWORDS } from '../platform/text/stopwords.js';

/**
 * Things the writer calls their own: "my laptop (`kobe`)", "my home server `atlas`" anywhere in
 * their notes, and, in their own voice, a line that describes a name as personal ("dana.dev:
 * personal site"), or the machines a line says they keep ("self-host a few boxes at home: `kifaru`,
 * `twiga`"). The writer owns it; what kind of thing it is says its type.
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
/**
 * "self-host a few boxes at home: `kifaru` (old NAS), `twiga`", "I run two servers: atlas and
 * kite": in the writer's own voice, the machines a line lists after saying they keep them.
 */
const MACHINE_LIST = new RegExp(
  String.raw`(?:^[ \t]*(?:[-*+][ \t]+)?|[.!?;][ \t]+|\bI[ \t]+)(?:[Ss]elf-host|[Hh]ost|[Rr]un|[Hh]ave|[Oo]wn|[Kk]eep|[Mm]aintain)[ \t]+(?:(?:a[ \t]+few|a[ \t]+couple(?:[ \t]+of)?|some|several|two|three|four|five|six|\d+)[ \t]+)?(?:[\p{Ll}-]+[ \t]+)?(?:boxes|servers|machines|hosts|NASes|Pis|VMs|nodes)(?:[ \t]+(?:at|in)[ \t]+(?:[\p{Ll}'’]+[ \t]*){1,3})?[ \t]*:[ \t]*([^\n]*)`,
  'gmu',
);
/** Cheap test first: most entries call nothing their own. */
const HINT = /\b[Mm]y\b|personal|private|boxes|servers|machines|hosts|NASes|Pis|VMs|nodes/;

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
  for (const m of matchesOf(MACHINE_LIST, body)) {
    // Without a written "I", only the writer's own notes leave the subject out.
    if (!ownVoice && !/\bI[ \t]/.test(m[0])) continue;
    const listStart = (m.index ?? 0) + m[0].length - m[1]!.length;
    for (const item of splitTopLevel(m[1]!)) {
      // Each item's name is the whole of it before its parenthesis ("`twiga` (Proxmox box)"), a host's name in backticks or not.
      const paren = item.text.indexOf('(');
      const head = (paren >= 0 ? item.text.slice(0, paren) : item.text).trim().replace(/[.;!?]+$/, '');
      if (!/^\x60?[\p{L}\p{N}][\p{L}\p{N}_.-]*\x60?$/u.test(head)) continue;
      const at = listStart + item.start + (head.startsWith('\x60') ? 1 : 0);
      const label = head.replace(/\x60/g, '');
      // A lowercase host's name no rule read ("atlas") is a name here: the list says what it is.
      if (mentionAt(mentions, at) < 0 && !STOPWORDS.has(label.toLowerCase())) mentions.push({ type: 'machine', label, certainty: 'strong', start: at, end: at + label.length });
      const o = mentionAt(mentions, at);
      if (o < 0 || mentions[o]!.label !== label || (['person', 'place', 'organization'].includes(mentions[o]!.type) && mentions[o]!.certainty === 'strong')) continue;
      take(at, 'server', m.index ?? 0);
    }
  }
  return found;
}
