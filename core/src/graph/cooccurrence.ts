import type Database from 'better-sqlite3';
import type { OriginClass, SourceTool } from '../contract/index.js';
import { CLAIM_IDENTITY } from './claimIdentity.js';
import { entriesOfPath } from './pathEntries.js';
import { MENTIONED_WITH } from './types.js';

/** mentioned_with edges are drawn among this many of an entry's entities at most. */
export const MAX_COOCCURRING = 20;
export const COOCCURRENCE_CONFIDENCE = 0.5;

/**
 * A pair is stored (its claim and tallies) once this many entries name both: most pairs (74 %
 * at 2,000 notes) are named together once, and such a lone pair is read from the mentions of
 * one entity when asked (lonePairs.ts) instead of costing a claim, two index rows and a tally.
 */
export const STORED_PAIR_MIN_ENTRIES = 2;

/** The mentioned_with pair of two entities as its claim has it (the smaller id is the subject), as a set key. */
function pairKey(a: number, b: number): string {
  return a < b ? `${a},${b}` : `${b},${a}`;
}

/** A mentioned_with claim by its pair (the index graph_claims_identity answers it). */
const PAIR_CLAIM = `subject_id = ? AND predicate = '${MENTIONED_WITH}' AND ifnull(object_id, 0) = ? AND ifnull(literal_key, '') = ''`;

/** An entry as evidence, with what filters look at. */
export interface SharedEntry {
  id: number;
  path: string;
  start_line: number;
  end_line: number;
  chunk_id: number | null;
  dream_run: string | null;
  origin: OriginClass;
  tool: SourceTool;
  observed: string | null;
}

/** Up to this many pairs, each is intersected in SQL (one claim explained) rather than from all their mentions read at once (a slice). */
const FEW_PAIRS = 8;

/**
 * For each pair, the ids of the entries where both entities are mentioned among the entry's
 * co-occurring names, intersected from the less mentioned side: for a few pairs in SQL, for
 * many by reading the pairs' entities' mentions once.
 */
function sharedEntryIds(db: Database.Database, pairs: ReadonlyArray<readonly [number, number]>): number[][] {
  if (pairs.length <= FEW_PAIRS) {
    const mentions = db.prepare('SELECT mentions FROM graph_entities WHERE id = ?').pluck();
    const shared = db
      .prepare('SELECT s.entry_id FROM graph_mentions s CROSS JOIN graph_mentions o WHERE s.entity_id = ? AND s.cooccurs = 1 AND o.entity_id = ? AND o.entry_id = s.entry_id AND o.cooccurs = 1')
      .pluck();
    return pairs.map(([a, b]) => {
      const [small, large] = ((mentions.get(a) as number | undefined) ?? 0) <= ((mentions.get(b) as number | undefined) ?? 0) ? [a, b] : [b, a];
      return shared.all(small, large) as number[];
    });
  }
  const entities = new Set<number>();
  for (const [a, b] of pairs) entities.add(a).add(b);
  const mentions = new Map<number, Set<number>>();
  const rows = db.prepare('SELECT entity_id, entry_id FROM graph_mentions WHERE entity_id IN (SELECT value FROM json_each(?)) AND cooccurs = 1').raw().all(JSON.stringify([...entities])) as Array<[number, number]>;
  for (const [entity, entry] of rows) {
    let set = mentions.get(entity);
    if (!set) mentions.set(entity, (set = new Set()));
    set.add(entry);
  }
  const none = new Set<number>();
  return pairs.map(([a, b]) => {
    const x = mentions.get(a) ?? none;
    const y = mentions.get(b) ?? none;
    const [small, large] = x.size <= y.size ? [x, y] : [y, x];
    const both: number[] = [];
    for (const entry of small) if (large.has(entry)) both.push(entry);
    return both;
  });
}

/** What a pair's shared entries a filter keeps say: how many, from which tools and origins, and the first few. */
export interface SharedEvidence {
  count: number;
  tools: Set<SourceTool>;
  origins: Set<OriginClass>;
  /** The first `cap` kept entries, in evidence order (path, then first line). */
  first: SharedEntry[];
  /** The earliest date among the kept entries (null: none is dated). */
  earliest: string | null;
}

