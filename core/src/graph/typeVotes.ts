import type { EntityType } from '../contract/index.js';
import { labelKey } from './labelKey.js';
import type { PositionedMention } from './mentions.js';

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
  for (const mentions of mentionLists)
    for (const m of mentions) {
      const key = labelKey(m.label);
      let v = votes.get(key);
      if (!v) votes.set(key, (v = { strong: new Map(), hints: new Map() }));
      // A first name in the list counts half what the words around a name say ("moving to Charlotte").
      if (m.certainty === 'strong' && NAMED.has(m.type)) tally(v.strong, m.type, m.byNameList ? 1 : 2);
      else if (m.hint && m.type === 'concept') tally(v.hints, m.hint, 1);
    }
  const decided = new Map<string, EntityType>();
  for (const [key, { strong, hints }] of votes) {
    // Weak cues decide only when they agree.
    const winner = strong.size > 0 ? mostVoted(strong) : hints.size === 1 ? [...hints.keys()][0]! : null;
    if (winner) decided.set(key, winner);
  }
  for (const mentions of mentionLists)
    for (const m of mentions) {
      const type = decided.get(labelKey(m.label));
      if (!type || m.type === type) continue;
      // A sentence's opening word stays tentative: it still needs a mention that is not one.
      if (m.type === 'concept' && m.certainty !== 'strong') Object.assign(m, { type, certainty: m.certainty === 'tentative' ? 'tentative' : 'strong' });
      else if (m.certainty === 'strong' && NAMED.has(m.type)) Object.assign(m, { type, byNameList: false });
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
