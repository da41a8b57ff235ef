import type Database from 'better-sqlite3';
import type { AliasBook } from './aliases/aliasBook.js';
import type { Cooccurrence } from './cooccurrence.js';
import { isFurnitureWord } from './furniture.js';
import { knownNameType } from './knownNames.js';
import { STOPWORDS } from '../platform/text/stopwords.js';

/**
 * "Tidewater" is Tidewater Systems when the workspace names exactly one thing in several words
 * starting with "Tidewater" and that pair reads as an organisation or project (the first-name
 * merge of personNames.ts, for organisations). Run once types are settled from the votes: the
 * short name is merged into the long one and stays as its alias. A second "Tidewater …" makes
 * the short name ambiguous again: `ambiguousPrefixOwner` finds the entity holding it, whose files
 * are then extracted again without the alias (graphUpdate.ts), so "Tidewater" stands alone.
 */

/** Types a short or long name may have to be joined: what the words name as a company or project, or leave open. */
const JOINABLE = "('organization','project','concept')";
const OWNING = new Set(['organization', 'project']);

/** A single word worth joining: not furniture, not an everyday word, not a widely known name of its own ("Google" is not Google Cloud). */
function joinableWord(label: string): boolean {
  const lower = label.toLowerCase();
  return /^\p{Lu}/u.test(label) && !STOPWORDS.has(lower) && !isFurnitureWord(lower) && knownNameType(label) === null;
}

/** "Tidewater Systems", "Kobo Rails 2": every word capitalised (or a number), a name rather than a phrase ("settlement reports"). */
const PROPER_NAME = /^\p{Lu}\S*(?: (?:\p{Lu}|\d)\S*)+$/u;

type PairRow = [shortId: number, shortType: string, shortKey: string, shortLabel: string, longId: number, longType: string, longKey: string, longLabel: string];

/** Single-word entities (all, or those given) paired with the one multi-word name their word starts, when there is exactly one. */
const PAIRS = (where: string) => `
  SELECT s.id, s.type, s.key, s.label, min(l.id), min(l.type), min(l.key), min(l.label) FROM graph_entities s
  JOIN graph_entities l ON l.key >= s.key || ' ' AND l.key < s.key || '!'
  WHERE s.type IN ${JOINABLE} AND s.key NOT LIKE '% %' AND ${where}
  GROUP BY s.id HAVING count(*) = 1`;

/**
 * Merges each unambiguous short name into its organisation or project; `ids` limits the search
 * to the short or long names an update touched (null: the whole graph). Returns the survivors.
 */
export function joinShortOrganisationNames(db: Database.Database, ids: readonly number[] | null, aliases: AliasBook, cooccurrence: Cooccurrence, merge: MergeFn): number[] {
  let rows: PairRow[];
  if (ids === null) rows = db.prepare(PAIRS('1')).raw().all() as PairRow[];
  else {
    if (ids.length === 0) return [];
    // A touched long name brings its first word's entity in; a touched short name is itself a candidate.
    const json = JSON.stringify(ids);
    rows = db
      .prepare(
        PAIRS(`s.id IN (SELECT value FROM json_each(?) UNION SELECT s2.id FROM graph_entities l2 JOIN graph_entities s2 ON s2.key = substr(l2.key, 1, instr(l2.key, ' ') - 1)
               WHERE l2.id IN (SELECT value FROM json_each(?)) AND l2.key LIKE '% %')`),
      )
      .raw()
      .all(json, json) as PairRow[];
  }
  const survivors: number[] = [];
  const pathOf = db.prepare('SELECT p.path FROM graph_mentions m JOIN graph_entries g ON g.id = m.entry_id JOIN graph_paths p ON p.id = g.path_id WHERE m.entity_id = ? ORDER BY g.id LIMIT 1').pluck();
  for (const [shortId, shortType, shortKey, shortLabel, longId, longType, longKey, longLabel] of rows) {
    if (!JOINABLE.includes(`'${longType}'`) || (!OWNING.has(shortType) && !OWNING.has(longType))) continue;
    if (!joinableWord(shortLabel) || !PROPER_NAME.test(longLabel) || aliases.names(shortKey) || aliases.areKeptApart(shortKey, longKey)) continue;
    const path = pathOf.get(shortId) as string | undefined;
    if (path === undefined) continue;
    // The alias is kept with a file naming the short name: forgetting that file drops it, and the next mention is joined again.
    merge(db, shortId, longId, path, cooccurrence);
    survivors.push(longId);
  }
  return survivors;
}

export type MergeFn = (db: Database.Database, from: number, into: number, path: string, cooccurrence: Cooccurrence) => void;

/**
 * The organisation or project holding `firstWord` as its joined short name, when a new name
 * `newId` starting with that word makes it ambiguous; null when none (or the alias file named it).
 * A person holding a first name ("Dana" of Dana Okafor, personNames.ts) counts when the new name
 * is a person's too: only a second person makes a first name ambiguous.
 */
export function ambiguousPrefixOwner(db: Database.Database, firstWord: string, newId: number, newIsPerson: boolean, aliases: AliasBook): number | null {
  if (aliases.names(firstWord)) return null;
  let statement = ownerStatements.get(db);
  if (!statement) {
    statement = db
      .prepare(`SELECT e.id FROM graph_aliases a JOIN graph_entities e ON e.id = a.entity_id WHERE a.key = ? AND e.key >= ? AND e.key < ? AND e.id != ? AND (e.type IN ${JOINABLE} OR (e.type = 'person' AND ?)) LIMIT 1`)
      .pluck();
    ownerStatements.set(db, statement);
  }
  return (statement.get(firstWord, `${firstWord} `, `${firstWord}!`, newId, newIsPerson ? 1 : 0) as number | undefined) ?? null;
}

/** Prepared once per database: every new multi-word name asks. */
const ownerStatements = new WeakMap<Database.Database, Database.Statement>();
