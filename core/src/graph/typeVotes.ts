import type { EntityType } from '../contract/index.js';
import { labelKey } from './labelKey.js';
import type { PositionedMention } from './mentions.js';
import type { EntityMention, TypeVote, TypeVoteKind } from './types.js';

/** Types a name's mentions vote on (tags, paths, links and code keep what their syntax says). */
const NAMED: ReadonlySet<EntityType> = new Set(['person', 'organization', 'place', 'tool', 'project', 'machine']);

/**
 * One name, one type across a file: how the name is used in all its mentions decides. Strong
 * cues vote (the most votes win; a person's own words, "Kiri said", beat a tie), and a name
 * with no strong cue anywhere in the file takes the type its weak cues agree on ("with Kiri",
 * "in Alcântara" twice). The untyped mentions of a typed name take its type.
 */
export function settleTypesInFile(mentionLists: ReadonlyArray<PositionedMention[]>): void {
  const votes = new Map<string, { strong: Map<EntityType, number>; hints: Map<EntityType, number> }>();
  const tally = (map: Map<EntityType, number>, type: EntityType, weight: number) => map.set(type, (map.get(type) ?? 0) + weight);
  // Each mention's key, in order: the decision below reads them again.
  const keys: string[] = [];
  for (const mentions of mentionLists)
    for (const m of mentions) {
      const key = labelKey(m.label);
      keys.push(key);
      let v = votes.get(key);
      if (!v) votes.set(key, (v = { strong: new Map(), hints: new Map() }));
      // A first name in the list counts half what the words around a name say ("moving to Charlotte").
      if (m.certainty === 'strong' && NAMED.has(m.type)) tally(v.strong, m.type, m.byNameList ? 1 : 2);
      else if (m.hint && m.type === 'concept') tally(v.hints, m.hint, 1);
      // What the mention says itself, before the file's decision overwrites it: the workspace sums these.
      const own = ownVote(m);
      if (own) m.ownVote = own;
    }
  const decided = new Map<string, EntityType>();
  for (const [key, { strong, hints }] of votes) {
    // Weak cues decide only when they agree.
    const winner = strong.size > 0 ? mostVoted(strong) : hints.size === 1 ? [...hints.keys()][0]! : null;
    if (winner) decided.set(key, winner);
  }
  let at = 0;
  for (const mentions of mentionLists)
    for (const m of mentions) {
      const type = decided.get(keys[at++]!);
      if (!type || m.type === type) continue;
      // A sentence's opening word stays tentative: it still needs a mention that is not one.
      if (m.type === 'concept' && m.certainty !== 'strong') Object.assign(m, { type, certainty: m.certainty === 'tentative' ? 'tentative' : 'strong', typedByFile: true });
      else if (m.certainty === 'strong' && NAMED.has(m.type)) Object.assign(m, { type, byNameList: false, typedByFile: true });
    }
}

/** The type with the most votes; a tie goes to a person (a person's name used once as a place stays a person). */
function mostVoted(votes: Map<EntityType, number>): EntityType {
  let best: EntityType | null = null;
  let most = 0;
  for (const [type, n] of votes) {
    if (n > most || (n === most && type === 'person')) [best, most] = [type, n];
  }
  return best!;
}

/** A mention's own evidence, as the cues around it found it. */
function ownVote(m: PositionedMention): TypeVote | null {
  if (m.certainty === 'strong' && NAMED.has(m.type)) return { type: m.type, kind: m.byNameList ? 'names' : 'words' };
  if (m.hint && m.type === 'concept') return { type: m.hint, kind: 'hint' };
  return null;
}

/**
 * The vote a mention casts for the workspace's type of its name: its own evidence from the
 * words around it; else the type a relation, the note's subject or a list gave it (not the
 * type its file's other mentions gave it: those vote themselves).
 */
export function voteOf(m: EntityMention & { ownVote?: TypeVote; typedByFile?: boolean }): TypeVote | null {
  if (m.ownVote && m.ownVote.kind !== 'hint') return m.ownVote;
  if (m.certainty === 'strong' && NAMED.has(m.type) && !m.typedByFile) return { type: m.type, kind: m.byNameList ? 'names' : 'words' };
  return m.ownVote ?? null;
}

/** A name's votes summed over the files that name it. */
export interface VoteCount {
  type: EntityType;
  kind: TypeVoteKind;
  count: number;
}

/** Types in the order a tie between them goes: what a person does outweighs where words sit. */
const TIE_ORDER: readonly EntityType[] = ['person', 'organization', 'place', 'project', 'machine', 'tool'];

/**
 * A name's type across the workspace, from every file's votes: the words around its mentions
 * decide (each counts 2); the first-name list decides alone, and against the words counts as
 * one guess (a name list vote in every note must not outvote "flew to Charlotte" twice); what a
 * person says or does outweighs any number of places the words put a name in; weak
 * hints decide only where nothing else speaks and they agree. Null: no evidence, keep the type.
 */
export function typeFromVotes(votes: readonly VoteCount[]): EntityType | null {
  const score = new Map<EntityType, number>();
  const add = (type: EntityType, n: number) => score.set(type, (score.get(type) ?? 0) + n);
  const words = votes.filter((v) => v.kind === 'words' && NAMED.has(v.type));
  const names = votes.filter((v) => v.kind === 'names' && NAMED.has(v.type));
  for (const v of words) add(v.type, 2 * v.count);
  for (const v of names) add(v.type, words.length > 0 ? Math.min(1, v.count) : v.count);
  // A person taken for a place ("a weekend in Ottilie", "Ottilie said …"): places do not speak.
  if (words.some((v) => v.type === 'person')) score.delete('place');
  if (score.size === 0) {
    const hinted = new Set(votes.filter((v) => v.kind === 'hint' && NAMED.has(v.type)).map((v) => v.type));
    return hinted.size === 1 ? [...hinted][0]! : null;
  }
  let best: EntityType | null = null;
  let most = 0;
  for (const type of TIE_ORDER) {
    const n = score.get(type) ?? 0;
    if (n > most) [best, most] = [type, n];
  }
  return best;
}