/**
 * The evidence of mentioned_with pairs: for each pair, the entries where both entities are
 * mentioned among the entry's co-occurring names and that `keep` keeps. Only what filters look
 * at is read for all of them (thousands, for pairs of much-mentioned entities); lines and
 * provenance only for the first `cap` of each pair.
 */
export function sharedEvidence(db: Database.Database, pairs: ReadonlyArray<readonly [number, number]>, keep: (entry: Pick<SharedEntry, 'tool' | 'origin' | 'observed'>) => boolean, cap: number): SharedEvidence[] {
  if (pairs.length === 0) return [];
  const shared = sharedEntryIds(db, pairs);
  const ordered = db
    .prepare('SELECT g.id, g.tool, g.origin, g.observed FROM graph_entries g JOIN graph_paths p ON p.id = g.path_id WHERE g.id IN (SELECT value FROM json_each(?)) ORDER BY p.path, g.start_line')
    .raw()
    .all(JSON.stringify([...new Set(shared.flat())])) as Array<[number, SourceTool, OriginClass, string | null]>;
  const rank = new Map<number, number>();
  ordered.forEach(([id, tool, origin, observed], i) => {
    if (keep({ tool, origin, observed })) rank.set(id, i);
  });
  const kept = shared.map((ids) => ids.filter((id) => rank.has(id)).sort((x, y) => rank.get(x)! - rank.get(y)!));
  const rows = db
    .prepare('SELECT g.id, p.path, g.start_line, g.end_line, g.chunk_id, g.dream_run, g.origin, g.tool, g.observed FROM graph_entries g JOIN graph_paths p ON p.id = g.path_id WHERE g.id IN (SELECT value FROM json_each(?))')
    .all(JSON.stringify([...new Set(kept.flatMap((ids) => ids.slice(0, cap)))])) as SharedEntry[];
  const byId = new Map(rows.map((r) => [r.id, r]));
  return kept.map((ids) => {
    const tools = new Set<SourceTool>();
    const origins = new Set<OriginClass>();
    let earliest: string | null = null;
    for (const id of ids) {
      const [, tool, origin, observed] = ordered[rank.get(id)!]!;
      tools.add(tool);
      origins.add(origin);
      earliest = earlier(earliest, observed);
    }
    return { count: ids.length, tools, origins, first: ids.slice(0, cap).map((id) => byId.get(id)!), earliest };
  });
}

/** Entries naming both entities of a pair (a < b) with one source tool and origin class. */
interface Tally {
  a: number;
  b: number;
  tool: SourceTool;
  origin: OriginClass;
  entries: number;
  undated: number;
  first: string | null;
}

/** Mentions of subjects whose pairs one rebuild step recounts (a few milliseconds of work). */
const REBUILD_MENTIONS = 1_500;

const tallyKey = (t: { a: number; b: number; tool: string; origin: string }) => `${t.a},${t.b},${t.tool},${t.origin}`;

function earlier(x: string | null, y: string | null): string | null {
  if (x === null) return y;
  if (y === null) return x;
  return y < x ? y : x;
}

/** SQL: the earlier of a stored date and a new one (either may be NULL). */
const EARLIER = (stored: string, added: string) => `CASE WHEN ${stored} IS NULL THEN ${added} WHEN ${added} IS NULL THEN ${stored} ELSE min(${stored}, ${added}) END`;

/**
 * Keeps `mentioned_with` claims and their tallies (graph_cooccurrence) equal to what the
 * entities' mentions say: one claim per pair of entities named together (among each entry's
 * first MAX_COOCCURRING) in at least STORED_PAIR_MIN_ENTRIES entries, and per source tool and
 * origin class how many entries name both, how many of them are undated, and the earliest
 * date. The entries themselves are the pair's evidence, found by joining the two entities'
 * mentions when asked; a pair named together once is not stored at all (lonePairs.ts).
 *
 * Entries add to tallies in memory; `flush` writes them, one statement per pair, tool and
 * origin (call it before the transaction commits). Forgetting a file subtracts its pairs,
 * found by joining its mentions. A subtraction that may have removed a tally's earliest date
 * marks it; an added entry at or before that date clears the mark (re-extracting an unchanged
 * file), and `settleStale` recomputes the rest.
 */
