import type Database from 'better-sqlite3';
import type { EntityType } from '../contract/index.js';
import { typeFromVotes, type VoteCount } from './typeVotes.js';
import type { TypeVote, TypeVoteKind } from './types.js';

/**
 * A name's type across the workspace. Every file's mentions vote (`graph_type_votes`: entity,
 * file, type, kind of evidence, count); after an update the entities it touched take the type
 * their votes, summed over every file, give (`typeFromVotes`). So the first file to name a
 * thing does not fix its type ("Vault" once a place in MEMORY.md, a tool in nine notes), and
 * editing one file re-decides its names from the stored votes of all the others.
 */

/** Entities whose type the evidence may change: tags, links and paths keep what their syntax says. */
const VOTED_TYPES = "('person','project','organization','place','machine','tool','concept','identifier')";

/** Votes counted in memory while entries are written, added to the table once per slice. */
export class TypeVoteTally {
  private readonly counts = new Map<string, { entity: number; path: number; vote: TypeVote; count: number }>();

  add(entity: number, path: number, vote: TypeVote): void {
    const key = `${entity}|${path}|${vote.type}|${vote.kind}`;
    const known = this.counts.get(key);
    if (known) known.count++;
    else this.counts.set(key, { entity, path, vote, count: 1 });
  }

  flush(db: Database.Database): void {
    if (this.counts.size === 0) return;
    const upsert = upsertStatement(db);
    for (const { entity, path, vote, count } of this.counts.values()) upsert.run(entity, path, vote.type, vote.kind, count);
    this.counts.clear();
  }
}

const upserts = new WeakMap<Database.Database, Database.Statement>();

function upsertStatement(db: Database.Database): Database.Statement {
  let statement = upserts.get(db);
  if (!statement) {
    statement = db.prepare(
      `INSERT INTO graph_type_votes (entity_id, path_id, type, kind, count) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (entity_id, path_id, type, kind) DO UPDATE SET count = count + excluded.count`,
    );
    upserts.set(db, statement);
  }
  return statement;
}

/** An entity merged into another brings its votes along. */
export function moveTypeVotes(db: Database.Database, from: number, into: number): void {
  db.prepare(
    `INSERT INTO graph_type_votes (entity_id, path_id, type, kind, count) SELECT ?, path_id, type, kind, count FROM graph_type_votes WHERE entity_id = ?
     ON CONFLICT (entity_id, path_id, type, kind) DO UPDATE SET count = count + excluded.count`,
  ).run(into, from);
  db.prepare('DELETE FROM graph_type_votes WHERE entity_id = ?').run(from);
}

type VoteRow = [entity: number, current: EntityType, key: string, type: EntityType, kind: TypeVoteKind, count: number];

const VOTES_OF = `SELECT v.entity_id, e.type, e.key, v.type, v.kind, sum(v.count) FROM graph_type_votes v JOIN graph_entities e ON e.id = v.entity_id`;
const GROUPED = `AND e.type IN ${VOTED_TYPES} GROUP BY v.entity_id, v.type, v.kind ORDER BY v.entity_id`;

/** Retypes the given entities from their summed votes; returns how many changed. */
export function retypeEntities(db: Database.Database, ids: Iterable<number>): number {
  const rows = db.prepare(`${VOTES_OF} WHERE v.entity_id IN (SELECT value FROM json_each(?)) ${GROUPED}`).raw().all(JSON.stringify([...ids])) as VoteRow[];
  return applyVotes(db, rows);
}

/** Retypes every entity whose id lies in [lo, hi] (a whole-graph settle goes range by range). */
export function retypeEntityRange(db: Database.Database, lo: number, hi: number): number {
  const rows = db.prepare(`${VOTES_OF} WHERE v.entity_id BETWEEN ? AND ? ${GROUPED}`).raw().all(lo, hi) as VoteRow[];
  return applyVotes(db, rows);
}

function applyVotes(db: Database.Database, rows: readonly VoteRow[]): number {
  const retype = db.prepare('UPDATE graph_entities SET type = ? WHERE id = ?');
  const sameName = db.prepare('SELECT 1 FROM graph_entities WHERE type = ? AND key = ?').pluck();
  let changed = 0;
  for (let i = 0; i < rows.length; ) {
    const [entity, current, key] = rows[i]!;
    const votes: VoteCount[] = [];
    for (; i < rows.length && rows[i]![0] === entity; i++) votes.push({ type: rows[i]![3], kind: rows[i]![4], count: rows[i]![5] });
    const type = typeFromVotes(votes);
    // Another entity of that type and name (the chat model's, say) keeps it: one entity per type and key.
    if (type === null || type === current || sameName.get(type, key) !== undefined) continue;
    retype.run(type, entity);
    changed++;
  }
  return changed;
}
