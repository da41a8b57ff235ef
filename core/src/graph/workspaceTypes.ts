import type Database from 'better-sqlite3';
import type { EntityType } from '../contract/index.js';
import { typeFromVotes, type VoteCount } from './typeVotes.js';
import type { TypeVote, TypeVoteKind } from './types.js';

/**
 * A name's type across the workspace. Each stored mention (an entity named in an entry) keeps
 * the type its own words voted for (`graph_mentions.type_vote`); after an update the entities
 * it touched take the type their votes, summed over every file, give (`typeFromVotes`). So the
 * first file to name a thing does not fix its type ("Vault" once a place in MEMORY.md, a tool in
 * nine notes), and editing one file re-decides its names from the stored votes of all the others.
 */

/** Entities whose type the evidence may change: tags, links and paths keep what their syntax says. */
const VOTED_TYPES = "('person','project','organization','place','machine','tool','concept','identifier')";

/** The stored code of a vote: its place in this list, from 1 (one small integer per mention row). */
const VOTE_CODES: ReadonlyArray<TypeVote> = (['person', 'organization', 'place', 'project', 'machine', 'tool'] as const).flatMap((type) =>
  (['words', 'names', 'hint'] as const).map((kind) => ({ type, kind })),
);
const KIND_STRENGTH: Record<TypeVoteKind, number> = { words: 3, names: 2, hint: 1 };

/** An entry's vote for one entity (several mentions in one entry: the strongest evidence), as stored; null for none. */
export function voteCode(votes: readonly TypeVote[] | undefined): number | null {
  if (!votes || votes.length === 0) return null;
  const best = votes.reduce((a, b) => (KIND_STRENGTH[b.kind] > KIND_STRENGTH[a.kind] ? b : a));
  const code = VOTE_CODES.findIndex((v) => v.type === best.type && v.kind === best.kind);
  return code < 0 ? null : code + 1;
}

type VoteRow = [entity: number, current: EntityType, key: string, code: number, count: number];

/** Each entity's votes counted first (a range of its mention rows), then its type and key joined once per vote kind. */
const votesOf = (where: string) =>
  `SELECT v.entity_id, e.type, e.key, v.type_vote, v.n FROM (SELECT entity_id, type_vote, count(*) AS n FROM graph_mentions WHERE ${where} AND type_vote IS NOT NULL GROUP BY entity_id, type_vote) v
   JOIN graph_entities e ON e.id = v.entity_id WHERE e.type IN ${VOTED_TYPES} ORDER BY v.entity_id`;

/** Retypes the given entities from their summed votes; returns how many changed. */
export function retypeEntities(db: Database.Database, ids: Iterable<number>): number {
  const rows = db.prepare(votesOf('entity_id IN (SELECT value FROM json_each(?))')).raw().all(JSON.stringify([...ids])) as VoteRow[];
  return applyVotes(db, rows);
}

/** Retypes every entity whose id lies in [lo, hi] (a whole-graph settle goes range by range). */
export function retypeEntityRange(db: Database.Database, lo: number, hi: number): number {
  const rows = db.prepare(votesOf('entity_id BETWEEN ? AND ?')).raw().all(lo, hi) as VoteRow[];
  return applyVotes(db, rows);
}

function applyVotes(db: Database.Database, rows: readonly VoteRow[]): number {
  const retype = db.prepare('UPDATE graph_entities SET type = ? WHERE id = ?');
  const sameName = db.prepare('SELECT 1 FROM graph_entities WHERE type = ? AND key = ?').pluck();
  let changed = 0;
  for (let i = 0; i < rows.length; ) {
    const [entity, current, key] = rows[i]!;
    const votes: VoteCount[] = [];
    for (; i < rows.length && rows[i]![0] === entity; i++) {
      const vote = VOTE_CODES[rows[i]![3] - 1];
      if (vote) votes.push({ ...vote, count: rows[i]![4] });
    }
    const type = typeFromVotes(votes);
    // Another entity of that type and name (the chat model's, say) keeps it: one entity per type and key.
    if (type === null || type === current || sameName.get(type, key) !== undefined) continue;
    retype.run(type, entity);
    changed++;
  }
  return changed;
}