export class Cooccurrence {
  /**
   * Rebuilding (a first, forced or large extraction): tallies were dropped, entries are not
   * counted one by one, and `rebuildSteps` recounts every pair from the mentions at the end,
   * writing claims and tallies in key order (a b-tree written in order dirties few pages per
   * slice; counting as it goes rewrote most of the tallies and pair claim indexes every slice).
   */
  private rebuilding = false;
  private readonly pending = new Map<string, Tally>();
  /** Tallies whose earliest date may be gone, with that date. */
  private readonly stale = new Map<string, Tally & { date: string }>();
  /** Pairs (pairKey) whose tallies shrank: their claims are collected and re-dated by the update's settle. */
  private readonly shrunk = new Set<string>();
  private readonly stmts;

  constructor(private readonly db: Database.Database) {
    this.stmts = {
      upsertClaim: db
        .prepare(
          `INSERT INTO graph_claims (subject_id, predicate, object_id, literal, confidence, valid_from) VALUES (?, '${MENTIONED_WITH}', ?, NULL, ${COOCCURRENCE_CONFIDENCE}, ?)
           ON CONFLICT(${CLAIM_IDENTITY}) DO UPDATE SET valid_from = ${EARLIER('valid_from', 'excluded.valid_from')}`,
        ),
      claimEarlier: db.prepare(`UPDATE graph_claims SET valid_from = ? WHERE ${PAIR_CLAIM} AND (valid_from IS NULL OR valid_from > ?)`),
      addTally: db.prepare(
        `UPDATE graph_cooccurrence SET entries = entries + @entries, undated = undated + @undated, first_observed = ${EARLIER('first_observed', '@first')}
         WHERE subject_id = @a AND object_id = @b AND tool = @tool AND origin = @origin RETURNING first_observed`,
      ),
      newTally: db.prepare('INSERT INTO graph_cooccurrence (subject_id, object_id, tool, origin, entries, undated, first_observed) VALUES (?, ?, ?, ?, ?, ?, ?)'),
      fileTallies: db.prepare(
        `SELECT a.entity_id AS a, b.entity_id AS b, g.tool, g.origin, count(*) AS entries, sum(g.observed IS NULL) AS undated, min(g.observed) AS first
         FROM graph_entries g
         JOIN graph_mentions a ON a.entry_id = g.id AND a.cooccurs = 1
         JOIN graph_mentions b ON b.entry_id = g.id AND b.cooccurs = 1 AND b.entity_id > a.entity_id
         WHERE ${entriesOfPath('g')} GROUP BY a.entity_id, b.entity_id, g.tool, g.origin`,
      ),
      // A tally left with no entries is deleted instead (entries > 0 is checked).
      subtract: db.prepare(
        'UPDATE graph_cooccurrence SET entries = entries - ?, undated = undated - ? WHERE subject_id = ? AND object_id = ? AND tool = ? AND origin = ? AND entries > ? RETURNING first_observed',
      ),
      dropTally: db.prepare('DELETE FROM graph_cooccurrence WHERE subject_id = ? AND object_id = ? AND tool = ? AND origin = ?'),
      dropPair: db.prepare('DELETE FROM graph_cooccurrence WHERE subject_id = ? AND object_id = ?'),
      mentionsOf: db.prepare('SELECT mentions FROM graph_entities WHERE id = ?').pluck(),
      pairEntries: db.prepare('SELECT sum(entries) FROM graph_cooccurrence WHERE subject_id = ? AND object_id = ?').pluck(),
      // Up to STORED_PAIR_MIN_ENTRIES shared entries, from the less mentioned entity's side (the first parameter).
      sharedUpTo: db
        .prepare(
          `SELECT count(*) FROM (SELECT 1 FROM graph_mentions s CROSS JOIN graph_mentions o
           WHERE s.entity_id = ? AND s.cooccurs = 1 AND o.entity_id = ? AND o.entry_id = s.entry_id AND o.cooccurs = 1 LIMIT ${STORED_PAIR_MIN_ENTRIES})`,
        )
        .pluck(),
      pairTallies: db.prepare(
        `SELECT g.tool, g.origin, count(*) AS entries, sum(g.observed IS NULL) AS undated, min(g.observed) AS first
         FROM graph_mentions s CROSS JOIN graph_mentions o JOIN graph_entries g ON g.id = s.entry_id
         WHERE s.entity_id = ? AND s.cooccurs = 1 AND o.entity_id = ? AND o.entry_id = s.entry_id AND o.cooccurs = 1 GROUP BY g.tool, g.origin`,
      ),
      scanSmall: db
        .prepare(
          `SELECT min(g.observed) FROM graph_mentions s CROSS JOIN graph_mentions o CROSS JOIN graph_entries g
           WHERE s.entity_id = ? AND s.cooccurs = 1 AND o.entity_id = ? AND o.entry_id = s.entry_id AND o.cooccurs = 1
             AND g.id = s.entry_id AND g.tool = ? AND g.origin = ?`,
        )
        .pluck(),
      setFirst: db.prepare('UPDATE graph_cooccurrence SET first_observed = ? WHERE subject_id = ? AND object_id = ? AND tool = ? AND origin = ?'),
    };
  }

  /** Whether this update recounts every pair at the end (entries are not counted one by one meanwhile). */
  get isRebuilding(): boolean {
    return this.rebuilding;
  }

  /** Whether a rebuild was started and not finished (stopped, or the process died): the next update finishes it. */
  static rebuildPending(db: Database.Database): boolean {
    return db.prepare("SELECT 1 FROM graph_state WHERE key = 'cooccurrence' AND value = 'rebuild'").get() !== undefined;
  }

  /** Drops every tally and stops counting entries: `rebuildSteps` recounts them. Call inside a transaction. */
  startRebuild(): void {
    this.db.prepare("INSERT OR REPLACE INTO graph_state (key, value) VALUES ('cooccurrence', 'rebuild')").run();
    this.db.prepare('DELETE FROM graph_cooccurrence').run();
    this.rebuilding = true;
    this.pending.clear();
    this.stale.clear();
    this.shrunk.clear();
  }

  /**
   * Recounts every pair from the mentions, in steps of about REBUILD_MENTIONS mentions of
   * subjects (consecutive entity ids; a much-mentioned entity's entries split in runs, its lone
   * pairs pruned after the last run): tallies of stored pairs in key order, then one claim per
   * pair of the subjects (kept by key, so a pair keeps
   * its claim id; dated by its earliest entry). Pair claims left without tallies are for the
   * settle to collect.
   */
  *rebuildSteps(): Generator<() => void> {
    const db = this.db;
    // `stored` keeps only the pairs a stored pair needs: all a subject's entries are in one step (else pruned after its runs).
    const tallies = (where: string, stored: boolean) =>
      db.prepare(
        `INSERT INTO graph_cooccurrence (subject_id, object_id, tool, origin, entries, undated, first_observed)
         SELECT a, b, tool, origin, entries, undated, first FROM (
           SELECT x.entity_id AS a, y.entity_id AS b, g.tool, g.origin, count(*) AS entries, sum(g.observed IS NULL) AS undated, min(g.observed) AS first,
             sum(count(*)) OVER (PARTITION BY x.entity_id, y.entity_id) AS pair_entries
           FROM graph_mentions x
           JOIN graph_mentions y ON y.entry_id = x.entry_id AND y.cooccurs = 1 AND y.entity_id > x.entity_id
           JOIN graph_entries g ON g.id = x.entry_id
           WHERE ${where} AND x.cooccurs = 1
           GROUP BY x.entity_id, y.entity_id, g.tool, g.origin
         ) WHERE ${stored ? `pair_entries >= ${STORED_PAIR_MIN_ENTRIES}` : '1'}
         ON CONFLICT (subject_id, object_id, tool, origin) DO UPDATE SET entries = entries + excluded.entries, undated = undated + excluded.undated,
           first_observed = ${EARLIER('first_observed', 'excluded.first_observed')}`,
      );
    const subjects = tallies('x.entity_id BETWEEN ? AND ?', true);
    const run = tallies('x.entity_id = ? AND x.entry_id > ? AND x.entry_id <= ?', false);
    const pruneLone = db.prepare(
      `DELETE FROM graph_cooccurrence WHERE subject_id = ? AND object_id IN (
         SELECT object_id FROM graph_cooccurrence WHERE subject_id = ? GROUP BY object_id HAVING sum(entries) < ${STORED_PAIR_MIN_ENTRIES})`,
    );
    const runEnd = db.prepare('SELECT max(entry_id) FROM (SELECT entry_id FROM graph_mentions WHERE entity_id = ? AND entry_id > ? ORDER BY entry_id LIMIT ?)').pluck();
    const claims = db.prepare(
      `INSERT INTO graph_claims (subject_id, predicate, object_id, literal, confidence, valid_from)
       SELECT subject_id, '${MENTIONED_WITH}', object_id, NULL, ${COOCCURRENCE_CONFIDENCE}, min(first_observed)
       FROM graph_cooccurrence WHERE subject_id BETWEEN ? AND ? GROUP BY subject_id, object_id
       ON CONFLICT(${CLAIM_IDENTITY}) DO UPDATE SET valid_from = excluded.valid_from`,
    );
    const entities = db.prepare('SELECT id, mentions FROM graph_entities ORDER BY id').raw().all() as Array<[number, number]>;
    let lo: number | null = null;
    let hi = 0;
    let load = 0;
    const range = (from: number, to: number) => () => {
      subjects.run(from, to);
      claims.run(from, to);
    };
    for (const [id, mentions] of entities) {
      if (mentions > REBUILD_MENTIONS) {
        if (lo !== null) yield range(lo, hi);
        lo = null;
        load = 0;
        // A much-mentioned entity: its entries in runs, then its claims.
        for (let after = 0, end: number | null = 0; end !== null; ) {
          const from = after;
          yield () => {
            end = runEnd.get(id, from, REBUILD_MENTIONS) as number | null;
            if (end !== null) run.run(id, from, end);
          };
          after = end ?? after;
        }
        yield () => {
          pruneLone.run(id, id);
          claims.run(id, id);
        };
        continue;
      }
      if (lo === null) lo = id;
      hi = id;
      load += mentions;
      if (load >= REBUILD_MENTIONS) {
        yield range(lo, hi);
        lo = null;
        load = 0;
      }
    }
    if (lo !== null) yield range(lo, hi);
    yield () => {
      db.prepare("DELETE FROM graph_state WHERE key = 'cooccurrence'").run();
      this.rebuilding = false;
    };
  }

  /** Counts one entry's pairs among `ids` (distinct; the entry's first MAX_COOCCURRING). */
  add(ids: readonly number[], tool: SourceTool, origin: OriginClass, observed: string | null): void {
    if (this.rebuilding) return;
    for (let i = 0; i < ids.length; i++)
      for (let j = i + 1; j < ids.length; j++) {
        const [a, b] = ids[i]! < ids[j]! ? [ids[i]!, ids[j]!] : [ids[j]!, ids[i]!];
        const key = `${a},${b},${tool},${origin}`;
        const tally = this.pending.get(key);
        if (tally) {
          tally.entries++;
          if (observed === null) tally.undated++;
          tally.first = earlier(tally.first, observed);
        } else this.pending.set(key, { a, b, tool, origin, entries: 1, undated: observed === null ? 1 : 0, first: observed });
      }
  }

  /**
   * Writes the counted pairs: a known tally is one update; a new tally of a stored pair also
   * upserts its claim. A pair not stored yet is stored, recounted from the mentions (which hold
   * the counted entries already), once STORED_PAIR_MIN_ENTRIES entries name it.
   */
  flush(): void {
    const unstored = new Set<string>();
    for (const [key, t] of this.pending) {
      const pair = pairKey(t.a, t.b);
      if (unstored.has(pair)) continue;
      const known = this.stmts.addTally.get(t) as { first_observed: string | null } | undefined;
      if (!known) {
        if (this.stmts.pairEntries.get(t.a, t.b) === null) {
          unstored.add(pair); // every tally of it comes from the recount below
          continue;
        }
        this.stmts.upsertClaim.run(t.a, t.b, t.first);
        this.stmts.newTally.run(t.a, t.b, t.tool, t.origin, t.entries, t.undated, t.first);
      } else if (t.first !== null && known.first_observed === t.first) {
        this.stmts.claimEarlier.run(t.first, t.a, t.b, t.first); // the pair may be older than it said
      }
      const stale = this.stale.get(key);
      // An added entry at or before the date that may be gone: the stored earliest date is real again.
      if (stale && t.first !== null && t.first <= stale.date) this.stale.delete(key);
    }
    this.pending.clear();
    for (const pair of unstored) {
      const [a, b] = pair.split(',').map(Number) as [number, number];
      if (this.sharedUpTo(a, b) >= STORED_PAIR_MIN_ENTRIES) this.storePair(a, b);
    }
  }

  /** Entries naming both entities, counted up to STORED_PAIR_MIN_ENTRIES. */
  private sharedUpTo(a: number, b: number): number {
    const [na, nb] = [(this.stmts.mentionsOf.get(a) as number | undefined) ?? 0, (this.stmts.mentionsOf.get(b) as number | undefined) ?? 0];
    return this.stmts.sharedUpTo.get(...(na <= nb ? [a, b] : [b, a])) as number;
  }

  /** Stores a pair (a < b) with its tallies and claim recounted from the mentions (exact: no date is maybe gone). */
  private storePair(a: number, b: number): void {
    const tallies = this.stmts.pairTallies.all(a, b) as Array<{ tool: SourceTool; origin: OriginClass; entries: number; undated: number; first: string | null }>;
    let first: string | null = null;
    for (const t of tallies) first = earlier(first, t.first);
    this.stmts.upsertClaim.run(a, b, first);
    for (const t of tallies) this.stmts.newTally.run(a, b, t.tool, t.origin, t.entries, t.undated, t.first);
    this.forgetMarks((x, y) => x === a && y === b);
  }

  /** Subtracts the pairs of a file's entries (by its graph_paths id), before its mentions are deleted. */
  forget(pathId: number): void {
    if (this.rebuilding) return;
    const pairs = new Set<string>();
    for (const r of this.stmts.fileTallies.all({ path_id: pathId }) as Tally[]) {
      const key = tallyKey(r);
      pairs.add(pairKey(r.a, r.b));
      this.shrunk.add(pairKey(r.a, r.b));
      const left = this.stmts.subtract.get(r.entries, r.undated, r.a, r.b, r.tool, r.origin, r.entries) as { first_observed: string | null } | undefined;
      if (!left) {
        this.stmts.dropTally.run(r.a, r.b, r.tool, r.origin); // its last entries
        this.stale.delete(key);
      } else if (r.first !== null && left.first_observed !== null && r.first <= left.first_observed && !this.stale.has(key)) {
        // The forgotten entries held the earliest date: other entries may or may not have it too.
        this.stale.set(key, { ...r, date: left.first_observed });
      }
    }
    // A stored pair left with fewer entries than a stored pair needs is a lone pair again: its claim is collected by the settle.
    for (const pair of pairs) {
      const [a, b] = pair.split(',').map(Number) as [number, number];
      const left = this.stmts.pairEntries.get(a, b) as number | null;
      if (left !== null && left < STORED_PAIR_MIN_ENTRIES) this.dropPair(a, b);
    }
  }

  /** Deletes a pair's tallies (its claim is being deleted or re-keyed by a merge). */
  dropPair(subject: number, object: number): void {
    if (this.rebuilding) return;
    this.stmts.dropPair.run(subject, object);
    this.forgetMarks((a, b) => a === subject && b === object);
  }

  /** Drops the stale marks of pairs `which` selects (their tallies were dropped or recounted exactly). */
  private forgetMarks(which: (a: number, b: number) => boolean): void {
    for (const [key, s] of this.stale) if (which(s.a, s.b)) this.stale.delete(key);
  }

  /**
   * Recounts every pair of `entity` from its mentions, after a merge moved another entity's
   * mentions to it (an entry naming both counts once). Its mentioned_with claims must already
   * be keyed to it and the merged entity's tallies dropped.
   */
  recount(entity: number): void {
    if (this.rebuilding) return;
    const db = this.db;
    const pairs = db
      .prepare(`SELECT subject_id, object_id FROM graph_claims WHERE predicate = '${MENTIONED_WITH}' AND (subject_id = ? OR object_id = ?)`)
      .raw()
      .all(entity, entity) as Array<[number, number]>;
    for (const [s, o] of pairs) {
      this.stmts.dropPair.run(s, o);
      this.shrunk.add(pairKey(s, o));
    }
    // Recounted from the mentions: exact, and possibly earlier than a date marked as maybe gone.
    this.forgetMarks((a, b) => a === entity || b === entity);
    const rows = db
      .prepare(
        `SELECT o.entity_id AS other, g.tool, g.origin, count(*) AS entries, sum(g.observed IS NULL) AS undated, min(g.observed) AS first
         FROM graph_mentions m
         JOIN graph_mentions o ON o.entry_id = m.entry_id AND o.cooccurs = 1 AND o.entity_id != m.entity_id
         JOIN graph_entries g ON g.id = m.entry_id
         WHERE m.entity_id = ? AND m.cooccurs = 1 GROUP BY o.entity_id, g.tool, g.origin`,
      )
      .all(entity) as Array<{ other: number; tool: SourceTool; origin: OriginClass; entries: number; undated: number; first: string | null }>;
    const shared = new Map<number, number>();
    for (const r of rows) shared.set(r.other, (shared.get(r.other) ?? 0) + r.entries);
    for (const r of rows) {
      if (shared.get(r.other)! < STORED_PAIR_MIN_ENTRIES) continue; // a lone pair
      const [a, b] = entity < r.other ? [entity, r.other] : [r.other, entity];
      this.stmts.upsertClaim.run(a, b, r.first);
      this.stmts.newTally.run(a, b, r.tool, r.origin, r.entries, r.undated, r.first);
      this.shrunk.add(pairKey(a, b));
    }
  }

  /**
   * Recomputes the earliest date of tallies whose earliest entry was forgotten and not re-added
   * (up to `limit` of them), from the less mentioned entity's entries that name the other too.
   * (Entries are not indexed by date: migration 0018 dropped that index, 4 % of the index file,
   * whose only use was a shortcut here for pairs of much-mentioned entities.)
   */
  settleStale(limit = Infinity): void {
    if (this.stale.size === 0) return;
    let done = 0;
    for (const [key, s] of this.stale) {
      if (done++ >= limit) return;
      this.stale.delete(key);
      const [na, nb] = [(this.stmts.mentionsOf.get(s.a) as number | undefined) ?? 0, (this.stmts.mentionsOf.get(s.b) as number | undefined) ?? 0];
      const [small, large] = na <= nb ? [s.a, s.b] : [s.b, s.a];
      const first = (this.stmts.scanSmall.get(small, large, s.tool, s.origin) as string | null | undefined) ?? null;
      this.stmts.setFirst.run(first, s.a, s.b, s.tool, s.origin);
    }
  }

  /** The claims of the pairs whose tallies shrank or were recounted since the last call. */
  takeShrunkClaims(): number[] {
    if (this.shrunk.size === 0) return [];
    const pairs = [...this.shrunk];
    this.shrunk.clear();
    const find = this.db.prepare(`SELECT id FROM graph_claims WHERE ${PAIR_CLAIM}`).pluck();
    const ids: number[] = [];
    for (const pair of pairs) {
      const [a, b] = pair.split(',').map(Number) as [number, number];
      const id = find.get(a, b) as number | undefined;
      if (id !== undefined) ids.push(id);
    }
    return ids;
  }
}
